import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { FIXTURES_DIR } from "../../../test/helpers/openclaw-fixtures.js";
import { withoutInstructions } from "./instructions.js";
import { CODEX_FIXTURE, rolloutFiles } from "../../../test/helpers/codex-fixture.js";

const codexDir = path.join(FIXTURES_DIR, CODEX_FIXTURE, ".codex");

/** What the cut must give: the same object with base_instructions.text emptied. */
function expected(line: string): unknown {
  const v = JSON.parse(line) as { payload?: { base_instructions?: { text?: unknown } } };
  if (v.payload?.base_instructions && "text" in v.payload.base_instructions) v.payload.base_instructions.text = "";
  return v;
}

test("every fixture session_meta: the same object but the instructions' text, and far shorter", () => {
  let metas = 0;
  for (const rel of rolloutFiles(codexDir)) {
    for (const line of fs.readFileSync(path.join(codexDir, rel), "utf8").split("\n")) {
      if (!line.includes('"type":"session_meta"')) continue;
      metas++;
      const cut = withoutInstructions(Buffer.from(line));
      assert.equal(JSON.parse(cut), expected(line), rel);
      assert.ok(cut.length < line.length / 5, `${rel}: ${cut.length} of ${line.length}`);
    }
  }
  assert.ok(metas >= 5, `fixture rollouts each start with a session_meta (${metas})`);
});

test("escaped quotes and backslashes inside the text; the closing quote after an even run of backslashes", () => {
  const cases = [
    String.raw`say \"hi\" then \\`,
    String.raw`ends with an escaped quote \"`,
    String.raw`a path C:\\dir\\ and \\\" mixed`,
    "unicode é ✓ and a newline \\n",
    "",
  ];
  for (const text of cases) {
    const obj = { type: "session_meta", payload: { id: "x", base_instructions: { text: JSON.parse(`"${text}"`) as string, provenance: { type: "model" } }, cwd: "/w" } };
    const line = JSON.stringify(obj);
    const cut = withoutInstructions(Buffer.from(line));
    assert.equal(JSON.parse(cut), expected(line), text);
    assert.ok(cut.includes('"cwd":"/w"'), text);
  }
});

test("a line without that shape, or with an unterminated text, comes back whole", () => {
  for (const line of ['{"type":"session_meta","payload":{"id":"x","cwd":"/w"}}', '{"type":"session_meta","payload":{"base_instructions":{"text":"never closed', '{"base_instructions":"plain string"}']) {
    assert.is(withoutInstructions(Buffer.from(line)), line);
  }
});

test.run();
