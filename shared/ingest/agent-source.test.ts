// AgentSource.refresh with a hint (issue 13): a settled source reads only the files a watch event
// named, through its reader's transcriptsAt, with the figures a full pass would give; it proves
// nothing about the rest of the install, so the next full pass still looks at everything.
import * as fs from "node:fs";
import * as path from "node:path";
import Database from "better-sqlite3";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { manualClock } from "../base/clock.js";
import { LogHub } from "../base/log/logger.js";
import { Pricer } from "../pricing/pricer.js";
import { ClaudeCodeProvider } from "../providers/claude-code/provider.js";
import { copyClaudeHome } from "../../test/helpers/claude-code-fixture.js";
import type { Install, Provider, SourceReader } from "../providers/contract.js";
import { CodexProvider } from "../providers/codex/provider.js";
import { GeminiCliProvider } from "../providers/gemini-cli/provider.js";
import { copyGeminiHome } from "../../test/helpers/conformance/gemini-cli.js";
import { sessionFiles as geminiSessionFiles } from "../../test/helpers/gemini-oracle.js";
import { copyCodexHome, rawLines, rolloutFiles, sessionIdOf as rolloutSessionId, type RawLine as CodexLine } from "../../test/helpers/codex-fixture.js";
import { OpenClawProvider } from "../providers/openclaw/provider.js";
import { copyFixture, FILES_FIXTURE, makeTempDir, removeTempDirs, SQLITE_FIXTURE } from "../../test/helpers/openclaw-fixtures.js";
import { Store } from "../store/store.js";
import { sessionIdOf, transcripts, type RawLine } from "../../test/helpers/claude-code-oracle.js";
import { AgentSource } from "./agent-source.js";

test.after(removeTempDirs);

const logger = new LogHub({ console: "off" }).logger;

/** A provider whose readers count full listings, and fail the test (throw) on one while `forbid` is set. */
function spied(p: Provider): { provider: Provider; lists: { n: number; forbid: boolean; opens: number } } {
  const lists = { n: 0, forbid: false, opens: 0 };
  const listing = (): void => {
    lists.n++;
    if (lists.forbid) throw new Error("listTranscripts called during a hinted refresh");
  };
  const provider: Provider = {
    name: p.name,
    discover: () => p.discover(),
    identity: (i) => p.identity(i),
    open: (i) => {
      lists.opens++;
      const opened = p.open(i);
      if (!opened.ok) return opened;
      const spy = new Proxy(opened.value, {
        get(target: SourceReader, prop) {
          if (prop === "listTranscripts") return () => (listing(), target.listTranscripts());
          if (prop === "listTranscriptsPaced") return async (pause: () => Promise<void>) => (listing(), target.listTranscriptsPaced ? target.listTranscriptsPaced(pause) : target.listTranscripts());
          const v = Reflect.get(target, prop) as unknown;
          return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
        },
      });
      return { ...opened, value: spy };
    },
    price: (i, r) => p.price(i, r),
  };
  return { provider, lists };
}

function sourceOf(provider: Provider): { source: AgentSource; store: Store; install: Install } {
  const clock = manualClock(Date.parse("2026-11-25T00:00:00Z"));
  const store = Store.open(path.join(makeTempDir("gi-agent-source-"), "insights.db"), { clock });
  const install = provider.discover().installs[0] as Install;
  return { source: new AgentSource(install, { provider, store, clock, logger }), store, install };
}

interface Row {
  session_id: string;
  session_key: string | null;
  input: number;
  output: number;
  cache_read: number;
  cache_write: number;
  assistant_messages: number;
  user_messages: number;
  tool_calls: number;
}

const totals = (store: Store, sourceId: string): Row[] =>
  store.db
    .prepare(
      "SELECT session_id, session_key, input, output, cache_read, cache_write, assistant_messages, user_messages, tool_calls FROM transcript_totals WHERE source_id = ? ORDER BY session_id",
    )
    .all(sourceId) as Row[];
const usageRows = (store: Store, sourceId: string): number => (store.db.prepare("SELECT count(*) AS n FROM token_usage WHERE source_id = ?").get(sourceId) as { n: number }).n;

