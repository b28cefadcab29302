import { defineCommand } from "citty";
import type { DaemonStatus } from "../../shared/control/protocol.js";
import type { LookedAt } from "../../shared/providers/looked-at.js";
import { subLimitField } from "../../shared/providers/contract.js";
import type { RateLimitWindowView } from "../../shared/queries/rate-limits.js";
import { EXIT } from "../../shared/base/exit-codes.js";
import { resolvePaths } from "../../shared/base/paths.js";
import { describeReasons } from "../../shared/queries/health.js";
import { nameOfWord, PROVIDER_NAMES, wordHas } from "../../shared/providers/registry.js";
import { ControlClient } from "../control-client.js";
import { fail, formatBytes, formatDuration, printJson, say } from "../output.js";

const FOUND: Record<LookedAt["found"], string> = { data: "data found", empty: "no sessions yet", missing: "does not exist", "not-a-directory": "not a directory", "not-absolute": "not an absolute path" };

/** A line's label column, wide enough for the longest provider name (`claude-code`) and "dashboard". */
const WIDTH = Math.max(11, ...PROVIDER_NAMES.map((n) => n.length)) + 1;
const label = (name: string): string => `  ${name.padEnd(WIDTH)} `;

function providerLine(p: DaemonStatus["providers"][number], s: DaemonStatus): string {
  const parts: string[] = [p.health];
  if (wordHas(p.provider, "gateway")) {
    const gw = s.gateway;
    parts.push(gw.state === "up" ? `gateway up, ${nameOfWord(p.provider)} ${gw.version ?? "?"}, pid ${gw.pid ?? "?"}, ${gw.latencyMs ?? "?"} ms` : gw.state === "demo" ? "gateway demo" : `gateway ${gw.state}${gw.error ? `: ${gw.error}` : ""}`);
    if (s.openclawDir && !s.demo) parts.push(s.openclawDir);
  } else {
    // The version when one is known (Gemini CLI's only while a `gemini` runs), else just the name.
    parts.push(p.versions[0] ? `${nameOfWord(p.provider)} ${p.versions[0]}` : nameOfWord(p.provider));
    if (p.liveSessions) parts.push(`${p.liveSessions} running`);
  }
  parts.push(`${p.sources} source${p.sources === 1 ? "" : "s"}, ${p.sessions} session${p.sessions === 1 ? "" : "s"}`);
  return parts.join(", ");
}

/** "5h 42% (resets in 2h 10m)": one window of a provider's plan quota. */
function windowText(name: string, w: RateLimitWindowView | null, now: number): string | null {
  if (!w) return null;
  const reset = w.resetsAt ? Date.parse(w.resetsAt) : NaN;
  return `${name} ${Math.round(w.usedPercent)}%${reset > now ? ` (resets in ${formatDuration((reset - now) / 1000)})` : ""}`;
}

/**
 * The plan's windows per install with their age ("as of 3m 5s ago"), or why there are none; each
 * per-model weekly window on a short line of its own under them ("Claude Code seven_day_opus 7% (resets in 3d 2h)").
 */
export function rateLimitLines(p: DaemonStatus["providers"][number], now: number): string[] {
  if (!p.rateLimits) return [];
  if (!p.rateLimits.length) return [`${nameOfWord(p.provider)}: none${p.rateLimitsNote ? ` (${p.rateLimitsNote})` : ""}`];
  const installs = new Set(p.rateLimits.map((l) => l.source)).size;
  const plans = p.rateLimits.filter((l) => subLimitField(l.limitId) === null).length;
  return p.rateLimits.map((l) => {
    const field = subLimitField(l.limitId);
    if (field !== null) return `${nameOfWord(p.provider)} ${windowText(field, l.secondary ?? l.primary, now) ?? `${field}: no window`}${l.stale ? ", since reset" : ""}${installs > 1 ? ` (${l.source})` : ""}`;
    const windows = [windowText("5h", l.primary, now), windowText("week", l.secondary, now)].filter((x): x is string => x !== null);
    const age = `as of ${formatDuration((now - Date.parse(l.updatedAt)) / 1000)} ago${l.stale ? ", since reset" : ""}`;
    return `${nameOfWord(p.provider)}: ${windows.join(", ") || "no window"}, ${age}${plans > 1 ? ` (${l.source})` : ""}`;
  });
}

/** `status --json` when nothing runs; the running shape is DaemonStatus (README documents both). */
interface NotRunningStatus {
  running: false;
  stateDir: string;
  socket: string;
}

export default defineCommand({
  meta: { name: "status", description: "Show whether the daemon runs and how it is; exit 0 running, 3 not running" },
  args: { json: { type: "boolean", description: "Print JSON (stable shape, see README)" } },
  async run({ args }) {
    try {
      const paths = resolvePaths();
      const client = await ControlClient.tryConnect(paths.socketFile);
      if (!client) {
        const down: NotRunningStatus = { running: false, stateDir: paths.stateDir, socket: paths.socketFile };
        if (args.json) printJson(down);
        else say("gateway-insights is not running");
        process.exit(EXIT.NOT_RUNNING);
      }
      const s = await client.call<DaemonStatus>("status").finally(() => client.close());
      if (args.json) return printJson(s);
      say(`gateway-insights ${s.version}: running (pid ${s.pid}), up ${formatDuration(s.uptimeSeconds)}`);
      // The one verdict /health and GraphQL give too, with the checks behind it when it is not ok.
      const reasons = s.healthReasons ?? [];
      say(`${label("health")}${s.health}${reasons.length ? ` (${describeReasons(reasons)})` : ""}`);
      say(`${label("dashboard")}${s.url}/   (insightsctl url prints the sign-in link)`);
      if (s.demo) say(`${label("data")}demo state (bundled sample)${s.openclawDir ? ` in ${s.openclawDir}` : ""}`);
      // One line per provider read: its own verdict, what it runs and how much it holds.
      for (const p of s.providers ?? []) say(`${label(p.provider)}${providerLine(p, s)}`);
      // The plan's quota where a provider records it (Claude Code through its status line, Codex).
      for (const p of s.providers ?? []) for (const l of rateLimitLines(p, Date.now())) say(`${label("rate limits")}${l}`);
      // Where each provider looked and what was there: a mistyped dir or a runtime not used yet shows here.
      for (const l of s.lookedAt ?? []) say(`${label("looked at")}${nameOfWord(l.provider)}: ${l.dir} (${l.from}): ${FOUND[l.found]}`);
      const troubled = s.sources.filter((x) => x.status !== "CONNECTED");
      say(`${label("sources")}${s.sources.length - troubled.length} of ${s.sources.length} connected${troubled.map((x) => `; ${x.id} ${x.status}${x.lastError ? `: ${x.lastError}` : ""}`).join("")}`);
      say(`${label("store")}${s.store.ok ? "ok" : `error: ${s.store.error}`}, ${formatBytes(s.store.sizeBytes)}, schema v${s.store.schemaVersion}, ${s.store.path}`);
      say(`${label("auth")}${s.auth}`);
      say(`${label("log")}${s.logFile}`);
    } catch (err) {
      fail(err);
    }
  },
});
