// keepLine as the reader runs it: on the heads readLines hands over, whatever the chunk size (a
// marker split across chunks, lines longer than a chunk), with CRLF endings, and with the markers
// it looks for written inside string values of lines it must skip.
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { readLines } from "../jsonl/line-reader.js";
import { CLASSIFY_PEEK_BYTES, SKIPPED_TYPES, keepLine } from "./classify.js";
import { copyClaudeHome, makeTempDir, removeTempDirs, transcriptFiles } from "../../../test/helpers/claude-code-fixture.js";

test.after(removeTempDirs);

/** The lines readLines hands over with keepLine, by chunk size. */
function kept(file: string, chunkBytes: number): string[] {
  const out: string[] = [];
  const r = readLines(file, null, { keep: keepLine, peekBytes: CLASSIFY_PEEK_BYTES, chunkBytes, maxBytes: Number.MAX_SAFE_INTEGER }, (line) => out.push(line.toString("utf8")));
  if (!r.ok) throw r.error;
  assert.ok(r.value.done);
  return out;
}

test("every fixture transcript, LF and CRLF, at chunk sizes that split every marker: exactly the lines of used types, whole", () => {
  const { claudeDir } = copyClaudeHome();
  const tmp = makeTempDir();
  let checked = 0;
  for (const rel of transcriptFiles(claudeDir).slice(0, 3)) {
    const text = fs.readFileSync(path.join(claudeDir, rel), "utf8");
    const lines = text.split("\n").filter((l) => l !== "");
    const expected = lines.filter((l) => !SKIPPED_TYPES.has((JSON.parse(l) as { type: string }).type));
    assert.ok(expected.length > 0 && expected.length < lines.length, rel);
    const crlf = path.join(tmp, `${checked}.jsonl`);
    fs.writeFileSync(crlf, lines.map((l) => `${l}\r\n`).join(""));
    // 7..40: `"type":"attachment"` and `"attachment":{` fall across a chunk boundary at every offset;
    // the fixture's 30-110 KB lines are many chunks long at every size here.
    for (const size of [7, 13, 19, 23, 40, 4096]) {
      assert.equal(kept(path.join(claudeDir, rel), size), expected, `${rel} at ${size}-byte chunks`);
      assert.equal(kept(crlf, size), expected, `${rel} (CRLF) at ${size}-byte chunks`);
      checked++;
    }
  }
  assert.ok(checked > 0);
});

test("a used type written inside a string value of a skipped line does not keep it; a long used line is whole", () => {
  const tmp = makeTempDir();
  const fake = JSON.stringify({ parentUuid: "p", isSidechain: false, attachment: { type: "file", content: '{"type":"assistant","message":{"usage":{"input_tokens":5}}}' }, type: "attachment" });
  const blob = JSON.stringify({ type: "api-request-blob", hash: "h", message: { role: "assistant", content: '"type":"user" "type":"assistant"' } });
  const long = JSON.stringify({ type: "assistant", message: { id: "m1", content: [{ type: "text", text: "x".repeat(9000) }], usage: { input_tokens: 1 } }, requestId: "r1" });
  const file = path.join(tmp, "t.jsonl");
  fs.writeFileSync(file, `${fake}\r\n${blob}\n${long}\r\n${fake}`);
  for (const size of [5, 64, 1024, 1 << 16]) assert.equal(kept(file, size), [long], `${size}-byte chunks`);
});

test.run();
