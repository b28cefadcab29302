// `insightsctl alerts [list|test|mute]`: what fires, the rules and channels (never a secret), a
// test notification through a channel, and muting a rule — through the running daemon's control
// socket, which is this user's alone.
import { defineCommand } from "citty";
import { UsageError } from "../../shared/config/argv.js";
import { InsightsError } from "../../shared/base/errors.js";
import { EXIT } from "../../shared/base/exit-codes.js";
import { resolvePaths } from "../../shared/base/paths.js";
import { formatValue } from "../../shared/alerts/format.js";
import type { AlertRow, ChannelView, DeliveryView, RuleView } from "../../shared/alerts/views.js";
import { ControlClient } from "../control-client.js";
import { fail, formatDuration, printJson, say } from "../output.js";

async function connect(): Promise<ControlClient> {
  const client = await ControlClient.tryConnect(resolvePaths().socketFile);
  if (!client) {
    process.stderr.write("insightsctl: gateway-insights is not running\n  Start it with `insightsctl start`.\n");
    process.exit(EXIT.NOT_RUNNING);
  }
  return client;
}

/**
 * The daemon's "no alert rule/channel" names where the GraphQL API lists them (alertRules,
 * alertChannels); here the way to see them is a command.
 */
function forTheCli(err: unknown): unknown {
  if (!(err instanceof InsightsError) || err.code !== "NOT_FOUND") return err;
  const m = /^(no alert (rule|channel) "[^"]*")(?:;|$)/.exec(err.message);
  if (!m) return err;
  return new InsightsError("NOT_FOUND", m[1] as string, { hint: `See \`insightsctl alerts list\` for the ${m[2]}s there are.` });
}

async function call<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
  const client = await connect();
  return client
    .call<T>(method, params)
    .catch((err: unknown) => {
      throw forTheCli(err);
    })
    .finally(() => client.close());
}

/** What a test may take beyond the channel's timeout (the request's own start and the answer's way back). */
const TEST_MARGIN_SECONDS = 10;
/** ChannelSchema's largest timeoutSeconds: the wait when the channel is not listed (the daemon then says why). */
const MAX_TIMEOUT_SECONDS = 120;
/** What became of an active alert's notification, when it was not simply sent. */
const DELIVERY_NOTE: Record<AlertRow["delivery"], string> = { sent: "", no_channel: " [no channel]", not_sent: " [not sent]" };

const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

const list = defineCommand({
  meta: { name: "list", description: "Show the alerts firing now, the rules (muted until when) and the channels" },
  args: { json: { type: "boolean", description: "Print JSON: {active, rules, channels}" } },
  async run({ args }) {
    try {
      const r = await call<{ active: AlertRow[]; rules: RuleView[]; channels: ChannelView[] }>("alerts.list");
      if (args.json) return printJson(r);
      const now = Date.now();
      say(r.active.length ? `Firing (${r.active.length}):` : "Firing: none");
      for (const a of r.active) {
        say(`  ${a.severity.toUpperCase().padEnd(9)}${a.ruleId}${a.subject ? ` (${a.label})` : ""}: ${formatValue(a.value, a.unit)} of ${formatValue(a.threshold, a.unit)}, since ${iso(a.since)} (${formatDuration((now - a.since) / 1000)})${DELIVERY_NOTE[a.delivery] ?? ""}`);
        if (a.projection?.reachesAtLocal) say(`           at this pace ${formatValue(a.projection.target, a.unit)} is reached at ${a.projection.reachesAtLocal}`);
      }
      say("Rules:");
      for (const rule of r.rules) {
        const t = [rule.warning !== null ? `warning ${formatValue(rule.warning, rule.unit)}` : "", rule.critical !== null ? `critical ${formatValue(rule.critical, rule.unit)}` : ""].filter(Boolean).join(", ");
        const muted = rule.mutedUntil !== null && rule.mutedUntil > now ? `, muted until ${iso(rule.mutedUntil)}` : "";
        say(`  ${rule.id.padEnd(22)}${(rule.enabled ? "on" : "off").padEnd(6)} ${rule.metric}${rule.window ? ` per ${rule.window}` : ""}${t ? `: ${t}` : ""} [${rule.origin}]${muted}`);
      }
      say(r.channels.length ? "Channels:" : "Channels: none (add one in config.json `alerts.channels` or the dashboard)");
      for (const c of r.channels) say(`  ${c.id.padEnd(22)}${c.enabled ? "on " : "off"}    ${c.type}${c.target ? ` ${c.target}` : ""}${c.secretSet ? " (secret set)" : ""} [${c.origin}]`);
    } catch (err) {
      fail(err);
    }
  },
});

