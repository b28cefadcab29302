// The read model's kept answers (read-cache.ts) for the JSONL providers (the real Claude Code
// 2.1.330 and Codex 0.169.0 fixtures): a line the CLI appends shows in every kept answer after the
// next refresh, and an answer asked in the middle of a long scan, before the refresh is over and
// its change announced, is the store's as it is then, never one kept from before the scan began. Expected
// figures come from the lines the test appends; "as the store is now" is a read model made afresh
// over the same store (it keeps nothing yet).
import { appendFileSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { Collector } from "../ingest/collector.js";
import { buildIndex } from "../pricing/dataset.js";
import { parsePriceOverrides } from "../pricing/overrides.js";
import { Pricer } from "../pricing/pricer.js";
import { copyClaudeHome } from "../../test/helpers/claude-code-fixture.js";
import { copyCodexHome } from "../../test/helpers/codex-fixture.js";
import { removeTempDirs } from "../../test/helpers/openclaw-fixtures.js";
import type { Store } from "../store/store.js";
import { providerReadModel } from "../../test/helpers/provider-model.js";
import type { ReadModel } from "./read-model.js";

test.after(removeTempDirs);

const SOURCE = "claude-code:default";
const CODEX = "codex:default";
/** After the fixture's last line (2026-11-23, evening UTC): appended lines fall in the 24-hour grid. */
const NOW = Date.parse("2026-11-23T23:30:00.000Z");
const APPENDED_AT = "2026-11-23T23:10:00.000Z";

interface World {
  /** The transcript lines are appended to (Claude Code: a top-level session of api-server; Codex: a rollout). */
  file: string;
  store: Store;
  collector: Collector;
  model: ReadModel;
  /** A read model over the same store and collector that keeps nothing: the store as it is now. */
  fresh: () => ReadModel;
}

async function world(provider: "claude-code" | "codex" = "claude-code"): Promise<World> {
  const pricer = new Pricer({ overrides: parsePriceOverrides({}, "test"), dataset: buildIndex([], "empty") });
  let file: string;
  let home: string;
  if (provider === "claude-code") {
    const copy = copyClaudeHome();
    home = copy.home;
    const claudeDir = copy.claudeDir;
    const project = join(claudeDir, "projects", "-home-op-code-api-server");
    const name = readdirSync(project).find((n) => n.startsWith("5108af6e") && n.endsWith(".jsonl"));
    assert.ok(name, "the fixture has session 5108af6e");
    file = join(project, name);
  } else {
    const copy = copyCodexHome();
    home = copy.home;
    const codexDir = copy.codexDir;
    const day = join(codexDir, "sessions", "2026", "11", "23");
    const name = readdirSync(day).find((n) => n.includes("01a20a4f-b29a") && n.endsWith(".jsonl"));
    assert.ok(name, "the fixture has rollout 01a20a4f-b29a");
    file = join(day, name);
  }
  const core = await providerReadModel(provider, home, { now: NOW, pricer });
  return { file, store: core.store, collector: core.collector, model: core.model, fresh: core.freshModel };
}

let line = 0;
/** `n` assistant replies of `input` input tokens each, as Claude Code writes them (each its own message and request id). */
function appendReplies(file: string, n: number, input: number): void {
  const lines = readFileSync(file, "utf8").split("\n").filter((l) => l.trim());
  const last = JSON.parse(lines[lines.length - 1] as string) as { sessionId: string; cwd: string; uuid: string };
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    line++;
    out.push(
      JSON.stringify({
        parentUuid: last.uuid,
        isSidechain: false,
        message: {
          id: `msg_cachetest${line}`,
          type: "message",
          role: "assistant",
          model: "claude-sonnet-4-5-20250929",
          content: [{ type: "text", text: "ok" }],
          stop_reason: "end_turn",
          usage: { input_tokens: input, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 0 },
        },
        requestId: `req_cachetest${line}`,
        type: "assistant",
        uuid: `00000000-0000-4000-8000-${String(line).padStart(12, "0")}`,
        timestamp: APPENDED_AT,
        cwd: last.cwd,
        sessionId: last.sessionId,
        version: "2.1.330",
        gitBranch: "main",
      }),
    );
  }
  appendFileSync(file, `${out.join("\n")}\n`);
}

/** What a dashboard asks of the source, reduced to token sums. */
function figures(m: ReadModel, source = SOURCE): { sessions: number; buckets: number; lifetime: number; days: number; projects: number; projectsDay: number } {
  const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);
  return {
    sessions: sum(m.sessions(source, { grouped: false, limit: 1000 }).map((s) => s.totalTokens)),
    buckets: sum(m.metrics(source, { range: "TWENTY_FOUR_HOUR" }).buckets.map((b) => b.tokens)),
    lifetime: m.lifetimeStats(source).totalTokens,
    days: sum(m.usageCost(source).byDay.map((d) => d.totalTokens)),
    projects: sum(m.projects(source).map((p) => p.totalTokens)),
    projectsDay: sum(m.projects(source, { range: "TWENTY_FOUR_HOUR" }).map((p) => p.totalTokens)),
  };
}

test("a reply Claude Code appends shows in every kept answer after the next refresh", async () => {
  const w = await world();
  const before = figures(w.model);
  assert.equal(figures(w.model), before, "asked again with nothing new: the same figures");
  const hits = w.model.cacheStats.hits;
  figures(w.model);
  assert.ok(w.model.cacheStats.hits > hits, "answers are kept between changes");

  appendReplies(w.file, 1, 1000);
  await w.collector.collectOnce(60_000);
  const after = figures(w.model);
  const plus = Object.fromEntries(Object.entries(before).map(([k, v]) => [k, v + 1000]));
  assert.equal(after, plus, "each figure counts the appended reply's 1,000 tokens");
  await w.collector.stop();
  w.store.close();
});

