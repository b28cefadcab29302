// Per-model weekly windows end to end, with the built CLI and a real daemon (HOME holding a copy
// of the Claude Code fixture): status-line JSON of the documented shape carrying `seven_day_opus`
// (test/fixtures/statusline/subscriber.json), fed through the real intake (`insightsctl statusline`
// over the control socket, and the socket's `statusline.report` for a reading dated earlier), reaches
// GraphQL's rateLimitsBySource as limit `claude:seven_day_opus` (rateLimits stays the plan's),
// /metrics under the same series family with `limit="claude:seven_day_opus"`, the built-in
// rate-limit rules (80 % and the projection, their text naming the window) and `insightsctl
// status`; not the card. An impossible per-model window is refused alone.
import { spawn } from "node:child_process";
import fs from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { pollUntil } from "../shared/base/clock.js";
import { resolvePaths } from "../shared/base/paths.js";
import { parseStatusInput } from "../shared/statusline/input.js";
import { reportOf } from "../shared/statusline/report.js";
import { ControlClient } from "../cli/control-client.js";
import { copyClaudeHome } from "./helpers/claude-code-fixture.js";
import { CTL, ctl, sandbox, type Sandbox } from "./helpers/cli.js";
import { removeTempDirs } from "./helpers/openclaw-fixtures.js";

type Win = { used_percentage: number; resets_at: number };
const FIXTURE = JSON.parse(fs.readFileSync(join(import.meta.dirname, "fixtures/statusline/subscriber.json"), "utf8")) as Record<string, unknown> & {
  rate_limits: { five_hour: Win; seven_day: Win; seven_day_opus: Win };
};
const W5 = FIXTURE.rate_limits.five_hour.used_percentage;
const W7 = FIXTURE.rate_limits.seven_day.used_percentage;
const OPUS = FIXTURE.rate_limits.seven_day_opus.used_percentage;
const OPUS_LIMIT = "claude:seven_day_opus";
const SOURCE = "claude-code:default";
const DAY_S = 86400;

let box: Sandbox;

test.before(async () => {
  box = await sandbox();
  fs.cpSync(copyClaudeHome().home, box.env.HOME as string, { recursive: true });
  const started = await ctl(box, ["start"]);
  assert.is(started.code, 0, started.stderr);
});
test.after(async () => {
  await box.cleanup();
  removeTempDirs();
});

/** The fixture's input for this HOME: windows resetting 1 h and 3 days from now, `seven_day_opus` as given (or `opus`). */
/** Epoch seconds the windows' resets count from: fixed, as Claude Code's are, so a reading repeated is the same reading. */
const T0 = Math.floor(Date.now() / 1000);

function input(over: { fiveHour?: number; opus?: Partial<Win> } = {}): string {
  const now = T0;
  return JSON.stringify({
    ...FIXTURE,
    transcript_path: join(box.env.HOME as string, ".claude", "projects", "-home-op-app", "s.jsonl"),
    rate_limits: {
      five_hour: { used_percentage: over.fiveHour ?? W5, resets_at: now + 3600 },
      seven_day: { used_percentage: W7, resets_at: now + 3 * DAY_S },
      seven_day_opus: { used_percentage: OPUS, resets_at: now + 3 * DAY_S, ...over.opus },
    },
  });
}

function statusline(stdin: string): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CTL, "statusline", "--color", "never"], { env: box.env, stdio: ["pipe", "pipe", "ignore"] });
    let stdout = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.on("close", (code) => resolve({ code, stdout }));
    child.stdin.on("error", () => undefined);
    child.stdin.end(stdin);
  });
}

/** The report `insightsctl statusline` makes of `text`, dated `at`, handed over the control socket as it does. */
async function reportAt(text: string, at: number): Promise<void> {
  const parsed = parseStatusInput(text);
  if (!parsed) throw new Error("not status input");
  const client = await ControlClient.connect(resolvePaths(box.env).socketFile, 5000);
  try {
    await client.call("statusline.report", { ...reportOf(parsed, at, box.env) }, 10_000);
  } finally {
    client.close();
  }
}

