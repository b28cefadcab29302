// The independent totals checkers on small hand-made histories, with the expected numbers
// written out here from the counting rules of the format docs (not from the checkers).
//   node --import tsx bench/synthetic/expected.test.ts
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { checkClaudeCode } from "./expected-claude-code.js";
import { checkCodex } from "./expected-codex.js";

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "gi-bench-expected-"));
}

function write(file: string, lines: Array<Record<string, unknown> | string>): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n") + "\n");
}

const usage = (input: number, output: number, cacheRead: number, cacheWrite: number): Record<string, unknown> => ({
  input_tokens: input,
  cache_creation_input_tokens: cacheWrite,
  cache_read_input_tokens: cacheRead,
  output_tokens: output,
  cache_creation: { ephemeral_5m_input_tokens: cacheWrite, ephemeral_1h_input_tokens: 0 },
});

const assistant = (id: string, requestId: string, timestamp: string, u: Record<string, unknown>, model = "claude-sonnet-4-5-20250929"): Record<string, unknown> => ({
  type: "assistant",
  timestamp,
  requestId,
  message: { id, type: "message", role: "assistant", model, content: [{ type: "text", text: "x" }], usage: u },
});

test("Claude Code: one count per message.id + requestId over all files, <synthetic> skipped, day of the first line", async () => {
  const root = tempDir();
  try {
    const project = path.join(root, "projects", "-home-op-code-a");
    write(path.join(project, "s1.jsonl"), [
      { type: "user", timestamp: "2026-01-01T10:00:00.000Z", message: { role: "user", content: 'he wrote "type":"assistant"' } },
      // A two-block response across midnight: counted once, on the day of its first line.
      assistant("msg_A", "req_A", "2026-01-01T23:59:59.950Z", usage(10, 100, 1000, 500)),
      assistant("msg_A", "req_A", "2026-01-02T00:00:00.050Z", usage(10, 100, 1000, 500)),
      assistant("6f0c1f64-0000-4000-8000-000000000000", "req_S", "2026-01-02T01:00:00.000Z", usage(7, 7, 7, 7), "<synthetic>"),
      assistant("msg_B", "req_B", "2026-01-02T08:00:00.000Z", usage(1, 2, 3, 4)),
      // Same message id, another request: another response.
      assistant("msg_B", "req_OTHER", "2026-01-02T09:00:00.000Z", usage(5, 6, 7, 8)),
      '{"type":"assistant","message":',
    ]);
    write(path.join(project, "s1", "subagents", "agent-a0.jsonl"), [
      assistant("msg_C", "req_C", "2026-01-02T10:00:00.000Z", usage(20, 30, 40, 50)),
      // A key already counted in another file is not counted again.
      assistant("msg_A", "req_A", "2026-01-03T00:00:00.000Z", usage(10, 100, 1000, 500)),
    ]);
    const c = await checkClaudeCode(root);
    assert.equal(c.daily, [
      { date: "2026-01-01", input: 10, output: 100, cacheRead: 1000, cacheWrite: 500 },
      { date: "2026-01-02", input: 1 + 5 + 20, output: 2 + 6 + 30, cacheRead: 3 + 7 + 40, cacheWrite: 4 + 8 + 50 },
    ]);
    assert.is(c.files, 2);
    assert.is(c.responses, 4);
    assert.is(c.assistantLines, 7);
    assert.is(c.repeatedLines, 2);
    assert.is(c.syntheticLines, 1);
    assert.is(c.badLines, 1);
    assert.equal(c.perModel["claude-sonnet-4-5-20250929"], { input: 36, output: 138, cacheRead: 1050, cacheWrite: 562 });
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

const u6 = (input: number, cached: number, output: number, reasoning: number): Record<string, number> => ({
  input_tokens: input,
  cached_input_tokens: cached,
  cache_write_input_tokens: 0,
  output_tokens: output,
  reasoning_output_tokens: reasoning,
  total_tokens: input + output,
});
const record = (timestamp: string, responseId: string, u: Record<string, number>): Record<string, unknown> => ({
  timestamp,
  type: "token_usage_record",
  payload: { thread_id: "t", turn_id: "u", response_id: responseId, usage: u },
});
const tokenCount = (timestamp: string, total: Record<string, number> | null): Record<string, unknown> => ({
  timestamp,
  type: "event_msg",
  payload: { type: "token_count", info: total ? { total_token_usage: total, last_token_usage: total } : null, rate_limits: null },
});

test("Codex: one count per response_id, input without cached, token_count deltas agree, a bad rollout is named", async () => {
  const home = tempDir();
  try {
    const day = path.join(home, "sessions", "2026", "01", "02");
    write(path.join(day, "rollout-a.jsonl"), [
      { timestamp: "2026-01-01T23:59:59.800Z", type: "session_meta", payload: { id: "a" } },
      record("2026-01-01T23:59:59.900Z", "resp_1", u6(1000, 600, 50, 20)),
      // Its token_count comes after midnight: the delta rule dates it on the next day.
      tokenCount("2026-01-02T00:00:00.100Z", u6(1000, 600, 50, 20)),
      tokenCount("2026-01-02T01:00:00.000Z", u6(1000, 600, 50, 20)), // Codex's repeat
      tokenCount("2026-01-02T01:00:01.000Z", null), // a 429
      record("2026-01-02T02:00:00.000Z", "resp_2", u6(2000, 1500, 80, 40)),
      record("2026-01-02T02:00:00.001Z", "resp_2", u6(2000, 1500, 80, 40)), // the same response again
      tokenCount("2026-01-02T02:00:00.010Z", u6(3000, 2100, 130, 60)),
    ]);
    write(path.join(day, "rollout-b.jsonl"), [record("2026-01-03T05:00:00.000Z", "resp_3", u6(100, 0, 10, 0)), tokenCount("2026-01-03T05:00:00.010Z", u6(50, 0, 10, 0))]);
    const c = await checkCodex(home);
    assert.equal(c.daily, [
      { date: "2026-01-01", input: 400, output: 50, cacheRead: 600, cacheWrite: 0 },
      { date: "2026-01-02", input: 500, output: 80, cacheRead: 1500, cacheWrite: 0 },
      { date: "2026-01-03", input: 100, output: 10, cacheRead: 0, cacheWrite: 0 },
    ]);
    assert.equal(c.dailyByTokenCount, [
      { date: "2026-01-02", input: 900, output: 130, cacheRead: 2100, cacheWrite: 0 },
      { date: "2026-01-03", input: 50, output: 10, cacheRead: 0, cacheWrite: 0 },
    ]);
    assert.is(c.records, 3);
    assert.is(c.repeatedRecords, 1);
    assert.is(c.tokenCountLines, 5);
    assert.is(c.unchangedTokenCounts, 1);
    assert.is(c.nullInfoTokenCounts, 1);
    assert.equal(c.inconsistentFiles, [path.join("sessions", "2026", "01", "02", "rollout-b.jsonl")]);
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
});

test.run();
