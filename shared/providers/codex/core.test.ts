// Codex through the whole provider-neutral core, what only Codex has (issue 11): the real 0.169.0
// fixture, copied into a temp HOME, read by the provider into a real SQLite store by the Collector
// and answered by the ReadModel. What every provider must do through the core (the first pass's
// figures, a resume, a restart, a copied response, truncation, removal, live sessions) is the
// conformance suite's (shared/providers/conformance-core.test.ts). Expected tokens, turns, tools,
// errors and rate limits come from the rollout lines, parsed here (codex-format.md §4, §5, §7, §8);
// the cost oracle is the pricing module's priceUsage on each response's mapped usage and its turn's
// model (tokens are the key check).
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { SessionView } from "../../queries/sessions.js";
import type { ProviderSystemView } from "../../queries/provider-system.js";
import { copyCodexHome, isEvent, removeTempDirs, writeLines } from "../../../test/helpers/codex-fixture.js";
import { expected, oracleCost, responsesOf, rollouts, zero, type RawLine, type Rollout, type Sums } from "../../../test/helpers/codex-oracle.js";
import { byPrefix, oracleOf } from "../../../test/helpers/conformance/codex.js";
import { checkAll, near, sessionsByKey } from "../../../test/helpers/conformance/kit.js";
import { providerReadModel, type ProviderModel } from "../../../test/helpers/provider-model.js";

test.after(removeTempDirs);

/** Before the fixture's rate-limit windows reset (primary resets 2026-11-24T00:45Z): the figures are current. */
const FRESH_NOW = Date.parse("2026-11-23T22:00:00Z");

/** A file's new content under a new inode. */
function replaceFile(file: string, lines: RawLine[]): void {
  writeLines(`${file}.tmp-replace`, lines);
  fs.renameSync(`${file}.tmp-replace`, file);
}

function codexSystem(pm: ProviderModel): ProviderSystemView {
  const sys = pm.model.systemOf("codex");
  if (sys.provider !== "codex") throw new Error("not Codex's system");
  return sys;
}

/** The newest figures across installs (what GraphQL's ProviderCSystem.rateLimits shows). */
function latestLimits(sys: ProviderSystemView): ProviderSystemView["rateLimits"][number] | undefined {
  return [...sys.rateLimits].sort((a, b) => Date.parse(a.updatedAt) - Date.parse(b.updatedAt)).pop();
}

/** Every `token_count.rate_limits` of the rollouts, oldest first by line time. */
function rateLimitLines(rs: Rollout[]): Array<{ ts: number; primary: number; secondary: number }> {
  return rs
    .flatMap((r) => r.lines.filter((l) => isEvent(l, "token_count") && l.payload.rate_limits?.primary))
    .map((l) => ({ ts: Date.parse(l.timestamp), primary: l.payload.rate_limits.primary.used_percent as number, secondary: l.payload.rate_limits.secondary.used_percent as number }))
    .sort((a, b) => a.ts - b.ts);
}

/** Runs of equal figures collapsed to their first sample: the changes a history chart shows. */
function changes(samples: Array<{ ts: number; primary: number | null; secondary: number | null }>): Array<[number, number | null, number | null]> {
  const out: Array<[number, number | null, number | null]> = [];
  for (const s of samples) {
    const last = out[out.length - 1];
    if (last && last[1] === s.primary && last[2] === s.secondary) continue;
    out.push([s.ts, s.primary, s.secondary]);
  }
  return out;
}

/** The history the read model gives, as samples; no two rows may be the same sample. */
function history(pm: ProviderModel): Array<{ ts: number; primary: number | null; secondary: number | null }> {
  const rows = pm.model.rateLimitHistory(pm.sourceId, 30).map((h) => ({ ts: Date.parse(h.time), primary: h.primaryUsedPercent, secondary: h.secondaryUsedPercent }));
  const ids = rows.map((r) => `${r.ts}|${r.primary}|${r.secondary}`);
  assert.is(new Set(ids).size, ids.length, `a rate-limit sample stored twice: ${ids.join(", ")}`);
  return rows;
}

