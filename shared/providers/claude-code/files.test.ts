import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { parseTranscriptId } from "./files.js";
import { LIST_PACE, listTranscriptFiles, listTranscriptFilesPaced } from "./transcript-index.js";
import { copyClaudeHome, makeTempDir, removeTempDirs, transcriptFiles } from "../../../test/helpers/claude-code-fixture.js";

test.after(removeTempDirs);

test("the fixture: every session file and the sub-agent file, keyed by design §9", () => {
  const { claudeDir } = copyClaudeHome();
  const r = listTranscriptFiles(claudeDir);
  assert.ok(r.ok);
  if (!r.ok) return;
  assert.equal(r.warnings, []);
  assert.equal(r.value.map((t) => t.id), transcriptFiles(claudeDir));
  for (const t of r.value) {
    const st = fs.statSync(path.join(claudeDir, t.id));
    assert.is(t.changeToken, `${st.size}:${st.ino}:${st.mtimeMs}`);
    assert.is(t.sizeBytes, st.size);
    const sub = /\/([^/]+)\/subagents\/agent-([^/]+)\.jsonl$/.exec(t.id);
    if (sub) {
      assert.is(t.sessionKey, `${sub[1]}:subagent:${sub[2]}`);
      assert.is(t.parentKey, sub[1]);
      // Its lines carry the parent's sessionId (format doc §1).
      const first = JSON.parse(fs.readFileSync(path.join(claudeDir, t.id), "utf8").split("\n")[0] ?? "") as { sessionId: string };
      assert.is(first.sessionId, t.parentKey);
    } else {
      assert.is(t.sessionKey, path.basename(t.id, ".jsonl"));
      assert.is(t.parentKey, null);
    }
  }
  assert.ok(r.value.some((t) => t.parentKey !== null), "the fixture has a sub-agent");
});

test("other files are not transcripts; no projects/ yet is an empty list", () => {
  const dir = makeTempDir();
  assert.equal(listTranscriptFiles(dir), { ok: true, value: [], warnings: [] });
  const slug = path.join(dir, "projects", "-home-op-x");
  fs.mkdirSync(path.join(slug, "s1", "subagents"), { recursive: true });
  fs.mkdirSync(path.join(slug, "memory"));
  fs.mkdirSync(path.join(slug, "dir.jsonl"));
  for (const f of ["s1.jsonl", ".hidden.jsonl", "notes.txt", "s1/subagents/agent-a1.jsonl", "s1/subagents/agent-a1.meta.json", "s1/subagents/other.jsonl"]) fs.writeFileSync(path.join(slug, f), "");
  fs.writeFileSync(path.join(dir, "projects", "stray.jsonl"), "");
  const r = listTranscriptFiles(dir);
  assert.ok(r.ok);
  if (r.ok) assert.equal(r.value.map((t) => [t.id, t.sessionKey, t.parentKey]), [
    ["projects/-home-op-x/s1.jsonl", "s1", null],
    ["projects/-home-op-x/s1/subagents/agent-a1.jsonl", "s1:subagent:a1", "s1"],
  ]);
});

test("transcript ids: only the two shapes, no way out of the install", () => {
  assert.equal(parseTranscriptId("projects/p/s.jsonl"), { sessionKey: "s", parentKey: null, subagent: false });
  assert.equal(parseTranscriptId("projects/p/s/subagents/agent-a.jsonl"), { sessionKey: "s:subagent:a", parentKey: "s", subagent: true });
  for (const bad of ["projects/../x.jsonl", "projects/p/../../etc.jsonl", "/etc/passwd", "projects/p/..jsonl", "projects/../s/subagents/agent-a.jsonl", "sessions/1.json", "projects/p/s.json", "projects/p/.s.jsonl", "projects/p/s/subagents/agent-.jsonl", ""]) {
    assert.is(parseTranscriptId(bad), null, bad);
  }
});

test("a paced listing: the same list as in one go, with a pause every LIST_PACE files", async () => {
  const dir = makeTempDir();
  const n = LIST_PACE * 2 + 37;
  for (let i = 0; i < n; i++) {
    const project = path.join(dir, "projects", `-home-op-p${i % 7}`);
    fs.mkdirSync(project, { recursive: true });
    fs.writeFileSync(path.join(project, `s${String(i).padStart(5, "0")}.jsonl`), "{}\n");
  }
  let pauses = 0;
  const paced = await listTranscriptFilesPaced(dir, async () => {
    pauses++;
  });
  const once = listTranscriptFiles(dir);
  assert.ok(paced.ok && once.ok);
  assert.equal(paced, once);
  assert.is(paced.ok ? paced.value.length : 0, n);
  assert.ok(pauses >= 2, `${pauses} pauses for ${n} files`);
});

test.run();
