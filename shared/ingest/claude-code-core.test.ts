// Claude Code through the whole provider-neutral core (issue 10): the real 2.1.330 fixture, copied
// into a temp HOME, read by the provider's discovery and reader, scanned into a real SQLite store by
// the Collector, and answered by the ReadModel every interface asks. Expected values come from the
// fixture's own lines, parsed here (format doc §3, §4, §6); costs from the list prices of format
// doc §4, never from the pricing module under test. Each test changes a copy of the fixture the
// way real use does (a copied response, a resume, lines without or out of order timestamps, a
// restart, a deleted, truncated or replaced transcript) and checks the answers again.
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { SessionView } from "../queries/sessions.js";
import { copyClaudeHome, removeTempDirs } from "../../test/helpers/claude-code-fixture.js";
import { expected, listCost, sessionIdOf, transcripts, zero, type RawLine, type Sums, type Transcript } from "../../test/helpers/claude-code-oracle.js";
import { providerReadModel, type ProviderModel } from "../../test/helpers/provider-model.js";

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

// ---------------------------------------------------------------------------------------------
// Comparing the read model's answers with the oracle.
// ---------------------------------------------------------------------------------------------

const near = (actual: number, want: number, what: string): void => assert.ok(Math.abs(actual - want) < 1e-6, `${what}: ${actual} != ${want}`);

function checkSession(v: SessionView | undefined | null, want: Sums, what: string): void {
  assert.ok(v, `${what}: session missing`);
  const s = v as SessionView;
  assert.equal(
    { input: s.inputTokens, output: s.outputTokens, cacheRead: s.cacheReadTokens, cacheWrite: s.cacheWriteTokens, reasoning: s.reasoningTokens, total: s.totalTokens },
    { input: want.input, output: want.output, cacheRead: want.cacheRead, cacheWrite: want.cacheWrite, reasoning: want.reasoning, total: want.input + want.output + want.cacheRead + want.cacheWrite },
    `${what}: tokens`,
  );
  assert.equal(
    { turns: s.turnCount, responses: s.assistantMessages, tools: s.toolCalls, errors: s.errors, unpriced: s.unpricedResponses },
    { turns: want.prompts, responses: want.responses, tools: want.toolCalls, errors: want.errors, unpriced: 0 },
    `${what}: counts`,
  );
  near(s.costUsd, want.cost, `${what}: cost`);
}

function checkLifetime(pm: ProviderModel, want: Sums, files: number, what: string): void {
  const l = pm.model.lifetimeStats(pm.sourceId);
  assert.equal(
    {
      sessions: l.totalSessions,
      input: l.totalInputTokens,
      output: l.totalOutputTokens,
      cacheRead: l.totalCacheReadTokens,
      cacheWrite: l.totalCacheWriteTokens,
      reasoning: l.totalReasoningTokens,
      total: l.totalTokens,
      users: l.totalUserMessages,
      assistants: l.totalAssistantMessages,
      unpriced: l.unpricedResponses,
    },
    {
      sessions: files,
      input: want.input,
      output: want.output,
      cacheRead: want.cacheRead,
      cacheWrite: want.cacheWrite,
      reasoning: want.reasoning,
      total: want.input + want.output + want.cacheRead + want.cacheWrite,
      users: want.prompts,
      assistants: want.responses,
      unpriced: 0,
    },
    `${what}: lifetimeStats`,
  );
  near(l.totalCostUsd, want.cost, `${what}: lifetime cost`);
}

/** Every session the read model lists (ungrouped), by key. */
function sessionsByKey(pm: ProviderModel): Map<string, SessionView> {
  return new Map(pm.model.sessions(pm.sourceId, { grouped: false, limit: 1000 }).map((s) => [s.key, s]));
}

function checkAll(pm: ProviderModel, ts: Transcript[], what: string, oracle = expected(ts)): void {
  const listed = sessionsByKey(pm);
  for (const [key, want] of oracle.bySession) checkSession(listed.get(key), want, `${what}: session ${key}`);
  checkLifetime(pm, oracle.total, ts.length, what);
}

// ---------------------------------------------------------------------------------------------