// ---------------------------------------------------------------------------------------------

test("the fixture through the core: session facts from session_meta and turn_context; per-model counters", async () => {
  const { home, codexDir } = copyCodexHome();
  const rs = rollouts(codexDir);
  const pm = await providerReadModel("codex", home);
  try {
    const oracle = expected(rs);
    assert.is(rs.length, 5, "fixture README: 5 sessions");
    assert.ok(oracle.total.responses >= 9 && oracle.total.reasoning > 0 && oracle.total.errors === 1);
    // Every model of the fixture has a price: nothing unpriced, so cost is compared whole.
    assert.is(oracle.total.unpriced, 0);

    // Session facts: project and branch from session_meta (no git: null), the latest turn's model.
    const listed = sessionsByKey(pm);
    for (const r of rs) {
      const meta = (r.lines[0] as RawLine).payload;
      const v = listed.get(r.key) as SessionView;
      assert.is(v.project, meta.cwd, `${r.key}: project`);
      assert.is(v.gitBranch, meta.git?.branch ?? null, `${r.key}: gitBranch`);
      const models = r.lines.filter((l) => l.type === "turn_context").map((l) => l.payload.model as string);
      assert.is(v.model, models[models.length - 1] ?? null, `${r.key}: model`);
      assert.equal([v.kind, v.parentKey, v.windows], ["direct", null, 1]);
    }

    // Prometheus counters per model and project (the turn's model, the session's cwd).
    const perModel = new Map<string, Sums>();
    for (const r of rs) {
      for (const resp of responsesOf(r.lines)) {
        const id = `${resp.model}|${(r.lines[0] as RawLine).payload.cwd}`;
        const s = perModel.get(id) ?? zero();
        s.input += resp.mapped.input;
        s.output += resp.mapped.output;
        s.cacheRead += resp.mapped.cacheRead;
        s.reasoning += resp.mapped.reasoning;
        s.cost += oracleCost(resp) ?? 0;
        s.responses++;
        perModel.set(id, s);
      }
    }
    const counters = pm.model.modelCounters().filter((c) => c.sourceId === pm.sourceId);
    assert.equal(counters.map((c) => `${c.model}|${c.project}`).sort(), [...perModel.keys()].sort());
    for (const c of counters) {
      const want = perModel.get(`${c.model}|${c.project}`) as Sums;
      assert.equal([c.provider, c.input, c.output, c.cacheRead, c.cacheWrite, c.reasoning, c.messages], ["openai", want.input, want.output, want.cacheRead, 0, want.reasoning, want.responses], `${c.model} ${c.project}`);
      near(c.costUsd, want.cost, `${c.model} ${c.project}: cost`);
    }
  } finally {
    await pm.close();
  }
});

