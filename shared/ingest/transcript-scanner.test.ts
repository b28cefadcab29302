import { appendFileSync, readFileSync, readdirSync, renameSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { manualClock } from "../base/clock.js";
import { openAgentData, type AgentData } from "../providers/openclaw/agent-data.js";
import { openclawReader } from "../providers/openclaw/reader.js";
import { copyFixture, FILES_FIXTURE, makeTempDir, removeTempDirs, SQLITE_FIXTURE } from "../../test/helpers/openclaw-fixtures.js";
import type { RateLimitEvent, SourceReader, TranscriptRef } from "../providers/contract.js";
import { Store } from "../store/store.js";
import { TranscriptScanner } from "./transcript-scanner.js";
import { queryModelCounters } from "../queries/counters.js";
import { fail, ok, SourceError } from "../providers/result.js";

const clock = manualClock();

/** One OpenClaw agent's pass, as its source runs it (the fixture records every cost: nothing to price). */
function scanAgent(scanner: TranscriptScanner, data: AgentData): ReturnType<TranscriptScanner["scan"]> {
  return scanner.scan({ id: `agent:${data.agentId}`, provider: "openclaw", reader: openclawReader(data), price: () => null });
}
test.after(removeTempDirs);

interface Expected {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  cost: number;
  user: number;
  assistant: number;
  transcripts: number;
}

function sumEvents(lines: string[], into: Expected): void {
  for (const line of lines) {
    const e = JSON.parse(line) as { type: string; message?: { role: string; usage?: Record<string, number> & { cost?: { total: number } } } };
    if (e.type !== "message" || !e.message) continue;
    if (e.message.role === "user") into.user++;
    if (e.message.role === "assistant") {
      into.assistant++;
      const u = e.message.usage;
      if (!u) continue;
      into.input += u.input ?? 0;
      into.output += u.output ?? 0;
      into.cacheRead += u.cacheRead ?? 0;
      into.cacheWrite += u.cacheWrite ?? 0;
      into.cost += u.cost?.total ?? 0;
    }
  }
}

const zero = (): Expected => ({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0, user: 0, assistant: 0, transcripts: 0 });

/** Straight from the fixture DB with plain SQL, not through our readers. */
function expectedFromSqlite(dir: string): Expected {
  const db = new Database(join(dir, "agents/main/agent/openclaw-agent.sqlite"), { readonly: true });
  const rows = db.prepare("SELECT event_json FROM transcript_events ORDER BY session_id, seq").all() as Array<{ event_json: string }>;
  const out = zero();
  sumEvents(rows.map((r) => r.event_json), out);
  out.transcripts = (db.prepare("SELECT count(DISTINCT session_id) AS n FROM transcript_events").get() as { n: number }).n;
  db.close();
  return out;
}

function expectedFromFiles(dir: string): Expected {
  const sessions = join(dir, "agents/main/sessions");
  const out = zero();
  for (const f of readdirSync(sessions).filter((n) => /^[0-9a-f-]+\.jsonl$/.test(n))) {
    sumEvents(readFileSync(join(sessions, f), "utf8").split("\n").filter(Boolean), out);
    out.transcripts++;
  }
  return out;
}

function totals(store: Store): Record<string, number> {
  return store.db
    .prepare(
      `SELECT sum(input) AS input, sum(output) AS output, sum(cache_read) AS cacheRead, sum(cache_write) AS cacheWrite, sum(cost_usd) AS cost,
              sum(user_messages) AS user, sum(assistant_messages) AS assistant, count(*) AS transcripts FROM transcript_totals`,
    )
    .get() as Record<string, number>;
}

function assertMatches(actual: Record<string, number>, expected: Expected): void {
  for (const k of ["input", "output", "cacheRead", "cacheWrite", "user", "assistant", "transcripts"] as const) assert.is(actual[k], expected[k], k);
  assert.ok(Math.abs((actual.cost ?? 0) - expected.cost) < 1e-9, `cost ${actual.cost} vs ${expected.cost}`);
}

for (const [name, expectedOf] of [
  [SQLITE_FIXTURE, expectedFromSqlite],
  [FILES_FIXTURE, expectedFromFiles],
] as const) {
  test(`${name}: a full scan gives the fixture's own totals; a second scan adds nothing`, async () => {
    const dir = copyFixture(name);
    const expected = expectedOf(dir);
    assert.ok(expected.assistant > 0 && expected.input > 0, "the fixture has usage");
    const store = Store.open(join(makeTempDir(), "insights.db"), { clock });
    const opened = openAgentData(dir, "main");
    assert.ok(opened.ok);
    if (!opened.ok) return;
    const scanner = new TranscriptScanner(store, { clock, batchEvents: 7 });
    const first = await scanAgent(scanner, opened.value);
    assert.is(first.done, true);
    assert.equal(first.errors, []);
    assertMatches(totals(store), expected);
    const usageRows = (store.db.prepare("SELECT count(*) AS n, sum(input) AS input FROM token_usage").get() as { n: number; input: number });
    assert.is(usageRows.input, expected.input);
    const second = await scanAgent(scanner, opened.value);
    assert.is(second.events, 0);
    assert.is(second.caughtUp, expected.transcripts);
    assertMatches(totals(store), expected);
    opened.value.close();
    store.close();
  });
}

test("appended events are counted once; a restart resumes from the stored cursor", async () => {
  const dir = copyFixture(FILES_FIXTURE);
  const dbPath = join(makeTempDir(), "insights.db");
  const sessions = join(dir, "agents/main/sessions");
  const file = readdirSync(sessions).find((n) => /^[0-9a-f-]+\.jsonl$/.test(n)) as string;
  const before = expectedFromFiles(dir);
  let store = Store.open(dbPath, { clock });
  let agent = openAgentData(dir, "main");
  if (!agent.ok) throw agent.error;
  await scanAgent(new TranscriptScanner(store, { clock }), agent.value);
  agent.value.close();
  store.close();

  const added = {
    type: "message",
    id: "feedbeef",
    parentId: null,
    timestamp: "2026-11-21T23:00:00.000Z",
    message: { role: "assistant", content: [{ type: "text", text: "late" }], model: "fake-model", provider: "fakellm", usage: { input: 11, output: 5, cacheRead: 100, cacheWrite: 3, totalTokens: 119, cost: { total: 0.25 } } },
  };
  appendFileSync(join(sessions, file), JSON.stringify(added) + "\n");

  // A new daemon (new store handle, new reader) picks up only the new line.
  store = Store.open(dbPath, { clock });
  agent = openAgentData(dir, "main");
  if (!agent.ok) throw agent.error;
  const r = await scanAgent(new TranscriptScanner(store, { clock }), agent.value);
  assert.is(r.events, 1);
  const expected = { ...before, input: before.input + 11, output: before.output + 5, cacheRead: before.cacheRead + 100, cacheWrite: before.cacheWrite + 3, cost: before.cost + 0.25, assistant: before.assistant + 1 };
  assertMatches(totals(store), expected);
  assert.is((store.db.prepare("SELECT count(*) AS n FROM token_usage WHERE input = 11").get() as { n: number }).n, 1);
  agent.value.close();
  store.close();
});

test("the event loop turns between listing and the first read: a timer due by then fires first", async () => {
  const dir = copyFixture(FILES_FIXTURE);
  const store = Store.open(join(makeTempDir(), "insights.db"), { clock });
  const agent = openAgentData(dir, "main");
  if (!agent.ok) throw agent.error;
  // A reader that lists in one go (the file era's OpenClaw reader can also list paced: not here).
  const { listTranscriptsPaced: _paced, ...inner } = openclawReader(agent.value);
  const order: string[] = [];
  const reader: SourceReader = {
    ...inner,
    // A listing that takes a while (10,000 files are stat-ed one by one): a timer falls due meanwhile.
    listTranscripts: () => {
      setTimeout(() => order.push("timer"), 0);
      const r = inner.listTranscripts();
      const until = performance.now() + 5;
      while (performance.now() < until);
      return r;
    },
    readTranscript: (ref, cursor, limit) => {
      order.push("read");
      return inner.readTranscript(ref, cursor, limit);
    },
  };
  const r = await new TranscriptScanner(store, { clock }).scan({ id: "agent:main", provider: "openclaw", reader, price: () => null });
  assert.ok(r.done && r.events > 0);
  assert.is(order[0], "timer", order.slice(0, 3).join(", "));
  agent.value.close();
  store.close();
});

test("a reader that can list paced is listed paced: the scanner's pause lets a timer run during the listing", async () => {
  const dir = copyFixture(FILES_FIXTURE);
  const store = Store.open(join(makeTempDir(), "insights.db"), { clock });
  const agent = openAgentData(dir, "main");
  if (!agent.ok) throw agent.error;
  const inner = openclawReader(agent.value);
  const order: string[] = [];
  const reader: SourceReader = {
    ...inner,
    listTranscripts: () => {
      throw new Error("listed in one go");
    },
    listTranscriptsPaced: async (pause) => {
      setTimeout(() => order.push("timer"), 0);
      const until = performance.now() + 5;
      while (performance.now() < until);
      await pause();
      order.push("listed");
      return inner.listTranscripts();
    },
  };
  const r = await new TranscriptScanner(store, { clock }).scan({ id: "agent:main", provider: "openclaw", reader, price: () => null });
  assert.ok(r.done && r.events > 0);
  assert.equal(order.slice(0, 2), ["timer", "listed"]);
  agent.value.close();
  store.close();
});

test("rate limits: a change noted by a re-read that was rolled back is still written when a later line shows it", async () => {
  const store = Store.open(join(makeTempDir(), "insights.db"), { clock });
  const snap = (used: number): RateLimitEvent["snapshot"] => ({ limitId: "codex", primary: { usedPercent: used, windowMinutes: 300, resetsAt: null }, secondary: null, planType: null, credits: null });
  const limits = (ts: number, used: number): RateLimitEvent => ({ kind: "rateLimits", ts, pos: ts, snapshot: snap(used) });
  const ref = (id: string, token: string): TranscriptRef => ({ id, sessionKey: id, parentKey: null, changeToken: token, sizeBytes: null });
  let pass = 1;
  const reader: SourceReader = {
    listTranscripts: () => ok(pass === 1 ? [ref("a", "a1")] : [ref("a", "a2"), ref("b", "b1")]),
    readTranscript: (r, cursor) => {
      if (pass === 1) return ok({ events: [limits(100, 10)], cursor: 1, done: true, restarted: false });
      // Pass 2: "a" is read again from its start (it was replaced); its first batch shows 40 %, then it cannot be read.
      if (r.id === "a") return cursor === 1 ? ok({ events: [limits(200, 40)], cursor: "again", done: false, restarted: true }) : fail(new SourceError("missing", "gone half-way"));
      return ok({ events: [limits(300, 40)], cursor: 1, done: true, restarted: false });
    },
    readMessages: () => ok({ messages: [], bytes: 0 }),
    liveSessions: () => ok([]),
    appVersion: () => ok(null),
    changeStamp: () => ok(String(pass)),
    close: () => undefined,
  };
  const scanner = new TranscriptScanner(store, { clock });
  const target = { id: "codex:default", provider: "codex" as const, reader, price: () => null };
  await scanner.scan(target);
  pass = 2;
  const r = await scanner.scan(target);
  assert.equal(
    r.errors.map((e) => e.message),
    ["gone half-way"],
  );
  const rows = store.db.prepare("SELECT ts, primary_used AS used FROM rate_limit_samples ORDER BY ts").all();
  assert.equal(rows, [
    { ts: 100, used: 10 },
    { ts: 300, used: 40 },
  ]);
  store.close();
});

test("maxBatches bounds one call; the next call goes on where it stopped", async () => {
  const dir = copyFixture(SQLITE_FIXTURE);
  const expected = expectedFromSqlite(dir);
  const store = Store.open(join(makeTempDir(), "insights.db"), { clock });
  const agent = openAgentData(dir, "main");
  if (!agent.ok) throw agent.error;
  const scanner = new TranscriptScanner(store, { clock, batchEvents: 2, maxBatches: 3 });
  let calls = 0;
  for (;;) {
    calls++;
    const r = await scanAgent(scanner, agent.value);
    if (r.done) break;
    assert.ok(calls < 200, "converges");
  }
  assert.ok(calls > 1, "needed several calls");
  assertMatches(totals(store), expected);
  agent.value.close();
  store.close();
});

test("onWrite names the sessions a write touched: a transcript moved to another key names both", async () => {
  const dir = copyFixture(FILES_FIXTURE);
  const store = Store.open(join(makeTempDir(), "insights.db"), { clock });
  const agent = openAgentData(dir, "main");
  if (!agent.ok) throw agent.error;
  const written: string[][] = [];
  const scanner = new TranscriptScanner(store, { clock, onWrite: (keys) => written.push([...keys]) });
  await scanAgent(scanner, agent.value);
  const refs = openclawReader(agent.value).listTranscripts();
  if (!refs.ok) throw refs.error;
  const moved = refs.value.find((r) => r.sessionKey !== null);
  assert.ok(moved, "the fixture has a transcript under a session key");
  const keys = new Set(refs.value.map((r) => r.sessionKey).filter((k) => k !== null));
  assert.equal(new Set(written.flat()), keys, "the first scan names every session it wrote");
  // The same transcript, nothing new in it, now under another key (and a change token that moved).
  const base = openclawReader(agent.value);
  const reader: SourceReader = {
    ...base,
    listTranscriptsPaced: undefined,
    listTranscripts: () => ok(refs.value.map((r) => (r.id === moved.id ? { ...r, sessionKey: "agent:main:moved", changeToken: `${r.changeToken}+` } : r))),
  };
  written.length = 0;
  await scanner.scan({ id: "agent:main", provider: "openclaw", reader, price: () => null });
  assert.equal(written, [["agent:main:moved", moved.sessionKey as string]], "one write, naming the new key and the old");
  const row = store.db.prepare("SELECT session_key FROM transcript_totals WHERE source_id = 'agent:main' AND session_id = ?").get(moved.id) as { session_key: string };
  assert.is(row.session_key, "agent:main:moved");
  agent.value.close();
  store.close();
});

/** The fixture's transcripts, as (path, lines). */
function fixtureTranscripts(dir: string): Array<{ path: string; lines: string[] }> {
  const sessions = join(dir, "agents/main/sessions");
  return readdirSync(sessions)
    .filter((n) => /^[0-9a-f-]+\.jsonl$/.test(n))
    .sort()
    .map((n) => ({ path: join(sessions, n), lines: readFileSync(join(sessions, n), "utf8").split("\n").filter(Boolean) }));
}

test("file era: a corrupt line is counted and skipped, with its byte offset; the rest add up to the fixture's lines", async () => {
  const dir = copyFixture(FILES_FIXTURE);
  const expected = expectedFromFiles(dir);
  const [t] = fixtureTranscripts(dir);
  assert.ok(t && t.lines.length > 3);
  // A line cut short (a crash mid-write) between two good ones, and a line that is JSON but not an object.
  const head = t.lines.slice(0, 2).join("\n") + "\n";
  const broken = (t.lines[2] as string).slice(0, 40);
  writeFileSync(t.path, head + broken + "\n" + "[1,2]\n" + t.lines.slice(2).join("\n") + "\n");
  const store = Store.open(join(makeTempDir(), "insights.db"), { clock });
  const agent = openAgentData(dir, "main");
  if (!agent.ok) throw agent.error;
  const r = await scanAgent(new TranscriptScanner(store, { clock, batchEvents: 3 }), agent.value);
  assert.is(r.done, true);
  assert.equal(r.errors, []);
  const bad = r.warnings.filter((w) => w.code === "BAD_JSON");
  assert.equal(
    bad.map((w) => w.where),
    [`${t.path}@${Buffer.byteLength(head)}`, `${t.path}@${Buffer.byteLength(head) + Buffer.byteLength(broken) + 1}`],
  );
  assertMatches(totals(store), expected);
  agent.value.close();
  store.close();
});

test("file era: a transcript truncated in place or replaced by a new inode is summed again from its new content", async () => {
  const dir = copyFixture(FILES_FIXTURE);
  const store = Store.open(join(makeTempDir(), "insights.db"), { clock });
  const agent = openAgentData(dir, "main");
  if (!agent.ok) throw agent.error;
  const scanner = new TranscriptScanner(store, { clock, batchEvents: 4 });
  await scanAgent(scanner, agent.value);
  assertMatches(totals(store), expectedFromFiles(dir));
  const [a, b] = fixtureTranscripts(dir);
  assert.ok(a && b);
  // Truncated in place (same inode) and rewritten shorter: only its prompt and reply (the last two lines).
  const inode = statSync(a.path).ino;
  truncateSync(a.path, 0);
  appendFileSync(a.path, a.lines.slice(-2).join("\n") + "\n");
  assert.is(statSync(a.path).ino, inode);
  // Replaced (temp file + rename: a new inode) by its first six lines: the header to the first reply.
  writeFileSync(`${b.path}.tmp`, b.lines.slice(0, 6).join("\n") + "\n");
  renameSync(`${b.path}.tmp`, b.path);
  const r = await scanAgent(scanner, agent.value);
  assert.is(r.done, true);
  const codes = r.warnings.map((w) => w.code).sort();
  assert.equal(codes, ["ROTATED", "TRUNCATED"]);
  const expected = expectedFromFiles(dir);
  assert.ok(expected.input > 0 && expected.assistant >= 2, "both cut transcripts still hold a reply");
  assertMatches(totals(store), expected);
  const usage = store.db.prepare("SELECT sum(input) AS input FROM token_usage").get() as { input: number };
  assert.is(usage.input, expected.input);
  agent.value.close();
  store.close();
});

test("a transcript read again from its start commits in one go: a reader in between never sees the lifetime counters go down", async () => {
  // A transcript of 2500 responses (1 input token each), more than one commit group (1000 events).
  const dir = copyFixture(FILES_FIXTURE);
  const sessions = join(dir, "agents/main/sessions");
  const big = join(sessions, "0b0b0b0b-1111-4222-8333-444455556666.jsonl");
  const line = (i: number): string =>
    JSON.stringify({ type: "message", id: `r${i}`, parentId: null, timestamp: "2026-11-21T22:00:00.000Z", message: { role: "assistant", content: [{ type: "text", text: "x" }], model: "fake-model", provider: "fakellm", usage: { input: 1, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 1, cost: { total: 0 } } } });
  writeFileSync(big, Array.from({ length: 2500 }, (_, i) => line(i)).join("\n") + "\n");
  const store = Store.open(join(makeTempDir(), "insights.db"), { clock });
  const agent = openAgentData(dir, "main");
  if (!agent.ok) throw agent.error;
  const scanner = new TranscriptScanner(store, { clock });
  const inputTotal = (): number => queryModelCounters(store).reduce((n, c) => n + c.input, 0);
  await scanAgent(scanner, agent.value);
  const before = inputTotal();
  assert.ok(before >= 2500);

  // Replaced (a new inode) with one more response: the reader starts over at byte 0.
  const copy = `${big}.tmp`;
  writeFileSync(copy, readFileSync(big, "utf8") + line(2500) + "\n");
  renameSync(copy, big);
  const seen: number[] = [];
  let scanning = true;
  let sampled: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => (sampled = resolve));
  const sample = (): void => {
    seen.push(inputTotal());
    if (scanning) setImmediate(sample);
    else sampled();
  };
  setImmediate(sample);
  const r = await scanAgent(scanner, agent.value);
  scanning = false;
  await stopped;
  assert.is(r.done, true);
  assert.ok(seen.length > 0);
  for (const v of seen) assert.ok(v >= before, `a reader saw ${v} < ${before} mid re-read`);
  assert.is(inputTotal(), before + 1);
  agent.value.close();
  store.close();
});