test("the fixture through the core: every session's tokens, list-price cost, turns, tools and errors; sub-agent nested; lifetime; per-model counters", async () => {
  const { home, claudeDir } = copyClaudeHome();
  const ts = transcripts(claudeDir);
  const pm = await providerReadModel("claude-code", home);
  try {
    assert.equal(pm.model.agents().map((a) => [a.id, a.provider, a.state.status]), [["claude-code:default", "claude-code", "CONNECTED"]]);
    const oracle = expected(ts);
    assert.is(ts.length, 6, "5 sessions and 1 sub-agent file (fixture README)");
    assert.ok(oracle.total.responses > 0 && oracle.total.toolCalls >= 5 && oracle.total.errors === 1);
    checkAll(pm, ts, "first pass", oracle);

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
    checkSession(parent?.subAgents[0], oracle.bySession.get(sub.key) as Sums, "nested sub-agent");
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
    checkSession(v, want, "W2");
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

test("a response copied into a second transcript is counted once: in a later pass, and when both files are there from the start", async () => {
  const { home, claudeDir } = copyClaudeHome();
  const ts = transcripts(claudeDir);
  const a2 = sessionIdOf("5108af6e", ts);
  const responseLines = a2.lines.filter((l) => l.type === "assistant");
  assert.ok(responseLines.length >= 1);
  const copyRel = (id: string): string => path.join(path.dirname(a2.file), `${id}.jsonl`);

  // 1. The copy appears after the first pass.
  const pm = await providerReadModel("claude-code", home);
  try {
    const before = expected(ts);
    const later = "ffffffff-0000-4000-8000-000000000001";
    writeLines(copyRel(later), responseLines);
    await pm.collect();
    const all = transcripts(claudeDir);
    assert.is(all.length, ts.length + 1);
    const copy = sessionsByKey(pm).get(later);
    checkSession(copy, zero(), "the copy holds only an already counted response");
    checkSession(pm.model.session(pm.sourceId, a2.key), before.bySession.get(a2.key) as Sums, "the original keeps it");
    checkLifetime(pm, before.total, all.length, "after the copy");
  } finally {
    await pm.close();
  }

  // 2. Both there from the start, the copy listed first: it owns the response, the total is the same.
  const fresh = copyClaudeHome();
  const early = "00000000-0000-4000-8000-000000000001";
  writeLines(path.join(path.dirname(path.join(fresh.claudeDir, a2.rel)), `${early}.jsonl`), responseLines);
  const all = transcripts(fresh.claudeDir);
  assert.is(all[0]?.key, early, "the copy sorts first");
  const oracle = expected(all);
  assert.is(oracle.bySession.get(a2.key)?.responses, 0, "the oracle gives the response to the first file");
  const pm2 = await providerReadModel("claude-code", fresh.home);
  try {
    checkAll(pm2, all, "both from the start", oracle);
  } finally {
    await pm2.close();
  }
});

test("resume appends to the same file: the resumed turn, read in a later pass, adds only itself to the one session", async () => {
  const { home, claudeDir } = copyClaudeHome();
  const ts = transcripts(claudeDir);
  const a1 = sessionIdOf("2e9c2371", ts);
  // The resume starts at the second `queue-operation` enqueue (format doc §5).
  const enqueues = a1.lines.map((l, i) => (l.type === "queue-operation" && l.operation === "enqueue" ? i : -1)).filter((i) => i >= 0);
  assert.is(enqueues.length, 2, "fixture README: A1 has two invocations");
  const cut = enqueues[1] as number;
  writeLines(a1.file, a1.lines.slice(0, cut));
  const firstHalf = transcripts(claudeDir);
  const pm = await providerReadModel("claude-code", home);
  try {
    checkAll(pm, firstHalf, "before the resume");
    assert.is(pm.model.session(pm.sourceId, a1.key)?.turnCount, 1);
    fs.appendFileSync(a1.file, a1.lines.slice(cut).map((l) => `${JSON.stringify(l)}\n`).join(""));
    await pm.collect();
    const full = transcripts(claudeDir);
    checkAll(pm, full, "after the resume");
    const v = pm.model.session(pm.sourceId, a1.key);
    assert.equal([v?.turnCount, v?.windows], [2, 1]);
    await pm.collect();
    checkAll(pm, full, "a pass with nothing new");
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
    checkAll(pm, changed, "with changed timestamps");
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

test("restart: a second collector on the same store counts nothing twice, then reads only what was appended", async () => {
  const { home, claudeDir } = copyClaudeHome();
  const ts = transcripts(claudeDir);
  let pm = await providerReadModel("claude-code", home);
  try {
    checkAll(pm, ts, "first daemon");
    const eventsBefore = pm.model.eventCounts(pm.sourceId);
    pm = await pm.restart();
    checkAll(pm, ts, "second daemon, nothing new");
    assert.equal(pm.model.eventCounts(pm.sourceId), eventsBefore);
    assert.is(pm.model.events(pm.sourceId).length, eventsBefore.error + eventsBefore.warning);

    // A new turn appended to W1 while the second daemon runs: a prompt and one response.
    const w1 = sessionIdOf("a192c37f", ts);
    const prompt = w1.lines.find((l) => l.type === "user" && typeof l.message?.content === "string") as RawLine;
    const response = w1.lines.find((l) => l.type === "assistant") as RawLine;
    const appended = [
      { ...prompt, uuid: "11111111-1111-4111-8111-111111111111", timestamp: "2026-11-23T22:00:00.000Z", message: { ...prompt.message, content: "one more question" } },
      {
        ...response,
        uuid: "22222222-2222-4222-8222-222222222222",
        timestamp: "2026-11-23T22:00:01.000Z",
        requestId: "req_011Cappendedappendedxyz",
        message: { ...response.message, id: "msg_01appendedappendedappend", usage: { ...response.message.usage, input_tokens: 7, output_tokens: 11, cache_read_input_tokens: 13, cache_creation_input_tokens: 17, cache_creation: { ephemeral_5m_input_tokens: 17, ephemeral_1h_input_tokens: 0 } } },
      },
    ];
    fs.appendFileSync(w1.file, appended.map((l) => `${JSON.stringify(l)}\n`).join(""));
    await pm.collect();
    const after = transcripts(claudeDir);
    checkAll(pm, after, "after the append");
    assert.is(pm.model.session(pm.sourceId, w1.key)?.turnCount, expected(ts).bySession.get(w1.key)!.prompts + 1);
    pm = await pm.restart();
    checkAll(pm, after, "third daemon");
  } finally {
    await pm.close();
  }
});

test("a deleted transcript keeps its session and totals (Claude Code deletes transcripts after 30 days)", async () => {
  const { home, claudeDir } = copyClaudeHome();
  const ts = transcripts(claudeDir);
  const oracle = expected(ts);
  const pm = await providerReadModel("claude-code", home);
  try {
    checkAll(pm, ts, "before");
    const a2 = sessionIdOf("5108af6e", ts);
    const w2 = sessionIdOf("099ba3cc", ts);
    fs.rmSync(a2.file);
    fs.rmSync(w2.file);
    await pm.collect();
    const listed = sessionsByKey(pm);
    checkSession(listed.get(a2.key), oracle.bySession.get(a2.key) as Sums, "deleted A2");
    checkSession(listed.get(w2.key), oracle.bySession.get(w2.key) as Sums, "deleted W2");
    assert.is(listed.get(w2.key)?.status, "FAILED");
    // Totals stay; totalSessions counts the transcripts on disk (schema: LifetimeStats.totalSessions).
    checkLifetime(pm, oracle.total, ts.length - 2, "after deleting two files");
    assert.equal(pm.model.eventCounts(pm.sourceId), { error: 1, warning: 3, restart: 0 });
    const again = await pm.restart();
    try {
      checkSession(sessionsByKey(again).get(a2.key), oracle.bySession.get(a2.key) as Sums, "deleted A2 after a restart");
      checkLifetime(again, oracle.total, ts.length - 2, "after a restart");
    } finally {
      await again.close();
    }
  } catch (err) {
    await pm.close().catch(() => undefined);
    throw err;
  }
});

test("a truncated or replaced transcript is re-read exactly once: its old figures and incidents go, the new ones count once", async () => {
  const { home, claudeDir } = copyClaudeHome();
  const ts = transcripts(claudeDir);
  const pm = await providerReadModel("claude-code", home);
  try {
    checkAll(pm, ts, "before");
    // A1 truncated to its first invocation (same inode, smaller).
    const a1 = sessionIdOf("2e9c2371", ts);
    const cut = a1.lines.map((l, i) => (l.type === "queue-operation" && l.operation === "enqueue" ? i : -1)).filter((i) => i >= 0)[1] as number;
    fs.truncateSync(a1.file, Buffer.byteLength(a1.lines.slice(0, cut).map((l) => `${JSON.stringify(l)}\n`).join("")));
    // W2 (the error session) and the sub-agent replaced by identical copies (new inodes).
    const w2 = sessionIdOf("099ba3cc", ts);
    const sub = ts.find((t) => t.subagent) as Transcript;
    replaceFile(w2.file, w2.lines);
    replaceFile(sub.file, sub.lines);
    await pm.collect();
    const now = transcripts(claudeDir);
    assert.is(now.find((t) => t.key === a1.key)?.lines.length, cut);
    checkAll(pm, now, "after truncate and replace");
    assert.is(pm.model.session(pm.sourceId, a1.key)?.turnCount, 1);
    assert.equal(pm.model.eventCounts(pm.sourceId), { error: 1, warning: 3, restart: 0 }, "the replaced error session's incidents once");
    await pm.collect();
    checkAll(pm, now, "a pass later");
    const again = await pm.restart();
    try {
      checkAll(again, now, "after a restart");
      assert.equal(again.model.eventCounts(again.sourceId), { error: 1, warning: 3, restart: 0 });
    } finally {
      await again.close();
    }
  } catch (err) {
    await pm.close().catch(() => undefined);
    throw err;
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
