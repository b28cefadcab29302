// Claude Code through the whole provider-neutral core, what only Claude Code has (issue 10): the
// real 2.1.330 fixture, copied into a temp HOME, read by the provider into a real SQLite store by
// the Collector and answered by the ReadModel. What every provider must do through the core (the
// first pass's figures, a resume, a restart, a copied response, truncation, removal, live sessions)
// is the conformance suite's (shared/providers/conformance-core.test.ts). Expected values come from
// the fixture's own lines, parsed here (format doc §3, §4, §6); costs from the list prices of
// format doc §4, never from the pricing module under test.
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { SessionView } from "../../queries/sessions.js";
import { copyClaudeHome, removeTempDirs } from "../../../test/helpers/claude-code-fixture.js";
import { expected, listCost, sessionIdOf, transcripts, zero, type RawLine, type Sums, type Transcript } from "../../../test/helpers/claude-code-oracle.js";
import { figures, oracleOf } from "../../../test/helpers/conformance/claude-code.js";
import { checkAll, checkSession, near, sessionsByKey } from "../../../test/helpers/conformance/kit.js";
import { providerReadModel } from "../../../test/helpers/provider-model.js";

test.after(removeTempDirs);

function writeLines(file: string, lines: RawLine[]): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
}

/** A file's new content under a new inode (an editor's save, a restore from backup). */
function replaceFile(file: string, lines: RawLine[]): void {
  const tmp = `${file}.tmp-replace`;
  writeLines(tmp, lines);
  fs.renameSync(tmp, file);
}

test("the fixture through the core: session facts from the lines; the sub-agent nested under its parent with its own figures; per-model counters; usageCost", async () => {
  const { home, claudeDir } = copyClaudeHome();
  const ts = transcripts(claudeDir);
  const pm = await providerReadModel("claude-code", home);
  try {
    const oracle = expected(ts);
    assert.is(ts.length, 6, "5 sessions and 1 sub-agent file (fixture README)");
    assert.ok(oracle.total.responses > 0 && oracle.total.toolCalls >= 5 && oracle.total.errors === 1);

    // Session facts from the lines: the cwd, the branch (null outside git: "HEAD"), the latest model.
    const listed = sessionsByKey(pm);
    for (const t of ts) {
      const v = listed.get(t.key) as SessionView;
      const withCwd = t.lines.filter((l) => typeof l.cwd === "string");
      assert.is(v.project, withCwd[withCwd.length - 1]?.cwd ?? null, `${t.key}: project`);
      const branch = withCwd[withCwd.length - 1]?.gitBranch;
      assert.is(v.gitBranch, branch === "HEAD" ? null : branch, `${t.key}: gitBranch`);
      const models = t.lines.filter((l) => l.type === "assistant" && l.message.model !== "<synthetic>").map((l) => l.message.model as string);
      if (models.length) assert.is(v.model, models[models.length - 1], `${t.key}: model`);
      assert.is(v.windows, 1);
      assert.is(v.kind, t.subagent ? "subagent" : "direct");
      assert.is(v.parentKey, t.parentKey);
    }

    // Nesting: the sub-agent is not a top-level session; it sits under its parent with its own figures.
    const sub = ts.find((t) => t.subagent) as Transcript;
    const grouped = pm.model.sessions(pm.sourceId);
    assert.is(grouped.length, ts.length - 1);
    assert.not.ok(grouped.some((s) => s.key === sub.key));
    const parent = grouped.find((s) => s.key === sub.parentKey);
    assert.equal(parent?.subAgents.map((s) => s.key), [sub.key]);
    checkSession(parent?.subAgents[0], figures(oracle.bySession.get(sub.key) as Sums), "nested sub-agent");
    assert.equal(pm.model.session(pm.sourceId, sub.parentKey as string)?.subAgents.map((s) => s.key), [sub.key]);

    // The Prometheus counters: per model and project, summed from the lines.
    const perModel = new Map<string, Sums>();
    const seen = new Set<string>();
    for (const t of ts) {
      const project = t.lines.find((l) => typeof l.cwd === "string")?.cwd as string;
      for (const l of t.lines) {
        if (l.type !== "assistant" || l.message.model === "<synthetic>") continue;
        const k = `${l.message.id}|${l.requestId}`;
        if (seen.has(k)) continue;
        seen.add(k);
        const id = `${l.message.model}|${project}`;
        const s = perModel.get(id) ?? zero();
        const u = l.message.usage;
        s.input += u.input_tokens;
        s.output += u.output_tokens;
        s.cacheRead += u.cache_read_input_tokens;
        s.cacheWrite += u.cache_creation_input_tokens;
        s.cost += listCost(l.message.model, u);
        s.responses++;
        perModel.set(id, s);
      }
    }
    const counters = pm.model.modelCounters().filter((c) => c.sourceId === pm.sourceId);
    assert.equal(counters.map((c) => `${c.model}|${c.project}`).sort(), [...perModel.keys()].sort());
    for (const c of counters) {
      const want = perModel.get(`${c.model}|${c.project}`) as Sums;
      assert.equal([c.provider, c.input, c.output, c.cacheRead, c.cacheWrite, c.messages, c.unpriced], ["anthropic", want.input, want.output, want.cacheRead, want.cacheWrite, want.responses, 0], `${c.model} ${c.project}`);
      near(c.costUsd, want.cost, `${c.model} ${c.project}: cost`);
    }

    // usageCost agrees with the same responses.
    const cost = pm.model.usageCost(pm.sourceId, "UTC");
    near(cost.totalUsd, oracle.total.cost, "usageCost.totalUsd");
    assert.is(cost.byModel.reduce((n, m) => n + m.messages, 0), oracle.total.responses);
  } finally {
    await pm.close();
  }
});