test("a re-read that fails half-way commits nothing of it; the next pass does it whole", async () => {
  const dir = copyFixture(FILES_FIXTURE);
  const store = Store.open(join(makeTempDir(), "insights.db"), { clock });
  const agent = openAgentData(dir, "main");
  if (!agent.ok) throw agent.error;
  const inputTotal = (): number => queryModelCounters(store).reduce((n, c) => n + c.input, 0);
  const reader = openclawReader(agent.value);
  await new TranscriptScanner(store, { clock }).scan({ id: "agent:main", provider: "openclaw", reader, price: () => null });
  const before = inputTotal();
  // Every transcript replaced; the reader fails on the second batch of the re-read.
  const sessions = join(dir, "agents/main/sessions");
  for (const f of readdirSync(sessions).filter((n) => /^[0-9a-f-]+\.jsonl$/.test(n))) {
    const p = join(sessions, f);
    writeFileSync(`${p}.tmp`, readFileSync(p));
    renameSync(`${p}.tmp`, p);
  }
  let calls = 0;
  const failing: typeof reader = {
    ...reader,
    listTranscripts: () => reader.listTranscripts(),
    readTranscript: (...a) => (++calls === 2 ? fail(new SourceError("unreachable", "disk went away")) : reader.readTranscript(...a)),
  };
  const scanner = new TranscriptScanner(store, { clock, batchEvents: 2 });
  const r = await scanner.scan({ id: "agent:main", provider: "openclaw", reader: failing, price: () => null });
  assert.is(r.done, false);
  assert.is(inputTotal(), before, "the failed re-read left the figures as they were");
  await scanner.scan({ id: "agent:main", provider: "openclaw", reader, price: () => null });
  assert.is(inputTotal(), before, "the same lines read again: the same figures");
  agent.value.close();
  store.close();
});

test.run();
