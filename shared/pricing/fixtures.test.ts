// The prices checked against what real Claude Code and Codex wrote (shared/fixtures) and against
// the list prices in the format docs. Expected numbers come from those files, never from the code.
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { copyFixture, REFERENCE_DIR, removeTempDirs } from "../../test/helpers/openclaw-fixtures.js";
import { Pricer } from "./pricer.js";
import type { PriceResult, TokenUsage } from "./types.js";

const CLAUDE_FIXTURE = "claude-code-2.1.330";
const CODEX_FIXTURE = "codex-0.169.0";

type Json = Record<string, unknown>;
type Rates = { input: number; output: number; cacheWrite5m?: number; cacheRead: number };

function jsonlFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return jsonlFiles(p);
    return e.name.endsWith(".jsonl") ? [p] : [];
  });
}

function lines(file: string): Json[] {
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Json);
}

function cost(r: PriceResult, what: string): number {
  if (!("costUsd" in r)) throw new Error(`${what}: unpriced (${r.reason})`);
  return r.costUsd;
}

const usage = (u: Partial<TokenUsage>): TokenUsage => ({ inputTokens: 0, cacheReadTokens: 0, cacheWrite5mTokens: 0, cacheWrite1hTokens: 0, outputTokens: 0, ...u });

/** What the pricer charges per million tokens of one class (100k tokens, under any long-context threshold). */
function rateOf(p: Pricer, model: string, cls: keyof TokenUsage): number {
  return (cost(p.priceUsage(model, usage({ [cls]: 100_000 })), `${model} ${cls}`) * 1e6) / 100_000;
}

function near(actual: number, expected: number, what: string): void {
  // 1e-12 USD is far below the smallest price step (one token at $0.01/MTok = 1e-8 USD).
  assert.ok(Math.abs(actual - expected) < 1e-12, `${what}: ${actual} != ${expected}`);
}

/** The list-price table of claude-code-format.md §4: `| sonnet-4-5 | 3 | 15 | 3.75 | 0.30 |`. */
function claudeDocPrices(): Map<string, Rates> {
  const doc = fs.readFileSync(path.join(REFERENCE_DIR, "claude-code-format.md"), "utf8");
  const start = doc.indexOf("| model | input | output | cache write (5m) | cache read |");
  assert.ok(start >= 0, "the price table is in claude-code-format.md §4");
  const out = new Map<string, Rates>();
  for (const line of doc.slice(start).split("\n").slice(2)) {
    const cells = line.split("|").map((c) => c.trim());
    if (cells.length < 6 || !/^[a-z]/.test(cells[1]!)) break;
    const [, name, input, output, write, read] = cells;
    out.set(name!, { input: Number(input), output: Number(output), cacheWrite5m: Number(write), cacheRead: Number(read) });
  }
  assert.ok(out.size >= 3, "the table has rows");
  return out;
}

/** The Claude models the fixture's API responses came from (the `<synthetic>` error line is not a response). */
function claudeFixtureModels(root: string): Set<string> {
  const models = new Set<string>();
  for (const f of jsonlFiles(path.join(root, ".claude", "projects"))) {
    for (const o of lines(f)) {
      const model = (o.message as Json | undefined)?.model;
      if (o.type === "assistant" && typeof model === "string" && model !== "<synthetic>") models.add(model);
    }
  }
  return models;
}

test.after(removeTempDirs);

test("every Claude model in the fixture and the docs is priced at the docs' list price", () => {
  const root = copyFixture(CLAUDE_FIXTURE);
  const table = claudeDocPrices();
  const p = new Pricer();
  const ids = new Set([...claudeFixtureModels(root), "claude-opus-4-5-20251101"]);
  assert.ok(ids.size >= 3);
  for (const id of ids) {
    const row = [...table.entries()].find(([name]) => id.includes(`-${name}-`) || id.endsWith(`-${name}`));
    assert.ok(row, `the docs' table has a row for ${id}`);
    const [, rates] = row;
    near(rateOf(p, id, "inputTokens"), rates.input, `${id} input`);
    near(rateOf(p, id, "outputTokens"), rates.output, `${id} output`);
    near(rateOf(p, id, "cacheWrite5mTokens"), rates.cacheWrite5m!, `${id} cache write 5m`);
    near(rateOf(p, id, "cacheReadTokens"), rates.cacheRead, `${id} cache read`);
    // Anthropic: a 1-hour cache write costs twice the base input price.
    near(rateOf(p, id, "cacheWrite1hTokens"), 2 * rates.input, `${id} cache write 1h`);
  }
});