test("the failed turn (HTTP 500, no usage) is an error; a 429 turn a warning; both sessions FAILED-or-not as their last turn says", async () => {
  const { home, codexDir } = copyCodexHome();
  const rs = rollouts(codexDir);
  const failed = byPrefix("01a20a4f-ce31", rs);
  const complete = failed.lines.find((l) => isEvent(l, "task_complete")) as RawLine;
  assert.is(complete.payload.error.codex_error_info, "internal_server_error");
  // A 429 turn appended to the gpt-5-mini session, shaped like format doc §7: token_count with info
  // null and primary 100, then task_complete with usage_limit_exceeded.
  const mini = byPrefix("01a20a4f-b29a", rs);
  const lastCount = [...mini.lines].reverse().find((l) => isEvent(l, "token_count")) as RawLine;
  const turnId = "01a20a4f-ffff-7000-8000-000000000429";
  const t = (s: number): string => new Date(Date.parse("2026-11-23T21:40:00Z") + s * 1000).toISOString();
  const limited = [
    { timestamp: t(0), type: "event_msg", payload: { type: "task_started", turn_id: turnId, started_at: Date.parse(t(0)) / 1000, model_context_window: 258400 } },
    { timestamp: t(0.1), type: "turn_context", payload: { turn_id: turnId, cwd: mini.lines[0]!.payload.cwd, model: "gpt-5-mini" } },
    { timestamp: t(0.2), type: "event_msg", payload: { type: "token_count", info: null, rate_limits: { ...lastCount.payload.rate_limits, primary: { ...lastCount.payload.rate_limits.primary, used_percent: 100 } } } },
    { timestamp: t(0.3), type: "event_msg", payload: { type: "task_complete", turn_id: turnId, error: { message: "You've hit your usage limit.", codex_error_info: "usage_limit_exceeded" } } },
  ];
  fs.appendFileSync(mini.file, limited.map((l) => `${JSON.stringify(l)}\n`).join(""));
  const now = rollouts(codexDir);
  const pm = await providerReadModel("codex", home, { now: FRESH_NOW });
  try {
    checkAll(pm, oracleOf(now), "with a 429 turn");
    const f = pm.model.session(pm.sourceId, failed.key);
    assert.equal([f?.status, f?.totalTokens, f?.turnCount, f?.errors], ["FAILED", 0, 1, 1]);
    const m = pm.model.session(pm.sourceId, mini.key);
    assert.equal([m?.turnCount, m?.errors], [2, 0], "a 429 is no error of the session");
    assert.not.equal(m?.status, "FAILED");

    const events = pm.model.events(pm.sourceId);
    assert.equal(
      events.map((e) => [e.type, e.time, e.sessionKey]),
      [
        ["warning", t(0.3), mini.key],
        ["error", new Date(Date.parse(complete.timestamp)).toISOString(), failed.key],
      ],
    );
    assert.is(events[1]?.message, complete.payload.error.message);
    assert.match(events[0]?.message ?? "", /usage limit/);
    assert.equal(pm.model.eventCounts(pm.sourceId), { error: 1, warning: 1, restart: 0 });

    // The 429's rate limits are the latest: primary 100 %, the rate-limit check fails.
    const sys = codexSystem(pm);
    assert.is(latestLimits(sys)?.primary?.usedPercent, 100);
    assert.is(latestLimits(sys)?.updatedAt, t(0.2));
    assert.is(latestLimits(sys)?.stale, false);
    assert.is(sys.health.checks.find((c) => c.name === "rate-limit")?.status, "FAIL");
  } finally {
    await pm.close();
  }
});

test("impossible rate-limit readings (999 %, a reset in year 5138, negative) are refused with a warning: the last possible one stays current, no check fails", async () => {
  const { home, codexDir } = copyCodexHome();
  const rs = rollouts(codexDir);
  const mini = byPrefix("01a20a4f-b29a", rs);
  const lastCount = [...mini.lines].reverse().find((l) => isEvent(l, "token_count")) as RawLine;
  const rl = lastCount.payload.rate_limits;
  const t = (s: number): string => new Date(Date.parse("2026-11-23T21:40:00Z") + s * 1000).toISOString();
  const reading = (at: number, primary: Record<string, unknown>) => ({ timestamp: t(at), type: "event_msg", payload: { type: "token_count", info: null, rate_limits: { ...rl, primary: { ...rl.primary, ...primary } } } });
  // A possible reading first (the one that must stay current), then the hostile ones after it.
  const possible = reading(0, { used_percent: 55 });
  const year5138 = Date.parse("5138-01-01T00:00:00Z") / 1000;
  fs.appendFileSync(
    mini.file,
    [possible, reading(1, { used_percent: 999, resets_at: year5138 }), reading(2, { used_percent: 999 }), reading(3, { resets_at: year5138 }), reading(4, { used_percent: -3 })].map((l) => `${JSON.stringify(l)}\n`).join(""),
  );
  const base = await providerReadModel("codex", copyCodexHome().home, { now: FRESH_NOW });
  const baseWarnings = base.model.agent(base.sourceId).warnings;
  await base.close();
  const pm = await providerReadModel("codex", home, { now: FRESH_NOW });
  try {
    const sys = codexSystem(pm);
    assert.is(latestLimits(sys)?.primary?.usedPercent, 55);
    assert.is(latestLimits(sys)?.updatedAt, t(0));
    assert.is(latestLimits(sys)?.primary?.resetsAt, new Date(rl.primary.resets_at * 1000).toISOString());
    assert.not.equal(sys.health.checks.find((c) => c.name === "rate-limit")?.status, "FAIL");
    assert.ok(history(pm).every((h) => h.primary === null || (h.primary >= 0 && h.primary <= 100)), JSON.stringify(history(pm)));
    assert.is(pm.model.agent(pm.sourceId).warnings, baseWarnings + 4, "one warning per refused reading");
  } finally {
    await pm.close();
  }
});

