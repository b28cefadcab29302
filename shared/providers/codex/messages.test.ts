import { test } from "uvu";
import * as assert from "uvu/assert";
import type { SourceWarning } from "../result.js";
import { MessageCollector } from "./messages.js";

const T = "2026-11-23T21:28:35.000Z";
type L = Record<string, unknown>;
const line = (type: string, payload: L): L => ({ timestamp: T, type, payload });
const ev = (sub: string, payload: L = {}): L => line("event_msg", { type: sub, ...payload });
const usage = { input_tokens: 100, cached_input_tokens: 40, cache_write_input_tokens: 0, output_tokens: 10, reasoning_output_tokens: 5, total_tokens: 110 };
const userMsg = (text: string) => line("response_item", { type: "message", role: "user", content: [{ type: "input_text", text }] });
const assistantMsg = (text: string, turn = "t1") => line("response_item", { type: "message", role: "assistant", id: `msg-${text}`, content: [{ type: "output_text", text }], internal_chat_message_metadata_passthrough: { turn_id: turn } });

function collect(lines: L[]) {
  const c = new MessageCollector();
  const warnings: SourceWarning[] = [];
  lines.forEach((l, i) => c.add(l, i * 10, `f:${i * 10}`, warnings));
  return { messages: c.finish(), warnings };
}

test("without UserMessage items (older files) the prompts are the user messages that are not injected context", () => {
  const { messages } = collect([
    line("turn_context", { turn_id: "t1", model: "gpt-5" }),
    userMsg("<environment_context>\n  <cwd>/w</cwd>\n</environment_context>"),
    userMsg("<user_instructions>be nice</user_instructions>"),
    userMsg("fix the bug"),
    assistantMsg("done"),
    line("token_usage_record", { turn_id: "t1", response_id: "r1", usage }),
  ]);
  assert.equal(messages.map((m) => [m.role, m.text, m.model]), [
    ["user", "fix the bug", null],
    ["assistant", "done", "gpt-5"],
  ]);
  assert.equal(messages[1]?.usage, { input: 60, cacheRead: 40, cacheWrite: 0, cacheWrite1h: 0, output: 10, reasoning: 5 });
  assert.is(messages[1]?.id, "r1");
});

test("with UserMessage items those are the prompts (the response_item copies are not shown twice)", () => {
  const { messages } = collect([userMsg("hello"), ev("item_completed", { item: { type: "UserMessage", id: "u1", content: [{ type: "text", text: "hello" }] } })]);
  assert.equal(messages.map((m) => [m.id, m.role, m.text]), [["u1", "user", "hello"]]);
});

test("a response that never got its record is shown without usage; the same response id twice carries its usage once", () => {
  const { messages, warnings } = collect([
    line("turn_context", { turn_id: "t1", model: "m1" }),
    assistantMsg("partial"),
    ev("task_complete", { turn_id: "t1", error: { message: "stream broke", codex_error_info: "response_stream_disconnected" } }),
    line("token_usage_record", { turn_id: "t1", response_id: "r9", usage }),
    line("token_usage_record", { turn_id: "t1", response_id: "r9", usage }),
    line("token_usage_record", { turn_id: "t1", response_id: "r10", usage: { ...usage, input_tokens: -1 } }),
  ]);
  assert.equal(messages.map((m) => [m.id, m.text, m.model, m.usage === null, m.isError, m.errorMessage]), [
    ["msg-partial", "partial", "m1", true, false, null],
    ["@20", "stream broke", "m1", true, true, "stream broke"],
    ["r9", "", "m1", false, false, null],
    ["r9@40", "", "m1", true, false, null],
    ["r10", "", "m1", true, false, null],
  ]);
  assert.equal(warnings.map((w) => [w.code, w.where]), [["BAD_FIELD", "f:50"]]);
});

test("tool calls of every kind are named; results take their call's name and error flag", () => {
  const { messages } = collect([
    line("response_item", { type: "function_call", name: "exec_command", call_id: "c1" }),
    line("response_item", { type: "web_search_call", id: "ws1" }),
    line("token_usage_record", { turn_id: "t1", response_id: "r1", usage }),
    ev("item_completed", { item: { type: "CommandExecution", id: "c1", exit_code: 2 } }),
    line("response_item", { type: "function_call_output", call_id: "c1", output: "Process exited with code 2" }),
    line("response_item", { type: "function_call_output", call_id: "unknown", output: { content: "x" } }),
  ]);
  assert.equal(messages[0]?.toolCalls, [{ id: "c1", name: "exec_command" }, { id: "ws1", name: "web_search" }]);
  assert.equal(messages.slice(1).map((m) => [m.role, m.toolName, m.isError, m.text]), [
    ["toolResult", "exec_command", true, "Process exited with code 2"],
    ["toolResult", null, false, "x"],
  ]);
});

test.run();