test("Claude Code's own cost: priced responses summed per session equal the transcripts' cost-state", () => {
  const root = copyFixture(CLAUDE_FIXTURE);
  const p = new Pricer();
  // design §9: one response per (message.id, requestId) across all files, sub-agent files included
  // (their lines carry the parent's sessionId, and cost-state includes them); usage from one line.
  const seen = new Set<string>();
  const priced = new Map<string, number>();
  const recorded = new Map<string, number>();
  let responses = 0;
  for (const file of jsonlFiles(path.join(root, ".claude", "projects"))) {
    for (const o of lines(file)) {
      if (o.type === "cost-state" && typeof o.sessionId === "string") recorded.set(o.sessionId, o.totalCostUSD as number); // the last one is cumulative
      if (o.type !== "assistant") continue;
      const msg = o.message as Json;
      if (msg.model === "<synthetic>") continue;
      const key = `${String(msg.id)}\u0000${String(o.requestId)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      responses++;
      const u = msg.usage as Json;
      const creation = u.cache_creation as Json;
      assert.is((creation.ephemeral_5m_input_tokens as number) + (creation.ephemeral_1h_input_tokens as number), u.cache_creation_input_tokens, "5m + 1h = cache creation");
      const r = p.priceUsage(
        msg.model as string,
        {
          inputTokens: u.input_tokens as number,
          cacheReadTokens: u.cache_read_input_tokens as number,
          cacheWrite5mTokens: creation.ephemeral_5m_input_tokens as number,
          cacheWrite1hTokens: creation.ephemeral_1h_input_tokens as number,
          outputTokens: u.output_tokens as number,
        },
        { at: Date.parse(o.timestamp as string) },
      );
      const sid = o.sessionId as string;
      priced.set(sid, (priced.get(sid) ?? 0) + cost(r, `${String(msg.model)} response ${key}`));
    }
  }
  assert.ok(responses >= 10, `responses: ${responses}`);
  assert.ok(recorded.size >= 5, "every session wrote a cost-state");
  // The fixture has no compaction (its README), so every session qualifies; the API-error-only
  // session has no billable response and Claude Code recorded $0 for it.
  for (const [sid, total] of recorded) near(priced.get(sid) ?? 0, total, `session ${sid}`);
  assert.ok([...recorded.values()].some((v) => v > 0));
  assert.equal(p.unpricedModels(), []);
});

// OpenAI's list prices (USD per MTok; platform.openai.com pricing): gpt-5-codex is billed as gpt-5.
const OPENAI_LIST: Record<string, Rates> = {
  "gpt-5-codex": { input: 1.25, output: 10, cacheRead: 0.125 },
  "gpt-5-mini": { input: 0.25, output: 2, cacheRead: 0.025 },
};

test("every Codex model in the fixture is priced at OpenAI's list price, and every response is priced", () => {
  const root = copyFixture(CODEX_FIXTURE);
  const p = new Pricer();
  const modelOfTurn = new Map<string, string>();
  const records: { turn: string; usage: Json; at: number }[] = [];
  const responseIds = new Set<string>();
  for (const file of jsonlFiles(path.join(root, ".codex", "sessions"))) {
    for (const o of lines(file)) {
      const payload = o.payload as Json | undefined;
      if (o.type === "turn_context" && typeof payload?.model === "string") modelOfTurn.set(payload.turn_id as string, payload.model);
      // design §9: one record per response_id.
      if (o.type === "token_usage_record" && payload && !responseIds.has(payload.response_id as string)) {
        responseIds.add(payload.response_id as string);
        records.push({ turn: payload.turn_id as string, usage: payload.usage as Json, at: Date.parse(o.timestamp as string) });
      }
    }
  }
  const models = new Set(modelOfTurn.values());
  assert.ok(models.size >= 2, `models: ${[...models].join(", ")}`);
  for (const id of models) {
    const list = OPENAI_LIST[id];
    assert.ok(list, `a list price in this test for ${id}`);
    near(rateOf(p, id, "inputTokens"), list.input, `${id} input`);
    near(rateOf(p, id, "outputTokens"), list.output, `${id} output`);
    near(rateOf(p, id, "cacheReadTokens"), list.cacheRead, `${id} cached input`);
  }
  assert.ok(records.length >= 5, `records: ${records.length}`);
  for (const rec of records) {
    const model = modelOfTurn.get(rec.turn);
    assert.ok(model, `turn ${rec.turn} has a turn_context`);
    const u = rec.usage;
    const input = u.input_tokens as number;
    const cached = u.cached_input_tokens as number;
    const output = u.output_tokens as number; // reasoning included (codex-format.md §5)
    const list = OPENAI_LIST[model]!;
    const r = p.priceUsage(model, usage({ inputTokens: input - cached, cacheReadTokens: cached, outputTokens: output }), { at: rec.at });
    near(cost(r, model), ((input - cached) * list.input + cached * list.cacheRead + output * list.output) / 1e6, `${model} record`);
  }
});

/** The price table of gemini-cli-format.md §11: `| \`gemini-2.5-pro\` | 1.25 | 0.125 | 10 | 2.50 / 0.25 / 15 |`. */
function geminiDocPrices(): Map<string, Rates & { tier: Rates | null }> {
  const doc = fs.readFileSync(path.join(REFERENCE_DIR, "gemini-cli-format.md"), "utf8");
  const start = doc.indexOf("| model | input | cache read | output | tier");
  assert.ok(start >= 0, "the price table is in gemini-cli-format.md §11");
  const out = new Map<string, Rates & { tier: Rates | null }>();
  for (const line of doc.slice(start).split("\n").slice(2)) {
    const cells = line.split("|").map((c) => c.trim());
    if (cells.length < 6 || !cells[1]!.startsWith("`")) break;
    const t = /^([\d.]+) \/ ([\d.]+) \/ ([\d.]+)/.exec(cells[5]!);
    const tier = t ? { input: Number(t[1]), cacheRead: Number(t[2]), output: Number(t[3]) } : null;
    for (const m of cells[1]!.matchAll(/`([^`]+)`/g)) out.set(m[1]!, { input: Number(cells[2]), cacheRead: Number(cells[3]), output: Number(cells[4]), tier });
  }
  return out;
}

test("Gemini models are priced at Google's list prices, the Pro models' higher rate above 200k input tokens for the whole request, every fixture response priced", () => {
  const p = new Pricer();
  const list = geminiDocPrices();
  assert.ok(list.size >= 7, `models in the doc's table: ${[...list.keys()].join(", ")}`);
  for (const [id, r] of list) {
    near(rateOf(p, id, "inputTokens"), r.input, `${id} input`);
    near(rateOf(p, id, "outputTokens"), r.output, `${id} output`);
    near(rateOf(p, id, "cacheReadTokens"), r.cacheRead, `${id} cache read`);
    const at = (input: number, cached: number): number => cost(p.priceUsage(id, usage({ inputTokens: input - cached, cacheReadTokens: cached, outputTokens: 1000 })), id);
    // 200,000 input tokens is the base rate; 200,001 (cache reads included) bills every token at the tier.
    near(at(200_000, 50_000), (150_000 * r.input + 50_000 * r.cacheRead + 1000 * r.output) / 1e6, `${id} at 200k`);
    const tier = r.tier ?? r;
    near(at(200_001, 50_000), (150_001 * tier.input + 50_000 * tier.cacheRead + 1000 * tier.output) / 1e6, `${id} above 200k`);
  }
  const root = copyFixture("gemini-cli-0.61.0");
  let responses = 0;
  for (const file of jsonlFiles(path.join(root, ".gemini", "tmp"))) {
    for (const o of lines(file)) {
      if (o.type !== "gemini" || !o.tokens) continue;
      const t = o.tokens as Record<string, number>;
      const model = o.model as string;
      const r = list.get(model);
      assert.ok(r, `a list price in the doc for ${model}`);
      const input = t.input! - t.cached! + t.tool!;
      const c = cost(p.priceUsage(model, usage({ inputTokens: input, cacheReadTokens: t.cached!, outputTokens: t.output! + t.thoughts! }), { at: Date.parse(o.timestamp as string) }), model);
      const rate = t.input! + t.tool! > 200_000 && r.tier ? r.tier : r;
      near(c, (input * rate.input + t.cached! * rate.cacheRead + (t.output! + t.thoughts!) * rate.output) / 1e6, `${model} response ${String(o.id)}`);
      responses++;
    }
  }
  assert.ok(responses >= 14, `gemini lines with tokens: ${responses}`);
});

test.run();
