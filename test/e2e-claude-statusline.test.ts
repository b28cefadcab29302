// Issue 22, tested with the real program: the REAL interactive Claude Code (in a pty, through tmux,
// test/helpers/claude-code-tui.ts) against the fake Anthropic API, which answers with Anthropic's
// unified rate-limit headers (a Claude.ai plan's 5-hour and weekly windows). Claude Code's
// `statusLine` command is the recorder (test/helpers/statusline-recorder.sh), wrapped around
// STATUS_COMMAND: it keeps the JSON Claude Code hands over and what the command printed.
// Checked: the status line on screen is the command's output; under a subscription login
// (CLAUDE_CODE_OAUTH_TOKEN) `rate_limits` carries the percentages and reset times the fake API
// sent, from the latest response, and they reach the daemon's GraphQL, /metrics and card; under an
// API-key login it is absent. What was found, and every
// variation tried, is in docs/providers.md ("Claude Code's status line: what the real program sends").
// Required: CI always runs this; a developer may skip it locally with GI_SKIP_REAL_CLI=1.
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { systemClock } from "../shared/base/clock.js";
import { makeTempDir, removeTempDirs } from "./helpers/openclaw-fixtures.js";
import { realCliSkipReason, startClaudeCode, type ClaudeCodeRun } from "./helpers/claude-code-runner.js";
import { recorderCommand, startClaudeTui, statusCalls, statusRows, type ClaudeTui, type StatusCall } from "./helpers/claude-code-tui.js";
import { gqlData, startDaemon, type TestDaemon } from "./helpers/daemon.js";
import { settle, snapshotJson } from "./helpers/e2e-checks.js";
import { scrape, sumOf } from "./helpers/prometheus.js";

test.after(removeTempDirs);

const skip = realCliSkipReason();
const SOURCE = "claude-code:default";
/** What the fake API reports: 42 % and 18 % used at the first response, +1 % (5 h) and +1/3 % (7 d) per response. */
const UNIFIED = { fiveHour: 0.42, sevenDay: 0.18, step: 0.01 };
const FIVE_HOURS_S = 5 * 3600;
const WEEK_S = 7 * 86400;

/** The statusLine command under test, run by the recorder on Claude Code's JSON in the daemon's environment: the built `insightsctl statusline`. */
const STATUS_COMMAND: string[] = [process.execPath, fileURLToPath(new URL("../dist/cli/insightsctl.cjs", import.meta.url)), "statusline"];

/** A daemon reading the Claude Code run's HOME, started as the other e2e tests start it. */
function startInsights(cc: ClaudeCodeRun): Promise<TestDaemon> {
  return startDaemon({ clock: systemClock, env: { HOME: cc.home, INSIGHTS_OPENCLAW: "off", INSIGHTS_CODEX: "off", INSIGHTS_CLAUDE_CODE: "on" } });
}

/** `argv` run in the daemon's environment (its XDG dirs, port and HOME), so a CLI finds that daemon. */
function inDaemonEnv(d: TestDaemon, argv: string[]): string[] {
  if (argv.length === 0) return [];
  return ["env", ...Object.entries(d.env).filter(([k]) => k !== "PATH").map(([k, v]) => `${k}=${v}`), ...argv];
}

/** The fake API's header value after `k` responses, as it writes it (toFixed(4)), read back as Claude Code documents it: percent, one decimal. */
function percentAfter(start: number, step: number, k: number): number {
  const sent = Number(Math.min(1, start + k * step).toFixed(4));
  return Math.round(sent * 1000) / 10;
}