test("resume with a model switch in the same file: each response priced and counted under its turn's model; read in a later pass", async () => {
  const { home, codexDir } = copyCodexHome();
  const rs = rollouts(codexDir);
  const resumed = byPrefix("01a20a4f-8ada", rs);
  const starts = resumed.lines.map((l, i) => (isEvent(l, "thread_settings_applied") ? i : -1)).filter((i) => i >= 0);
  assert.is(starts.length, 2, "fixture README: the first session was resumed once");
  const cut = starts[1] as number;
  // The resumed turn ran with -m gpt-5-mini (its turn_context says so).
  const switched = resumed.lines.map((l, i) => (i > cut && l.type === "turn_context" ? { ...l, payload: { ...l.payload, model: "gpt-5-mini" } } : l));
  writeLines(resumed.file, switched.slice(0, cut));
  const pm = await providerReadModel("codex", home);
  try {
    checkAll(pm, oracleOf(rollouts(codexDir)), "before the resume");
    assert.is(pm.model.session(pm.sourceId, resumed.key)?.model, "gpt-5-codex");
    fs.appendFileSync(resumed.file, switched.slice(cut).map((l) => `${JSON.stringify(l)}\n`).join(""));
    await pm.collect();
    const now = rollouts(codexDir);
    checkAll(pm, oracleOf(now), "after the resume");
    const v = pm.model.session(pm.sourceId, resumed.key);
    assert.equal([v?.model, v?.turnCount, v?.windows], ["gpt-5-mini", 2, 1]);

    // Per model within the session: the first turn's responses under gpt-5-codex, the resumed one's under gpt-5-mini.
    const project = (resumed.lines[0] as RawLine).payload.cwd as string;
    const mine = responsesOf(switched);
    const models = [...new Set(mine.map((r) => r.model))].sort();
    assert.equal(models, ["gpt-5-codex", "gpt-5-mini"]);
    const byModel = new Map(pm.model.modelCounters().filter((c) => c.project === project).map((c) => [c.model, c]));
    for (const model of models) {
      const inThisModel = [...now]
        .filter((r) => (r.lines[0] as RawLine).payload.cwd === project)
        .flatMap((r) => responsesOf(r.lines))
        .filter((r) => r.model === model);
      const c = byModel.get(model);
      assert.equal([c?.messages, c?.input, c?.output, c?.cacheRead, c?.reasoning], [inThisModel.length, ...(["input", "output", "cacheRead", "reasoning"] as const).map((k) => inThisModel.reduce((n, r) => n + r.mapped[k], 0))], model);
      near(c?.costUsd ?? -1, inThisModel.reduce((n, r) => n + (oracleCost(r) ?? 0), 0), `${model}: cost`);
    }
    assert.ok(mine.filter((r) => r.model === "gpt-5-mini").length >= 1);
  } finally {
    await pm.close();
  }
});