test("the error-only session: FAILED, no tokens, its API error an error event and each retried attempt a warning", async () => {
  const { home, claudeDir } = copyClaudeHome();
  const ts = transcripts(claudeDir);
  const w2 = sessionIdOf("099ba3cc", ts);
  const want = expected([w2]).total;
  assert.equal([want.errors, want.warnings, want.responses], [1, 3, 0], "fixture README: 3 retried attempts, then the API error");
  const pm = await providerReadModel("claude-code", home);
  try {
    const v = pm.model.session(pm.sourceId, w2.key);
    checkSession(v, figures(want), "W2");
    assert.is(v?.status, "FAILED");
    assert.is(v?.totalTokens, 0);
    // Every other session ended well: none is FAILED.
    assert.equal(pm.model.sessions(pm.sourceId, { grouped: false }).filter((s) => s.status === "FAILED").map((s) => s.key), [w2.key]);

    const events = pm.model.events(pm.sourceId);
    const errorLine = w2.lines.find((l) => l.isApiErrorMessage) as RawLine;
    const retries = w2.lines.filter((l) => l.type === "system" && l.subtype === "api_error");
    assert.equal(
      events.map((e) => [e.type, e.time, e.sessionKey]),
      [
        ["error", new Date(errorLine.timestamp).toISOString(), w2.key],
        ...retries.map((r) => ["warning", new Date(r.timestamp).toISOString(), w2.key]).reverse(),
      ],
      "newest first",
    );
    assert.match(events[0]?.message ?? "", /500/);
    for (const e of events.slice(1)) assert.match(e.message, /^500\b.*retry \d of 3/);
    assert.equal(pm.model.eventCounts(pm.sourceId), { error: 1, warning: 3, restart: 0 });
  } finally {
    await pm.close();
  }
});

