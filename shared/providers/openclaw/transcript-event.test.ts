import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { FIXTURES_DIR, FILES_FIXTURE } from "../../../test/helpers/openclaw-fixtures.js";
import type { SourceWarning } from "../result.js";
import { eventText, parseTranscriptEvent, reportUsageProblems, toTranscriptEvent } from "./transcript-event.js";

// any: the raw fixture JSON is walked freely in assertions; its shape is what is under test.
type Json = Record<string, any>;

// Reading (never opening for write) the original JSONL is safe; only SQLite needs a copy.
const sessionsDir = path.join(FIXTURES_DIR, FILES_FIXTURE, "agents", "main", "sessions");
const fixtureLines = fs
  .readdirSync(sessionsDir)
  .filter((n) => /^[0-9a-f-]+\.jsonl$/.test(n))
  .flatMap((n) => fs.readFileSync(path.join(sessionsDir, n), "utf8").split("\n").filter((l) => l.trim() !== ""));

test("every real 2026.7.1 line parses into the kind its type/role says, with its usage numbers", () => {
  assert.ok(fixtureLines.length >= 10, "fixture has transcript lines");
  let assistants = 0;
  for (const line of fixtureLines) {
    const raw = JSON.parse(line) as Json;
    const ev = parseTranscriptEvent(line, 7);
    assert.ok(ev, line.slice(0, 80));
    assert.is(ev.pos, 7);
    assert.equal(ev.raw, raw);
    assert.is(ev.id, raw.id ?? null);
    assert.is(ev.ts, Date.parse(raw.timestamp));
    const expectedKind =
      raw.type === "message" ? (["user", "assistant", "toolResult"].includes(raw.message.role) ? raw.message.role : "other") : raw.type;
    const normalized = ["session", "user", "assistant", "toolResult", "model_change", "thinking_level_change", "compaction"].includes(expectedKind) ? expectedKind : "other";
    assert.is(ev.kind, normalized);
    if (ev.kind === "assistant") {
      assistants++;
      const u = raw.message.usage;
      assert.equal(ev.usage, { input: u.input, output: u.output, cacheRead: u.cacheRead, cacheWrite: u.cacheWrite, totalTokens: u.totalTokens, costUsd: u.cost.total });
      assert.is(ev.model, raw.message.model);
      assert.is(ev.provider, raw.message.provider);
      assert.is(ev.stopReason, raw.message.stopReason);
      assert.is(ev.toolCalls.length, 0);
    }
    if (ev.kind === "session") assert.is(ev.version, raw.version);
    if (ev.kind === "model_change") assert.is(ev.modelId, raw.modelId);
    if (ev.kind === "thinking_level_change") assert.is(ev.thinkingLevel, raw.thinkingLevel);
  }
  assert.ok(assistants >= 2);
});

test("tool calls, tool results, errors and compaction", () => {
  const call = parseTranscriptEvent(
    JSON.stringify({
      type: "message",
      id: "a1",
      parentId: "u1",
      timestamp: "2026-11-21T22:00:00.000Z",
      message: {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "hmm" },
          { type: "toolCall", id: "call_1", name: "ls", arguments: { path: "." } },
          { type: "toolCall", id: "call_2", name: "sessions_spawn", arguments: {} },
        ],
        stopReason: "toolUse",
        usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 2, totalTokens: 17, cost: { total: 0.5 } },
      },
    }),
  );
  assert.ok(call && call.kind === "assistant");
  assert.equal(call.toolCalls, [
    { id: "call_1", name: "ls" },
    { id: "call_2", name: "sessions_spawn" },
  ]);
  assert.is(call.stopReason, "toolUse");
  assert.is(call.usage?.cacheWrite, 2);

  const result = parseTranscriptEvent(
    JSON.stringify({ type: "message", id: "r1", message: { role: "toolResult", toolCallId: "call_1", toolName: "ls", content: [], isError: true } }),
  );
  assert.ok(result && result.kind === "toolResult");
  assert.is(result.toolCallId, "call_1");
  assert.is(result.toolName, "ls");
  assert.is(result.isError, true);

  const failed = parseTranscriptEvent(
    JSON.stringify({ type: "message", message: { role: "assistant", content: [], stopReason: "error", errorMessage: "HTTP 500", usage: { input: 0, output: 0 } } }),
  );
  assert.ok(failed && failed.kind === "assistant");
  assert.is(failed.errorMessage, "HTTP 500");
  assert.is(failed.usage?.costUsd, null, "no recorded cost stays null, not 0");
  assert.is(failed.usage?.cacheRead, 0);

  const compaction = parseTranscriptEvent(JSON.stringify({ type: "compaction", summary: "s", firstKeptEntryId: "k", tokensBefore: 9000 }));
  assert.ok(compaction && compaction.kind === "compaction");
  assert.is(compaction.tokensBefore, 9000);
  assert.is(compaction.firstKeptEntryId, "k");
});