/** A Claude Code response line like the fixture's, with its own ids and usage. */
function response(like: RawLine, n: number, input: number, output: number): RawLine {
  return {
    ...like,
    uuid: `55555555-5555-4555-8555-55555555555${n}`,
    timestamp: `2026-11-23T23:00:0${n}.000Z`,
    requestId: `req_011Chinted${n}`,
    message: {
      ...like.message,
      id: `msg_01hinted${n}`,
      content: [{ type: "text", text: "ok" }],
      usage: { ...like.message.usage, input_tokens: input, output_tokens: output, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 } },
    },
  };
}

test("Claude Code: a hinted refresh reads only the named file, without listing the install, and ends with a full pass's figures", async () => {
  const { home, claudeDir } = copyClaudeHome();
  const spy = spied(new ClaudeCodeProvider({ env: {}, home, dirs: null, pricer: new Pricer() }));
  const { source, store } = sourceOf(spy.provider);
  // Before the first full pass a hint is not enough: it lists.
  const w1 = sessionIdOf("a192c37f", transcripts(claudeDir));
  assert.ok(await source.refresh({ paths: new Set([w1.file]) }));
  assert.is(spy.lists.n, 1, "the first pass is a full one");
  const before = totals(store, source.id).find((r) => r.session_key === w1.key) as Row;
  const usageBefore = usageRows(store, source.id);
  const transcriptsBefore = source.snapshot().transcripts;
  assert.ok(before && transcriptsBefore > 1);

  const like = w1.lines.find((l) => l.type === "assistant") as RawLine;
  // Two responses, the first written twice (one line per content block, each with the whole usage: counted once).
  fs.appendFileSync(w1.file, [response(like, 1, 7, 11), response(like, 1, 7, 11), response(like, 2, 3, 5)].map((l) => `${JSON.stringify(l)}\n`).join(""));
  spy.lists.forbid = true;
  assert.ok(await source.refresh({ paths: new Set([w1.file]) }), "the hinted refresh reports a change");
  assert.is(spy.lists.n, 1, "no listing");
  assert.is(source.snapshot().state.status, "CONNECTED");
  const after = totals(store, source.id).find((r) => r.session_key === w1.key) as Row;
  assert.is(after.input, before.input + 7 + 3);
  assert.is(after.output, before.output + 11 + 5);
  assert.is(after.assistant_messages, before.assistant_messages + 2);
  assert.is(usageRows(store, source.id), usageBefore + 2);
  assert.is(source.snapshot().transcripts, transcriptsBefore, "the source's transcript count is still the full pass's");
  const session = source.snapshot().sessions.find((s) => s.key === w1.key);
  assert.ok(session, "the session is still listed");

  // A fresh store read by one full pass over the same files ends with the same figures.
  const full = sourceOf(new ClaudeCodeProvider({ env: {}, home, dirs: null, pricer: new Pricer() }));
  await full.source.refresh();
  assert.equal(totals(store, source.id), totals(full.store, full.source.id));
  assert.is(usageRows(store, source.id), usageRows(full.store, full.source.id));

  // A path the reader cannot answer for, or no hint: the reader's poll (issue 18), which finds
  // nothing more to count and lists nothing.
  await source.refresh({ paths: new Set([path.join(claudeDir, "settings.json")]) });
  await source.refresh(null);
  assert.is(spy.lists.n, 1, "a poll, not a listing");
  assert.equal(totals(store, source.id), totals(full.store, full.source.id));
  store.close();
  full.store.close();
});

test("Codex (through its provider, which wraps the reader): a hinted refresh reads the named rollout without listing", async () => {
  const { home, codexDir } = copyCodexHome();
  const spy = spied(new CodexProvider({ env: {}, home, dirs: null, pricer: new Pricer() }));
  const { source, store } = sourceOf(spy.provider);
  await source.refresh();
  assert.is(spy.lists.n, 1);
  const file = path.join(codexDir, rolloutFiles(codexDir).find((f) => rawLines(path.join(codexDir, f)).some((l) => l.type === "token_usage_record")) as string);
  const id = rolloutSessionId(file);
  const before = totals(store, source.id).find((r) => r.session_id === id) as Row;
  const record = [...rawLines(file)].reverse().find((l) => l.type === "token_usage_record") as CodexLine;
  const line = { ...record, payload: { ...record.payload, response_id: "resp_hinted_1", usage: { ...record.payload.usage, input_tokens: 40, cached_input_tokens: 0, output_tokens: 9, reasoning_output_tokens: 0 } } };
  fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
  spy.lists.forbid = true;
  assert.ok(await source.refresh({ paths: new Set([file]) }));
  assert.is(spy.lists.n, 1, "no listing");
  const after = totals(store, source.id).find((r) => r.session_id === id) as Row;
  assert.is(after.output, before.output + 9);
  assert.is(after.input, before.input + 40);
  assert.is(after.assistant_messages, before.assistant_messages + 1);
  store.close();
});