/**
 * Runs the status line on `text` until `landed` sees its reading: on a loaded machine the CLI may
 * miss the daemon's socket within its budget and spool the reading instead (the same reading again is no new row).
 */
async function deliver(text: string, landed: () => Promise<boolean>, what: string): Promise<void> {
  await pollUntil(
    async () => {
      assert.is((await statusline(text)).code, 0);
      return (await landed()) ? true : null;
    },
    { timeoutMs: 90_000, intervalMs: 300, what },
  );
}

const token = (): string => fs.readFileSync(join(box.stateDir, "token"), "utf8").trim();
async function gql<T>(query: string): Promise<T> {
  const res = await fetch(`http://127.0.0.1:${box.port}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token()}` },
    body: JSON.stringify({ query }),
  });
  const body = (await res.json()) as { data?: T; errors?: unknown };
  if (!body.data) throw new Error(JSON.stringify(body.errors));
  return body.data;
}

type Limit = { source: string; limitId: string | null; primary: { usedPercent: number } | null; secondary: { usedPercent: number; windowMinutes: number | null } | null; history: Array<{ secondaryUsedPercent: number | null }> };
const LIMIT = "source limitId primary { usedPercent } secondary { usedPercent windowMinutes } history { secondaryUsedPercent }";
async function limits(): Promise<{ rateLimits: Limit | null; rateLimitsBySource: Limit[] }> {
  const d = await gql<{ system: { rateLimits: Limit | null; rateLimitsBySource: Limit[] } }>(`{ system(provider: PROVIDER_B) { ... on ProviderBSystem { rateLimits { ${LIMIT} } rateLimitsBySource { ${LIMIT} } } } }`);
  return d.system;
}
const opusOf = async (): Promise<Limit | undefined> => (await limits()).rateLimitsBySource.find((l) => l.limitId === OPUS_LIMIT);

type Alert = { ruleId: string; severity: string; subject: string; value: number; label: string; projection: { reachesAt: string | null; windowEnd: string } | null };
async function activeAlerts(): Promise<Alert[]> {
  return (await gql<{ alerts: Alert[] }>("{ alerts(state: ACTIVE) { ruleId severity subject value label projection { reachesAt windowEnd } } }")).alerts;
}

test("the built-in rules cover a per-model window: 80 % warns and a projection full before its reset fires, each naming the window", async () => {
  // The install must be read before a reading can be tied to it: the first one is retried until it lands.
  const earlier = 80;
  await pollUntil(
    async () => {
      await reportAt(input({ opus: { used_percentage: earlier } }), Date.now() - 10 * 60_000).catch(() => undefined);
      return (await opusOf())?.secondary?.usedPercent === earlier ? true : null;
    },
    { timeoutMs: 90_000, intervalMs: 500, what: "the earlier reading in GraphQL" },
  );
  // Ten minutes later, through the status line itself: 5 points in 10 minutes, full 30 minutes on; the window resets in 3 days.
  const now = 85;
  await deliver(input({ opus: { used_percentage: now } }), async () => (await opusOf())?.secondary?.usedPercent === now, "the later reading in GraphQL");
  const subject = `${SOURCE}/${OPUS_LIMIT}/secondary`;
  const fired = await pollUntil(
    async () => {
      const mine = (await activeAlerts()).filter((a) => a.subject === subject);
      return mine.some((a) => a.ruleId === "rate-limit") && mine.some((a) => a.ruleId === "rate-limit-projection") ? mine : null;
    },
    { timeoutMs: 90_000, intervalMs: 500, what: "both rate-limit rules to fire on the opus window" },
  );
  const used = fired.find((a) => a.ruleId === "rate-limit")!;
  assert.equal([used.severity, used.value], ["WARNING", now]);
  assert.match(used.label, /seven_day_opus window of claude-code:default/);
  const projected = fired.find((a) => a.ruleId === "rate-limit-projection")!;
  // The alert text is "<label> projected full at HH:MM, resets ..." (shared/alerts/format.ts).
  assert.match(projected.label, /seven_day_opus window of claude-code:default/);
  assert.ok(projected.projection?.reachesAt && Date.parse(projected.projection.reachesAt) < Date.parse(projected.projection.windowEnd), JSON.stringify(projected));
  // The plan's own windows (under 80 %, flat) raise nothing.
  assert.not.ok((await activeAlerts()).some((a) => a.subject.startsWith(`${SOURCE}/claude/`)));
});