/** A terminal line without its SGR colour codes. */
const plain = (line: string): string => line.replace(/\x1b\[[0-9;]*m/g, "");

/** Responses the fake API served (each carried the unified headers). */
function served(cc: ClaudeCodeRun): number {
  return cc.requests().filter((r) => typeof r.msgId === "string").length;
}

interface Window {
  used_percentage: number;
  resets_at: number;
}
function rateLimits(c: StatusCall): Record<string, Window> | undefined {
  return c.input.rate_limits as Record<string, Window> | undefined;
}

/**
 * Types `prompt`, waits for the fake model's answer on screen, then for a status-line call made
 * after it that `ready` accepts and whose output is the status line drawn; returns that call and the screen.
 */
async function turn(tui: ClaudeTui, cc: ClaudeCodeRun, dir: string, prompt: string, ready: (c: StatusCall, k: number) => boolean): Promise<{ call: StatusCall; rows: string[]; k: number }> {
  const before = statusCalls(dir).length;
  await tui.prompt(prompt);
  // The fake model's text reply quotes the prompt.
  await tui.waitFor("the fake model's answer", (rows) => rows.some((r) => r.includes(`you said "${prompt}"`)));
  const lastInput = (): string => JSON.stringify(statusCalls(dir).slice(before).pop()?.input.rate_limits ?? "(missing)");
  return tui.waitFor(() => `a status line made after the answer, on screen (last rate_limits: ${lastInput()}, ${served(cc)} responses)`, (rows) => {
    const calls = statusCalls(dir).slice(before);
    const last = calls[calls.length - 1];
    const k = served(cc);
    if (!last || !ready(last, k)) return null;
    const shown = statusRows(rows);
    // The screen is read as text: the line's colours (SGR codes) are not in it.
    return shown?.[0] === plain(last.output.split("\n")[0]!).trim() ? { call: last, rows, k } : null;
  });
}

test("real interactive Claude Code: the status line shows the command's output; a subscription login hands it the fake API's 5-hour and weekly windows, an API-key login none", async () => {
  if (skip) {
    console.log(`skipped: ${skip}`);
    return;
  }
  const t0 = Date.now();
  let cc: ClaudeCodeRun | undefined;
  let d: TestDaemon | undefined;
  let tui: ClaudeTui | undefined;
  try {
    const beforeUp = Math.floor(Date.now() / 1000);
    cc = await startClaudeCode({ unified: UNIFIED });
    const run = cc;
    const afterUp = Math.ceil(Date.now() / 1000);
    d = await startInsights(run);

    // 1. Subscription login.
    const rec = makeTempDir("gi-sl-");
    tui = await startClaudeTui(run, { statusLine: recorderCommand(rec, inDaemonEnv(d, STATUS_COMMAND)), login: "oauth" });
    // At start, before any response, Claude Code has no reading to hand over.
    const first = await tui.waitFor("the first status-line call", () => statusCalls(rec)[0]);
    assert.is(rateLimits(first), undefined, `before any response: ${JSON.stringify(first.input)}`);
    assert.is(first.input.version, run.version);

    const want = (k: number) => ({ five: percentAfter(UNIFIED.fiveHour, UNIFIED.step, k), seven: percentAfter(UNIFIED.sevenDay, UNIFIED.step / 3, k) });
    const matches = (c: StatusCall, k: number): boolean => rateLimits(c)?.five_hour?.used_percentage === want(k).five && rateLimits(c)?.seven_day?.used_percentage === want(k).seven;
    const a = await turn(tui, run, rec, "hello statusline", matches);
    const kA = a.k;
    const rl = rateLimits(a.call)!;
    assert.equal(Object.keys(rl).sort(), ["five_hour", "seven_day"], JSON.stringify(rl));
    assert.equal(rl.five_hour, { used_percentage: want(kA).five, resets_at: rl.five_hour!.resets_at });
    assert.equal(rl.seven_day, { used_percentage: want(kA).seven, resets_at: rl.seven_day!.resets_at });
    // The fake API's resets: the next 5-hour boundary after the response; 7 days after its own start.
    const now = Math.floor(Date.now() / 1000);
    assert.ok(rl.five_hour!.resets_at % FIVE_HOURS_S === 0 && rl.five_hour!.resets_at > beforeUp && rl.five_hour!.resets_at <= now + FIVE_HOURS_S, `5h resets_at ${rl.five_hour!.resets_at}`);
    assert.ok(rl.seven_day!.resets_at >= beforeUp + WEEK_S && rl.seven_day!.resets_at <= afterUp + WEEK_S, `7d resets_at ${rl.seven_day!.resets_at}`);
    assert.is(a.call.input.session_id, first.input.session_id);
    assert.match(String(a.call.input.transcript_path), new RegExp(`${a.call.input.session_id as string}\\.jsonl$`));

    // A second response moves the windows: the status line carries the latest reading.
    const b = await turn(tui, run, rec, "and again", (c, k) => k > kA && matches(c, k));
    const kB = b.k;
    assert.ok(rateLimits(b.call)!.five_hour!.used_percentage > want(kA).five, "the 5-hour window moved with the second response");
    assert.is(rateLimits(b.call)!.five_hour!.used_percentage, want(kB).five);
    // What Claude Code draws is insightsctl's line: the windows it was handed, rounded.
    const shown = statusRows(b.rows)![0]!;
    assert.match(shown, new RegExp(`5h ${Math.round(want(kB).five)}%`), shown);
    assert.match(shown, new RegExp(`week ${Math.round(want(kB).seven)}%`), shown);
    const sessionId = String(b.call.input.session_id);
    await tui.stop();

    // The reading the status line handed over reached the daemon: GraphQL, /metrics and the card.
    type Limits = { system: { rateLimits: { source: string; primary: { usedPercent: number } | null; secondary: { usedPercent: number } | null } | null } };
    const q = "{ system(provider: PROVIDER_B) { ... on ProviderBSystem { rateLimits { source primary { usedPercent } secondary { usedPercent } } } } }";
    await settle(
      "the status line's windows in GraphQL",
      () => gqlData<Limits>(d!, q),
      (x) => (x.system.rateLimits?.primary?.usedPercent === want(kB).five ? null : JSON.stringify(x.system.rateLimits)),
    );
    const rlB = (await gqlData<Limits>(d, q)).system.rateLimits!;
    assert.equal([rlB.source, rlB.primary?.usedPercent, rlB.secondary?.usedPercent], [SOURCE, want(kB).five, want(kB).seven]);
    const samples = await scrape(d);
    assert.is(sumOf(samples, "insights_rate_limit_used_ratio", { provider: "claude-code", window: "primary" }), want(kB).five / 100);
    assert.is(sumOf(samples, "insights_rate_limit_used_ratio", { provider: "claude-code", window: "secondary" }), want(kB).seven / 100);
    const card = (await snapshotJson(d)) as unknown as { providers: Array<{ provider: string; rateLimits?: Array<{ primary: { usedPercent: number } | null }> | null }> };
    assert.is(card.providers.find((p) => p.provider === "claude-code")?.rateLimits?.[0]?.primary?.usedPercent, want(kB).five);

    // The daemon reads the same HOME: the status line's session is the transcript it lists.
    await settle(
      "the interactive session in GraphQL",
      () => gqlData<{ source: { sessions: Array<{ key: string }> } }>(d!, `{ source(selector: { id: "${SOURCE}" }) { ... on AgentNamespace { sessions(filter: { grouped: false, limit: 1000 }) { key } } } }`),
      (x) => (x.source.sessions.some((s) => s.key === sessionId) ? null : `sessions ${JSON.stringify(x.source.sessions)}`),
    );

    // 2. API-key login, same fake API (still sending the headers): no plan windows.
    const recKey = makeTempDir("gi-sl-");
    tui = await startClaudeTui(run, { statusLine: recorderCommand(recKey, inDaemonEnv(d, STATUS_COMMAND)), login: "api-key", cwd: "workspace-api-key" });
    const kBefore = served(run);
    // Made after the answer: Claude Code has counted API time by then.
    const afterAnswer = (x: StatusCall): boolean => ((x.input.cost as { total_api_duration_ms?: number } | undefined)?.total_api_duration_ms ?? 0) > 0;
    const c = await turn(tui, run, recKey, "hello with a key", (x, k) => k > kBefore && afterAnswer(x));
    assert.is(rateLimits(c.call), undefined, JSON.stringify(c.call.input));
    assert.ok(statusCalls(recKey).every((x) => rateLimits(x) === undefined), "no call of an API-key session has rate_limits");
    assert.is(c.call.input.cwd, path.join(run.dir, "workspace-api-key"));
    const pct = (x: StatusCall): string => `${rateLimits(x)!.five_hour!.used_percentage}/${rateLimits(x)!.seven_day!.used_percentage}`;
    console.log(`e2e-claude-statusline: Claude Code ${run.version}; rate_limits ${pct(a.call)} then ${pct(b.call)} %; ${served(run)} responses; ${Math.round((Date.now() - t0) / 1000)} s`);
  } finally {
    await tui?.stop();
    await d?.stop();
    await cc?.stop();
  }
});

test.run();