test("an answer asked in the middle of a long scan is the store's as it is then", async () => {
  const w = await world();
  const before = figures(w.model);
  // 3,000 replies: the scan writes them in groups of at most 1,000 events, with a turn of the
  // event loop between two groups, before the refresh ends and announces the change.
  appendReplies(w.file, 3000, 1);
  const announced: string[] = [];
  const off = w.collector.onChange((s) => announced.push(s));
  let done = false;
  const refresh = w.collector.collectOnce(60_000).then(() => (done = true));
  const stored = (): number => w.store.db.prepare("SELECT count(*) FROM token_usage WHERE source_id = ?").pluck().get(SOURCE) as number;
  const start = stored();
  let seen: ReturnType<typeof figures> | null = null;
  // Poll each turn of the loop (no fixed sleep): stop at the first state where some rows of the
  // scan are written but the refresh is not over.
  const deadline = Date.now() + 60_000;
  while (!done && Date.now() < deadline) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (done) break;
    const n = stored();
    if (n > start && n < start + 3000) {
      assert.equal(announced, [], "the change is not announced yet");
      seen = figures(w.model);
      assert.equal(seen, figures(w.fresh()), "the kept answers are the store's as it is now");
      break;
    }
  }
  assert.ok(seen, "the test saw the scan half-way");
  assert.ok(seen.lifetime > before.lifetime && seen.lifetime < before.lifetime + 3000, "half-way: some replies counted, not all");
  await refresh;
  off();
  const after = figures(w.model);
  assert.equal(after, Object.fromEntries(Object.entries(before).map(([k, v]) => [k, v + 3000])), "after the refresh: all 3,000 replies");
  await w.collector.stop();
  w.store.close();
});

let turn = 0;
/** One Codex response of `input` fresh input tokens: a `token_usage_record` with its own response id, as Codex writes them. */
function appendCodexResponse(file: string, input: number): void {
  const lines = readFileSync(file, "utf8").split("\n").filter((l) => l.trim());
  type Line = { timestamp: string; type: string; payload: Record<string, unknown> };
  const last = lines.map((l) => JSON.parse(l) as Line).filter((l) => l.type === "token_usage_record").pop();
  assert.ok(last, "the rollout has a usage record");
  turn++;
  const usage = { input_tokens: input, cached_input_tokens: 0, cache_write_input_tokens: 0, output_tokens: 0, reasoning_output_tokens: 0, total_tokens: input };
  const next = { ...last, timestamp: APPENDED_AT, payload: { ...last.payload, response_id: `resp_cachetest${turn}`, usage, turn_token_usage: usage } };
  appendFileSync(file, `${JSON.stringify(next)}\n`);
}

test("a response Codex appends shows in every kept answer after the next refresh", async () => {
  const w = await world("codex");
  const before = figures(w.model, CODEX);
  assert.equal(figures(w.model, CODEX), before);
  appendCodexResponse(w.file, 1000);
  await w.collector.collectOnce(60_000);
  const plus = Object.fromEntries(Object.entries(before).map(([k, v]) => [k, v + 1000]));
  assert.equal(figures(w.model, CODEX), plus, "each figure counts the appended response's 1,000 tokens");
  await w.collector.stop();
  w.store.close();
});

/** Every session's total tokens by key, as the session list shows them. */
function tokensByKey(m: ReadModel, source = SOURCE): Record<string, number> {
  return Object.fromEntries(m.sessions(source, { grouped: false, limit: 1000 }).map((s) => [s.key, s.totalTokens]));
}

test("after a change only the written session's totals are read again, and every session equals a fresh read", async () => {
  const w = await world();
  // Counts the GROUP BY over every transcript of the source (the per-key totals read whole).
  let wholeReads = 0;
  const db = w.store.db;
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    if (sql.includes("GROUP BY session_key") && !sql.includes("json_each")) wholeReads++;
    return prepare(sql);
  }) as typeof db.prepare;
  const before = tokensByKey(w.model);
  assert.is(wholeReads, 1, "the first question reads every session's totals");
  const key = Object.keys(before).find((k) => readFileSync(w.file, "utf8").includes(`"sessionId":"${k}"`));
  assert.ok(key, "the appended file's session is listed");

  appendReplies(w.file, 2, 500);
  await w.collector.collectOnce(60_000);
  const after = tokensByKey(w.model);
  assert.is(wholeReads, 1, "after the change: only the written session was read again");
  assert.equal(after, { ...before, [key]: (before[key] as number) + 1000 }, "the written session gains the appended 1,000 tokens, no other moves");
  assert.equal(after, tokensByKey(w.fresh()), "the same as a read of the store as it is now");

  // Cut back to its first line: read again from the start, its figures are what that line says.
  const text = readFileSync(w.file, "utf8");
  writeFileSync(w.file, `${text.slice(0, text.indexOf("\n") + 1)}`);
  await w.collector.collectOnce(60_000);
  const reads = wholeReads;
  const cut = tokensByKey(w.model);
  assert.is(wholeReads, reads, "after the cut: only the written session was read again");
  assert.equal(cut, tokensByKey(w.fresh()), "after the transcript was cut: the same as a fresh read");
  assert.ok((cut[key] ?? 0) < (after[key] as number), "the cut session lost its figures");
  await w.collector.stop();
  w.store.close();
});

test.run();