test("the TUI session (source vscode) counts like an exec one; its origin is kept; a folder date that differs from the usage day changes nothing", async () => {
  const { home, codexDir } = copyCodexHome();
  const rs = rollouts(codexDir);
  const tui = byPrefix("01a20a4f-fdf8", rs);
  assert.is((tui.lines[0] as RawLine).payload.source, "vscode");
  // Created on 2026-11-23 UTC, filed under the next day's folder (codex-format.md §5: a TZ east of UTC does that).
  const moved = path.join(codexDir, "sessions/2026/11/24", path.basename(tui.file));
  fs.mkdirSync(path.dirname(moved), { recursive: true });
  fs.renameSync(tui.file, moved);
  const now = rollouts(codexDir);
  assert.ok(now.some((r) => r.rel.startsWith("sessions/2026/11/24/")));
  const pm = await providerReadModel("codex", home);
  try {
    checkAll(pm, oracleOf(now), "TUI session in the next day's folder");
    const v = pm.model.session(pm.sourceId, tui.key);
    assert.is(v?.turnCount, 2, "fixture README: 2 prompts in the TUI");
    const origins = new Map(
      (pm.store.db.prepare("SELECT session_key AS k, origin AS o FROM session_meta WHERE source_id = ?").all(pm.sourceId) as Array<{ k: string; o: string | null }>).map((r) => [r.k, r.o]),
    );
    for (const r of now) assert.is(origins.get(r.key), (r.lines[0] as RawLine).payload.source, `${r.key}: origin`);

    // Per day: every response on its line's UTC day, 2026-11-23; nothing on the folder's day.
    const total = expected(now).total;
    const days = new Map(pm.model.usageCost(pm.sourceId, "UTC").byDay.map((d) => [d.date, d]));
    assert.equal([days.get("2026-11-23")?.messages, days.get("2026-11-23")?.totalTokens], [total.responses, total.input + total.output + total.cacheRead + total.cacheWrite]);
    assert.equal([days.get("2026-11-24")?.messages, days.get("2026-11-24")?.totalTokens], [0, 0]);
    // A copy left in the old folder (a move caught half-way) is the same session: counted once.
    fs.copyFileSync(moved, tui.file);
    await pm.collect();
    checkAll(pm, oracleOf(now), "a second copy of the same session");
    assert.is(pm.model.lifetimeStats(pm.sourceId).totalSessions, now.length);
  } finally {
    await pm.close();
  }
});

test("rate limits: the latest by line time across files wins, whatever the file order; history holds each change once, across restarts and a replaced rollout", async () => {
  const { home, codexDir } = copyCodexHome();
  const rs = rollouts(codexDir);
  // The session that sorts FIRST gets the newest figures (a later resume): scanned first, yet latest.
  const first = [...rs].sort((a, b) => (a.key < b.key ? -1 : 1))[0] as Rollout;
  const lastCount = [...first.lines].reverse().find((l) => isEvent(l, "token_count")) as RawLine;
  const newest = { ...lastCount, timestamp: "2026-11-23T21:45:00.000Z", payload: { ...lastCount.payload, rate_limits: { ...lastCount.payload.rate_limits, primary: { ...lastCount.payload.rate_limits.primary, used_percent: 42 } } } };
  fs.appendFileSync(first.file, `${JSON.stringify(newest)}\n`);
  let now = rollouts(codexDir);
  const lines = rateLimitLines(now);
  const latest = lines[lines.length - 1] as (typeof lines)[number];
  assert.equal([latest.ts, latest.primary], [Date.parse(newest.timestamp), 42]);

  let pm = await providerReadModel("codex", home, { now: FRESH_NOW });
  try {
    const check = (what: string): void => {
      const sys = codexSystem(pm);
      const l = latestLimits(sys);
      assert.equal([l?.source, l?.primary?.usedPercent, l?.secondary?.usedPercent, l?.updatedAt, l?.stale], [pm.sourceId, latest.primary, latest.secondary, newest.timestamp, false], `${what}: latest`);
      assert.is(sys.rateLimits.length, 1, "one install, one entry");
      assert.equal(changes(history(pm)), changes(rateLimitLines(now)), `${what}: history`);
    };
    check("first pass");
    pm = await pm.restart();
    check("after a restart");
    // Every rollout replaced by an identical copy (new inodes, as a restore from backup): read again, nothing doubled.
    for (const r of now) replaceFile(r.file, r.lines);
    await pm.collect();
    check("after replacing every rollout");
    checkAll(pm, oracleOf(now), "after replacing every rollout");
    pm = await pm.restart();
    check("after another restart");
    now = rollouts(codexDir);
    checkAll(pm, oracleOf(now), "after another restart");
  } finally {
    await pm.close();
  }
});

test.run();
