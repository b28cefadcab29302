import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { CLASSIFY_PEEK_BYTES, keepActivityLine, keepMessageLine, readHead } from "./classify.js";
import { FIXTURES_DIR } from "../../../test/helpers/openclaw-fixtures.js";
import { CODEX_FIXTURE, rolloutFiles } from "../../../test/helpers/codex-fixture.js";
import type { RawLine } from "../../../test/helpers/codex-fixture.js";

// Read-only use of the fixture: only readFileSync, nothing is opened for writing.
const codexDir = path.join(FIXTURES_DIR, CODEX_FIXTURE, ".codex");
const head = (s: string) => Buffer.from(s).subarray(0, CLASSIFY_PEEK_BYTES);

/** What line.ts uses, decided from the parsed line (not from its head). */
function usedByActivity(l: RawLine): boolean {
  const p = l.payload ?? {};
  switch (l.type) {
    case "session_meta":
    case "turn_context":
    case "token_usage_record":
      return true;
    case "event_msg":
      return ["task_started", "task_complete", "token_count"].includes(p.type) || (p.type === "item_completed" && ["UserMessage", "CommandExecution"].includes(p.item?.type));
    case "response_item":
      return /_call$/.test(p.type) || /_call_output$/.test(p.type);
    default:
      return false;
  }
}

test("every fixture line: the head decision equals what the parser uses; big unused lines are skipped", () => {
  let skippedBytes = 0;
  let total = 0;
  const skippedTypes = new Set<string>();
  for (const rel of rolloutFiles(codexDir)) {
    for (const text of fs.readFileSync(path.join(codexDir, rel), "utf8").split("\n")) {
      if (text === "") continue;
      const l = JSON.parse(text) as RawLine;
      total += text.length;
      assert.is(keepActivityLine(head(text)), usedByActivity(l), `${rel}: ${text.slice(0, 160)}`);
      if (!usedByActivity(l)) {
        skippedBytes += text.length;
        skippedTypes.add(l.payload?.type ? `${l.type}/${l.payload.type}` : l.type);
      }
      // The transcript view also keeps the model's messages.
      if (l.type === "response_item" && l.payload.type === "message") assert.ok(keepMessageLine(head(text)));
      if (l.type === "world_state") assert.not.ok(keepMessageLine(head(text)));
    }
  }
  for (const t of ["world_state", "response_item/message", "response_item/reasoning", "event_msg/thread_settings_applied"]) assert.ok(skippedTypes.has(t), t);
  assert.ok(skippedBytes > 0 && skippedBytes < total);
});

test("a head that is not the plain envelope is kept (JSON.parse decides)", () => {
  // The payload first: its inner type must not be taken for the line's.
  assert.ok(keepActivityLine(head('{"payload":{"type":"world_state"},"type":"token_usage_record"}')));
  assert.is(readHead(head('{"payload":{"type":"world_state"},"type":"x"}')), null);
  assert.is(readHead(head('{"meta":{"type":"world_state"},"type":"x"}')), null);
  // Corrupt or cut lines.
  assert.ok(keepActivityLine(head("not json at all")));
  assert.ok(keepActivityLine(head('{"timestamp":"2026","type":"ev')));
  // An escape in the type: undecided, kept.
  assert.ok(keepActivityLine(head('{"type":"world\\u005fstate","payload":{}}')));
  // event_msg whose sub type is not visible: kept.
  assert.ok(keepActivityLine(head('{"timestamp":"t","type":"event_msg","x":1}')));
});

test("unknown line types and unused event kinds are skipped", () => {
  assert.not.ok(keepActivityLine(head('{"timestamp":"t","ordinal":1,"type":"brand_new","payload":{"type":"x"}}')));
  assert.not.ok(keepActivityLine(head('{"timestamp":"t","ordinal":1,"type":"event_msg","payload":{"type":"agent_reasoning"}}')));
  assert.not.ok(keepActivityLine(head('{"timestamp":"t","ordinal":1,"type":"compacted","payload":{"message":""}}')));
  assert.ok(keepActivityLine(head('{"timestamp":"t","ordinal":1,"type":"response_item","payload":{"type":"web_search_call"}}')));
  assert.not.ok(keepActivityLine(head('{"timestamp":"t","ordinal":1,"type":"event_msg","payload":{"type":"item_completed","item":{"type":"AgentMessage"}}}')));
});

test.run();