test("OpenClaw file era: a hinted refresh reads the transcript without listing, and leaves the change stamp for the next full pass", async () => {
  const state = copyFixture(FILES_FIXTURE);
  const spy = spied(new OpenClawProvider({ stateDir: state, env: {} }));
  const { source, store } = sourceOf(spy.provider);
  await source.refresh();
  assert.is(spy.lists.n, 1);
  const id = "4d7eee47-dc3e-4269-8d1c-bb0990fbc547";
  const file = path.join(state, "agents", "main", "sessions", `${id}.jsonl`);
  const before = totals(store, source.id).find((r) => r.session_id === id) as Row;
  assert.ok(before?.session_key, "the transcript has its key");
  const line = {
    type: "message",
    id: "hinted-1",
    parentId: null,
    timestamp: "2026-11-23T23:00:00.000Z",
    message: { role: "assistant", content: [{ type: "text", text: "ok" }], provider: "anthropic", model: "claude-sonnet-4-5", usage: { input: 13, output: 17, cacheRead: 0, cacheWrite: 0, totalTokens: 30, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: "stop", timestamp: 1 },
  };
  fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
  spy.lists.forbid = true;
  assert.ok(await source.refresh({ paths: new Set([file]) }));
  assert.is(spy.lists.n, 1, "no listing, no walk of sessions.json");
  const after = totals(store, source.id).find((r) => r.session_id === id) as Row;
  assert.is(after.input, before.input + 13);
  assert.is(after.output, before.output + 17);
  assert.is(after.assistant_messages, before.assistant_messages + 1);
  assert.is(after.session_key, before.session_key);
  // The stamp was not taken by the partial pass: the next full pass sees the change and lists.
  spy.lists.forbid = false;
  await source.refresh();
  assert.is(spy.lists.n, 2, "the full pass after a partial one still lists");
  assert.equal(totals(store, source.id).find((r) => r.session_id === id), after, "and counts nothing twice");
  // sessions.json named (rewritten in place): a full pass, which sees the new index and lists.
  const index = path.join(state, "agents", "main", "sessions", "sessions.json");
  fs.writeFileSync(index, `${fs.readFileSync(index, "utf8")} `);
  await source.refresh({ paths: new Set([index]) });
  assert.is(spy.lists.n, 3);
  store.close();
});

test("OpenClaw file era: sessions.json replaced by a rename, as the gateway writes it, keeps the reader open and is read", async () => {
  const state = copyFixture(FILES_FIXTURE);
  const spy = spied(new OpenClawProvider({ stateDir: state, env: {} }));
  const { source, store } = sourceOf(spy.provider);
  await source.refresh();
  assert.is(spy.lists.opens, 1);
  const index = path.join(state, "agents", "main", "sessions", "sessions.json");
  const entries = JSON.parse(fs.readFileSync(index, "utf8")) as Record<string, { updatedAt?: number }>;
  const key = Object.keys(entries)[0] as string;
  const updatedAt = Date.parse("2026-11-24T12:00:00.000Z");
  (entries[key] as { updatedAt?: number }).updatedAt = updatedAt;
  const tmp = `${index}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(entries, null, 2));
  fs.renameSync(tmp, index);
  assert.ok(await source.refresh({ paths: new Set([index]) }), "the new index is a change");
  assert.is(spy.lists.opens, 1, "the same reader: its caches are kept");
  assert.is(source.snapshot().sessions.find((x) => x.key === key)?.updatedAt, updatedAt, "the entry's new time is read");
  store.close();
});

test("a reader with a paced change stamp (Gemini CLI's stats every file) is asked for that one: an idle pass is still skipped, an append still read", async () => {
  const { home } = copyGeminiHome();
  const spy = spied(new GeminiCliProvider({ env: {}, home, dirs: null, pricer: new Pricer() }));
  const calls = { sync: 0, paced: 0 };
  const provider: Provider = {
    ...spy.provider,
    open: (i) => {
      const opened = spy.provider.open(i);
      if (!opened.ok) return opened;
      const reader = opened.value;
      const counted = new Proxy(reader, {
        get(target: SourceReader, prop) {
          if (prop === "changeStamp") return () => (calls.sync++, target.changeStamp());
          if (prop === "changeStampPaced" && target.changeStampPaced) return (pause: () => Promise<void>) => (calls.paced++, target.changeStampPaced?.(pause));
          return Reflect.get(target, prop) as unknown;
        },
      });
      return { ...opened, value: counted };
    },
  };
  const { source, store } = sourceOf(provider);
  await source.refresh();
  assert.ok(source.snapshot().firstPassDone);
  const listed = spy.lists.n;
  assert.not.ok(await source.refresh(), "nothing written: no change");
  assert.is(spy.lists.n, listed, "the equal stamp skipped the listing");
  const file = geminiSessionFiles(path.join(home, ".gemini"))[0];
  if (!file) throw new Error("no session file in the fixture");
  fs.appendFileSync(file.file, `${JSON.stringify({ $set: { lastUpdated: "2026-11-29T10:00:00.000Z" } })}\n`);
  await source.refresh();
  assert.ok(spy.lists.n > listed, "an append moved the stamp: the pass listed the install");
  assert.is(calls.sync, 0, "the blocking stamp was never asked for");
  assert.ok(calls.paced >= 3, `one paced stamp per pass (${calls.paced})`);
  assert.is(source.snapshot().state.status, "CONNECTED");
  source.close();
  store.close();
});

test("OpenClaw SQLite era: at rest the reader drops its kept rows, and the next change reads as a fresh reader does", async () => {
  const state = copyFixture(SQLITE_FIXTURE);
  const provider = new OpenClawProvider({ stateDir: state, env: {} });
  const clock = manualClock(Date.parse("2026-11-25T00:00:00Z"));
  const store = Store.open(path.join(makeTempDir("gi-agent-source-"), "insights.db"), { clock });
  const install = provider.discover().installs[0] as Install;
  const source = new AgentSource(install, { provider, store, clock, logger });
  const first = source.refresh();
  assert.is(source.releaseAtRest(0), false, "not while a pass is under way (nor before the first is done)");
  await first;
  assert.is(source.releaseAtRest(20_000), false, "changed less than 20 s ago");
  clock.advance(10_000);
  await source.refresh(); // nothing new: not a change
  clock.advance(10_000);
  assert.is(source.releaseAtRest(20_000), true);
  assert.is(source.releaseAtRest(20_000), false, "once until the next change");
  // The gateway writes a session's row after rest (a new time).
  const db = new Database(path.join(state, "agents", "main", "agent", "openclaw-agent.sqlite"));
  const key = (db.prepare("SELECT session_key FROM session_nodes ORDER BY session_key LIMIT 1").get() as { session_key: string }).session_key;
  const updatedAt = Date.parse("2026-11-24T12:00:00.000Z");
  db.prepare("UPDATE session_nodes SET updated_at = ?, entry_json = json_set(entry_json, '$.updatedAt', ?) WHERE session_key = ?").run(updatedAt, updatedAt, key);
  db.close();
  assert.ok(await source.refresh(), "the write is a change");
  const fresh = new AgentSource(install, { provider, store: Store.open(path.join(makeTempDir("gi-agent-source-"), "insights.db"), { clock }), clock, logger });
  await fresh.refresh();
  assert.equal(source.snapshot().sessions, fresh.snapshot().sessions, "the listing after rest equals a fresh reader's");
  assert.is(source.snapshot().sessions.find((x) => x.key === key)?.updatedAt, updatedAt, "the row written after rest is read");
  assert.is(source.releaseAtRest(0), true, "after the next change, at rest again");
  source.close();
  fresh.close();
  store.close();
});

test.run();