const testCmd = defineCommand({
  meta: { name: "test", description: "Send a test notification through a channel and say how it went: test <channel-id>" },
  args: { channel: { type: "positional", description: "The channel's id (see `insightsctl alerts list`)", required: true }, json: { type: "boolean", description: "Print the outcome as JSON" } },
  async run({ args }) {
    try {
      const id = String(args.channel);
      // A test makes one try bounded by the channel's timeout (up to 120 s): wait that long and a margin.
      const client = await connect();
      const r = await (async () => {
        const listed = await client.call<{ channels: ChannelView[] }>("alerts.list");
        const timeoutSeconds = listed.channels.find((c) => c.id === id)?.timeoutSeconds ?? MAX_TIMEOUT_SECONDS;
        return client.call<DeliveryView & { channel: ChannelView }>("alerts.test", { channel: id }, (timeoutSeconds + TEST_MARGIN_SECONDS) * 1000);
      })().finally(() => client.close());
      if (args.json) printJson(r);
      else say(r.outcome === "sent" ? `sent a test notification through ${r.channelId} (${r.channel.type}, ${r.attempts} ${r.attempts === 1 ? "try" : "tries"})` : `the test notification through ${r.channelId} ${r.outcome}: ${r.error ?? "unknown error"}`);
      if (r.outcome !== "sent") process.exit(EXIT.FAILURE);
    } catch (err) {
      fail(forTheCli(err));
    }
  },
});

/** `90m`, `2h`, `1d`, `1w` in milliseconds. */
function parseDuration(text: string): number | null {
  const m = /^(\d{1,6})\s*(m|min|h|d|w)$/.exec(text.trim());
  if (!m) return null;
  const unit = { m: 60_000, min: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 }[m[2] as "m"];
  return Number(m[1]) * unit;
}

const mute = defineCommand({
  meta: { name: "mute", description: "Silence a rule for a while (--for 2h, --until <time>), or end a mute (--off): mute <rule-id>" },
  args: {
    rule: { type: "positional", description: "The rule's id (see `insightsctl alerts list`)", required: true },
    for: { type: "string", description: "How long: 30m, 2h, 1d, 1w (default 1h)", valueHint: "duration" },
    until: { type: "string", description: "Until when: an ISO-8601 time, e.g. 2026-01-31T18:00:00Z", valueHint: "time" },
    off: { type: "boolean", description: "End the rule's mute" },
  },
  async run({ args }) {
    try {
      const hint = "See `insightsctl alerts mute --help`.";
      const given = [args.for !== undefined, args.until !== undefined, args.off === true].filter(Boolean).length;
      if (given > 1) throw new UsageError("--for, --until and --off exclude each other", hint, { param: "--until" });
      let until: number | null;
      if (args.off) until = null;
      else if (args.until !== undefined) {
        until = /^\d{4}-\d{2}-\d{2}T/.test(args.until) ? Date.parse(args.until) : NaN;
        if (!Number.isFinite(until)) throw new UsageError(`--until "${args.until}" is not an ISO-8601 time (e.g. 2026-01-31T18:00:00Z)`, hint, { param: "--until" });
      } else {
        const ms = parseDuration(args.for ?? "1h");
        if (ms === null || ms === 0) throw new UsageError(`--for "${args.for}" is not a duration (30m, 2h, 1d, 1w)`, hint, { param: "--for" });
        until = Date.now() + ms;
      }
      const rule = await call<RuleView & { wasMuted?: boolean }>("alerts.mute", { rule: String(args.rule), until });
      if (rule.mutedUntil !== null) say(`muted ${rule.id} until ${iso(rule.mutedUntil)}`);
      // --off: say what it did (an older daemon does not say whether there was a mute to end).
      else say(rule.wasMuted === false ? `${rule.id} was not muted` : `unmuted ${rule.id}`);
    } catch (err) {
      fail(err);
    }
  },
});

export default defineCommand({
  meta: { name: "alerts", description: "Alerts: what fires, test a channel, mute a rule (list, test, mute)" },
  subCommands: { list, test: testCmd, mute },
});