test("missing and mistyped fields do not throw", () => {
  const bare = parseTranscriptEvent('{"type":"message","message":{"role":"assistant"}}');
  assert.ok(bare && bare.kind === "assistant");
  assert.is(bare.usage, null);
  assert.is(bare.model, null);
  assert.is(bare.toolCalls.length, 0);
  assert.is(bare.ts, null);

  const noMessage = parseTranscriptEvent('{"type":"message"}');
  assert.is(noMessage?.kind, "other");

  const otherRole = parseTranscriptEvent('{"type":"message","message":{"role":"bashExecution"}}');
  assert.ok(otherRole && otherRole.kind === "other");
  assert.is(otherRole.role, "bashExecution");

  const custom = parseTranscriptEvent('{"type":"custom","customType":"model-snapshot"}');
  assert.ok(custom && custom.kind === "other");
  assert.is(custom.rawType, "custom");

  const weird = parseTranscriptEvent('{"type":"message","message":{"role":"assistant","usage":{"input":"12","output":null,"cost":"x"},"content":"text"}}');
  assert.ok(weird && weird.kind === "assistant");
  // Mistyped fields are refused (not guessed): they count as 0 and are named for a BAD_FIELD warning.
  assert.equal(weird.usage, { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, costUsd: 0 });
  assert.equal(weird.usageProblems.map((p) => p.field), ["usage.input", "usage.cost"]);

  assert.is(parseTranscriptEvent('{"type":"message","id":'), undefined, "truncated JSON");
  assert.is(parseTranscriptEvent("[1,2]"), undefined, "array");
  assert.is(parseTranscriptEvent("null"), undefined);
  assert.is(toTranscriptEvent("str"), undefined);
});

test("absurd usage numbers are refused field by field through the usage guard; the sane ones stay", () => {
  const usage = { input: 1e308, output: -5, cacheRead: 1.5, cacheWrite: 10_000_001, totalTokens: 1234, cost: { total: 1e308 } };
  const e = parseTranscriptEvent(JSON.stringify({ type: "message", message: { role: "assistant", usage, content: "x" } }));
  assert.ok(e && e.kind === "assistant");
  assert.equal(e.usage, { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 1234, costUsd: 0 });
  assert.equal(e.usageProblems.map((p) => p.field), ["usage.input", "usage.output", "usage.cacheRead", "usage.cacheWrite", "usage.cost.total"]);
  const warnings: SourceWarning[] = [];
  reportUsageProblems(e, "t.jsonl@0", warnings);
  assert.equal(warnings.map((w) => `${w.code} ${w.where}`), Array(5).fill("BAD_FIELD t.jsonl@0"));
  assert.match(warnings[1]?.message ?? "", /usage\.output: -5 is negative/);

  const negativeCost = parseTranscriptEvent(JSON.stringify({ type: "message", message: { role: "assistant", usage: { input: 3, cost: -0.5 } } }));
  assert.ok(negativeCost && negativeCost.kind === "assistant");
  assert.equal(negativeCost.usage, { input: 3, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, costUsd: 0 });
  assert.equal(negativeCost.usageProblems.map((p) => p.field), ["usage.cost"]);

  const fine = parseTranscriptEvent(JSON.stringify({ type: "message", message: { role: "assistant", usage: { input: 10_000_000, cost: { total: 9999.5 } } } }));
  assert.ok(fine && fine.kind === "assistant");
  assert.equal(fine.usageProblems, [], "the bounds themselves are allowed");
});

test("timestamp falls back to message.timestamp, then to the caller's fallback", () => {
  assert.is(parseTranscriptEvent('{"type":"message","message":{"role":"user","timestamp":1795301700839}}')?.ts, 1795301700839);
  assert.is(parseTranscriptEvent('{"type":"message","timestamp":"garbage","message":{"role":"user"}}', 0, 42)?.ts, 42);
  assert.is(parseTranscriptEvent('{"type":"session"}', 0, 99)?.ts, 99);
});

test("eventText joins text blocks and accepts string content", () => {
  const a = parseTranscriptEvent(JSON.stringify({ type: "message", message: { role: "assistant", content: [{ type: "text", text: "a" }, { type: "toolCall", name: "x" }, { type: "text", text: "b" }] } }));
  assert.ok(a);
  assert.is(eventText(a), "a\nb");
  const u = parseTranscriptEvent(JSON.stringify({ type: "message", message: { role: "user", content: "hi from probe" } }));
  assert.ok(u);
  assert.is(eventText(u), "hi from probe");
  const h = parseTranscriptEvent('{"type":"session"}');
  assert.ok(h);
  assert.is(eventText(h), "");
});

test.run();