test("lines without timestamps and out of order: same totals; each response's day is its own line's (the line before it's when it has none); last activity the latest line", async () => {
  const { home, claudeDir } = copyClaudeHome();
  const ts = transcripts(claudeDir);
  const a1 = sessionIdOf("2e9c2371", ts);
  const a3 = sessionIdOf("ae24cb29", ts);
  // A3: no timestamp on its first response's lines and on its tool result.
  const a3FirstId = a3.lines.find((l) => l.type === "assistant")?.message.id as string;
  const a3Lines = a3.lines.map((l) => {
    if ((l.type === "assistant" && l.message.id === a3FirstId) || (l.type === "user" && Array.isArray(l.message?.content))) {
      const { timestamp: _drop, ...rest } = l;
      return rest;
    }
    return l;
  });
  writeLines(a3.file, a3Lines);
  // A1: its first turn's last response dated the next day, in the middle of the file.
  const a1Responses = [...new Set(a1.lines.filter((l) => l.type === "assistant").map((l) => l.message.id as string))];
  const moved = a1Responses[1] as string;
  const nextDay = "2026-11-24T10:00:00.000Z";
  const a1Lines = a1.lines.map((l) => (l.type === "assistant" && l.message.id === moved ? { ...l, timestamp: nextDay } : l));
  const movedIndex = a1Lines.findIndex((l) => l.type === "assistant" && l.message.id === moved);
  assert.ok(a1Lines.slice(movedIndex + 1).some((l) => l.timestamp && l.timestamp < nextDay), "the moved line is out of order: earlier lines follow it");
  writeLines(a1.file, a1Lines);

  const changed = transcripts(claudeDir);
  const pm = await providerReadModel("claude-code", home);
  try {
    checkAll(pm, oracleOf(changed), "with changed timestamps");
    // Last activity: the latest time of any line that is activity (prompt, response, tool result, incident).
    const activity = (lines: RawLine[]): number[] =>
      lines.filter((l) => (l.type === "user" || l.type === "assistant" || (l.type === "system" && l.subtype === "api_error")) && typeof l.timestamp === "string").map((l) => Date.parse(l.timestamp));
    const a1View = pm.model.session(pm.sourceId, a1.key);
    assert.is(a1View?.lastActivityAt, nextDay);
    const a3View = pm.model.session(pm.sourceId, a3.key);
    assert.is(a3View?.lastActivityAt, new Date(Math.max(...activity(a3Lines))).toISOString());
    assert.is(a3View?.startedAt, new Date(Math.min(...activity(a3Lines))).toISOString());

    // Per day: the moved response on 2026-11-24, everything else on 2026-11-23.
    const movedLine = a1Lines.find((l) => l.type === "assistant" && l.message.id === moved) as RawLine;
    const movedCost = listCost(movedLine.message.model, movedLine.message.usage);
    const u = movedLine.message.usage;
    const movedTokens = u.input_tokens + u.output_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens;
    const total = expected(changed).total;
    const byDay = new Map(pm.model.usageCost(pm.sourceId, "UTC").byDay.map((d) => [d.date, d]));
    const day24 = byDay.get("2026-11-24");
    const day23 = byDay.get("2026-11-23");
    assert.equal([day24?.messages, day24?.totalTokens], [1, movedTokens]);
    near(day24?.costUsd ?? -1, movedCost, "2026-11-24 cost");
    // The A3 response without a timestamp is dated at the line before it (its prompt, 2026-11-23),
    // not at the time it was read (CORE_NOW, 2026-11-25).
    assert.is(byDay.get("2026-11-25")?.messages, 0, "the response with no time of its own is not booked on the day it was read");
    assert.is((day23?.messages ?? 0) + 1, total.responses);
    assert.is((day23?.totalTokens ?? 0) + movedTokens, total.input + total.output + total.cacheRead + total.cacheWrite);
    near((day23?.costUsd ?? 0) + (day24?.costUsd ?? 0), total.cost, "cost by day");
  } finally {
    await pm.close();
  }
});

/**
 * The window Claude Code itself reports for both fixture models: its `-p` JSON result carries
 * `modelUsage{…contextWindow:200000}` (format doc §9). The transcripts never name it.
 */
const FORMAT_DOC_WINDOW = 200_000;

test("a Claude Code session's context share: the last response's input and cache tokens over the model's window", async () => {
  const { home, claudeDir } = copyClaudeHome();
  const ts = transcripts(claudeDir);
  const pm = await providerReadModel("claude-code", home);
  try {
    const listed = sessionsByKey(pm);
    let shown = 0;
    for (const t of ts) {
      const v = listed.get(t.key) as SessionView;
      const real = t.lines.filter((l) => l.type === "assistant" && l.message.model !== "<synthetic>" && l.message.usage);
      const last = real[real.length - 1];
      if (!last) {
        // W2 only ever got API errors: no response, so no prompt size and no share.
        assert.equal([v.contextTokens, v.contextWindow, v.usagePercent], [null, null, null], `${t.key}: no response`);
        continue;
      }
      const u = last.message.usage as Record<string, number>;
      const tokens = (u.input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0);
      assert.is(v.contextTokens, tokens, `${t.key}: prompt size of the last response`);
      assert.is(v.contextWindow, FORMAT_DOC_WINDOW, `${t.key}: ${v.model}'s window`);
      assert.is(v.usagePercent, Math.round((tokens / FORMAT_DOC_WINDOW) * 1000) / 10, `${t.key}: share`);
      shown++;
    }
    assert.is(shown, ts.length - 1, "every session but the failed one shows a share");

    // A prompt larger than the listed window means a larger window is in use (the 1M beta keeps
    // the model id): the share is unknown, never above 100%.
    const a2 = sessionIdOf("5108af6e", ts);
    const grown = a2.lines.map((l) => {
      if (l.type !== "assistant" || !l.message.usage) return l;
      const usage = { ...(l.message.usage as Record<string, number>), cache_read_input_tokens: FORMAT_DOC_WINDOW + 1 };
      return { ...l, message: { ...l.message, usage } };
    });
    replaceFile(a2.file, grown);
    await pm.collect();
    const after = pm.model.session(pm.sourceId, a2.key) as SessionView;
    assert.ok((after.contextTokens as number) > FORMAT_DOC_WINDOW, "the larger prompt is read");
    assert.equal([after.contextWindow, after.usagePercent], [null, null]);
  } finally {
    await pm.close();
  }
});

test.run();
