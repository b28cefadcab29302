import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { CLASSIFY_PEEK_BYTES, SKIPPED_TYPES, keepLine } from "./classify.js";
import { copyClaudeHome, removeTempDirs, transcriptFiles } from "../../../test/helpers/claude-code-fixture.js";

test.after(removeTempDirs);

const head = (s: string) => Buffer.from(s).subarray(0, CLASSIFY_PEEK_BYTES);

test("every fixture line: skipped exactly when its type is one the reader does not use", () => {
  const { claudeDir } = copyClaudeHome();
  const counts = { skipped: 0, kept: 0, attachment: 0, shape: 0, blob: 0 };
  for (const rel of transcriptFiles(claudeDir)) {
    for (const line of fs.readFileSync(path.join(claudeDir, rel), "utf8").split("\n")) {
      if (line === "") continue;
      const type = (JSON.parse(line) as { type: string }).type;
      const keep = keepLine(head(line));
      assert.is(keep, !SKIPPED_TYPES.has(type), `${rel}: a ${type} line`);
      if (keep) counts.kept++;
      else counts.skipped++;
      if (type === "attachment") counts.attachment++;
      if (type === "api-request-shape") counts.shape++;
      if (type === "api-request-blob") counts.blob++;
    }
  }
  // The fixture has every kind the classifier exists for.
  assert.ok(counts.attachment > 0 && counts.shape > 0 && counts.blob > 0 && counts.kept > 0);
});

test("type is read at the top level only; a nested type or attachment key decides nothing", () => {
  assert.ok(keepLine(head('{"parentUuid":"x","message":{"type":"attachment","attachment":{}},"type":"assistant"}')));
  assert.ok(keepLine(head('{"message":{"content":[{"type":"api-request-blob"}]},"type":"user"}')));
  assert.not.ok(keepLine(head('{"parentUuid":null,"isSidechain":true,"agentId":"a1","attachment":{"type":"file"},"type":"attachment"}')));
  assert.not.ok(keepLine(head('  { "type" : "api-request-shape", "shape": {}}')));
  assert.ok(keepLine(head('{"type":"user","attachment":{"x":1}}')), "type seen first decides");
});

test("whatever the head cannot settle is kept", () => {
  const big = `{"parentUuid":"p","isSidechain":false,"message":{"content":"${"a".repeat(2000)}"},"type":"attachment"}`;
  assert.ok(keepLine(head(big)), "type beyond the head");
  assert.ok(keepLine(head('{"parentUuid":"p\\"x","isSidechain":false')), "cut after an escaped quote");
  assert.ok(keepLine(head('{"n":12')), "cut inside a number");
  assert.ok(keepLine(head('{"ty\\u0070e":"attachment"}')), "escaped key");
  assert.ok(keepLine(head("not json")));
  assert.ok(keepLine(head("[1,2]")));
  assert.ok(keepLine(head("")));
  assert.ok(keepLine(head('{"type":1}')));
});

test("strings with braces and escapes do not derail the scan", () => {
  assert.not.ok(keepLine(head('{"a":"}{\\\\","b":[{"c":"]"}],"n":-1.5e3,"t":true,"z":null,"attachment":{}}')));
  assert.ok(keepLine(head('{"a":"}{\\\\","b":[{"c":"]"}],"type":"user"}')));
});

test.run();