test("a reading of the documented shape: the opus window reaches rateLimitsBySource, /metrics and status; rateLimits and the card keep the plan's", async () => {
  const r = await statusline(input());
  assert.is(r.code, 0);
  assert.ok(r.stdout.includes(`5h ${Math.round(W5)}%`), r.stdout);
  await deliver(input(), async () => (await opusOf())?.secondary?.usedPercent === OPUS, "the opus window in GraphQL");
  const l = await limits();
  assert.equal([l.rateLimits?.limitId, l.rateLimits?.primary?.usedPercent, l.rateLimits?.secondary?.usedPercent], ["claude", W5, W7]);
  assert.equal(l.rateLimitsBySource.map((x) => x.limitId), ["claude", OPUS_LIMIT]);
  const opus = l.rateLimitsBySource[1]!;
  assert.equal([opus.source, opus.primary, opus.secondary?.usedPercent, opus.secondary?.windowMinutes], [SOURCE, null, OPUS, 7 * 24 * 60]);
  assert.equal(opus.history.map((h) => h.secondaryUsedPercent), [80, 85, OPUS], "its own history: the readings of this file's tests, in order");

  const metrics = await (await fetch(`http://127.0.0.1:${box.port}/metrics`, { headers: { authorization: `Bearer ${token()}` } })).text();
  const series = metrics.split("\n").filter((x) => x.startsWith("insights_rate_limit_used_ratio{") && x.includes('provider="claude-code"'));
  assert.equal(series.map((x) => [/limit="([^"]+)"/.exec(x)?.[1], /window="(\w+)"/.exec(x)?.[1], Number(x.split(" ").pop())]).sort(), [
    ["claude", "primary", W5 / 100],
    ["claude", "secondary", W7 / 100],
    [OPUS_LIMIT, "secondary", OPUS / 100],
  ]);

  const status = (await ctl(box, ["status"])).stdout;
  const lines = status.split("\n").filter((x) => x.includes("rate limits") && x.includes("Claude Code"));
  assert.is(lines.length, 2, status);
  assert.ok(lines[0]!.includes(`5h ${Math.round(W5)}%`), status);
  assert.match(lines[1]!, new RegExp(`Claude Code seven_day_opus ${Math.round(OPUS)}% \\(resets in `), status);

  const card = JSON.parse((await ctl(box, ["snapshot", "--format", "json", "-o", "-"])).stdout) as { providers: Array<{ provider: string; rateLimits?: Array<{ limitId?: string | null }> | null }> };
  assert.is(card.providers.find((p) => p.provider === "claude-code")?.rateLimits?.length, 1, "the card shows the plan's windows only");
});

test("an impossible per-model window is refused alone: the plan's windows of the same reading are kept", async () => {
  // Each reading moves the plan's 5-hour window too, so its arrival is seen.
  const readings = [
    { fiveHour: W5 + 5, opus: { used_percentage: 150 } },
    { fiveHour: W5 + 6, opus: { resets_at: Math.floor(Date.now() / 1000) + 8 * DAY_S } },
  ];
  for (const over of readings) {
    await deliver(input(over), async () => (await limits()).rateLimits?.primary?.usedPercent === over.fiveHour, `the plan's window at ${over.fiveHour} % in GraphQL`);
    assert.is((await opusOf())?.secondary?.usedPercent, OPUS, "the last possible opus reading stays in force");
  }
});

test.run();
