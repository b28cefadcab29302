// The head matcher (readHead + keepActivityHead) as the reader runs it: on the heads readLines
// hands over, whatever the chunk size (a marker split across chunks, lines longer than a chunk),
// with CRLF endings, and with the markers it looks for written inside lines it must skip.
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { readLines } from "../jsonl/line-reader.js";
import { CLASSIFY_PEEK_BYTES, keepActivityHead, readHead } from "./classify.js";
import { CODEX_FIXTURE, makeTempDir, removeTempDirs, rolloutFiles } from "../../../test/helpers/codex-fixture.js";
import type { RawLine } from "../../../test/helpers/codex-fixture.js";
import { FIXTURES_DIR } from "../../../test/helpers/openclaw-fixtures.js";

test.after(removeTempDirs);

// Read-only use of the fixture: only readFileSync, nothing is opened for writing.
const codexDir = path.join(FIXTURES_DIR, CODEX_FIXTURE, ".codex");

/** The lines readLines hands over with the activity matcher, with the head's sub-type of each. */
function kept(file: string, chunkBytes: number): Array<{ text: string; sub: string | null }> {
  const out: Array<{ text: string; sub: string | null }> = [];
  let sub: string | null = null;
  const keep = (head: Buffer): boolean => {
    const h = readHead(head);
    sub = h?.sub ?? null;
    return keepActivityHead(h);
  };
  const r = readLines(file, null, { keep, peekBytes: CLASSIFY_PEEK_BYTES, chunkBytes, maxBytes: Number.MAX_SAFE_INTEGER }, (line) => out.push({ text: line.toString("utf8"), sub }));
  if (!r.ok) throw r.error;
  return out;
}

/** What line.ts uses, from the parsed line; and the payload's type it saw. */
function used(text: string): { text: string; sub: string | null } | null {
  const l = JSON.parse(text) as RawLine;
  const p = l.payload ?? {};
  const yes =
    ["session_meta", "turn_context", "token_usage_record"].includes(l.type) ||
    (l.type === "event_msg" && (["task_started", "task_complete", "token_count"].includes(p.type) || (p.type === "item_completed" && ["UserMessage", "CommandExecution"].includes(p.item?.type)))) ||
    (l.type === "response_item" && /_call(_output)?$/.test(p.type));
  return yes ? { text, sub: typeof p.type === "string" ? p.type : null } : null;
}

test("every fixture rollout, LF and CRLF, at chunk sizes that split every marker: exactly the used lines, whole, with their payload type", () => {
  const tmp = makeTempDir();
  let n = 0;
  for (const rel of rolloutFiles(codexDir).slice(0, 2)) {
    const lines = fs.readFileSync(path.join(codexDir, rel), "utf8").split("\n").filter((l) => l !== "");
    const expected = lines.map(used).filter((x) => x !== null);
    assert.ok(expected.length > 0 && expected.length < lines.length, rel);
    const crlf = path.join(tmp, `${n++}.jsonl`);
    fs.writeFileSync(crlf, lines.map((l) => `${l}\r\n`).join(""));
    // `,"payload":{"type":"` is 20 bytes: these sizes cut it, and `"type":"`, at every offset; the
    // 22 KB session_meta is longer than every chunk here.
    for (const size of [7, 11, 20, 33, 4096]) {
      assert.equal(kept(path.join(codexDir, rel), size), expected, `${rel} at ${size}-byte chunks`);
      assert.equal(kept(crlf, size), expected, `${rel} (CRLF) at ${size}-byte chunks`);
    }
  }
});

test("a used type written inside a skipped line's payload is not taken for the line's own", () => {
  const tmp = makeTempDir();
  const ts = '"timestamp":"2026-11-23T21:28:45.273Z","ordinal":3';
  const lines = [
    // A model message quoting a tool call and a usage record in its text.
    `{${ts},"type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"{\\"type\\":\\"token_usage_record\\",\\"payload\\":{\\"type\\":\\"function_call\\"}}"}]}}`,
    // A nested object that holds the payload shape: the payload's own first key is not `type`.
    `{${ts},"type":"response_item","payload":{"id":"x","meta":{"payload":{"type":"function_call"}}}}`,
    `{${ts},"type":"world_state","payload":{"full":true,"state":{"payload":{"type":"token_count"}}}}`,
  ];
  const file = path.join(tmp, "r.jsonl");
  fs.writeFileSync(file, `${lines.join("\r\n")}\r\n`);
  for (const size of [9, 64, 4096]) {
    const got = kept(file, size);
    // The first is a message (skipped); the second's payload type is unknown from its head, so it
    // is kept for the parser to judge, never counted as a call; the world_state is skipped.
    assert.equal(got.map((l) => l.sub), [null], `${size}-byte chunks`);
  }
});

test.run();
