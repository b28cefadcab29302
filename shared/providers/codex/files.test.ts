import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { isSessionId, LIST_PACE, listRolloutFiles, listRolloutFilesPaced, pickRollouts, sessionIdOfName, transcriptRefs } from "./files.js";
import { makeTempDir, removeTempDirs } from "../../../test/helpers/codex-fixture.js";

test.after(removeTempDirs);

const A = "01a20a4f-8ada-7c40-a2c4-78459390a270";
const B = "01a20a4f-b29a-7013-ab8a-2e5f4eacdbbb";

function put(root: string, rel: string, content = "{}\n"): string {
  const p = path.join(root, rel);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, content);
  return p;
}

test("session id from the rollout name; other names are not rollouts", () => {
  assert.is(sessionIdOfName(`rollout-2026-11-23T21-28-34-${A}.jsonl`), A);
  assert.is(sessionIdOfName(`rollout-2026-11-23T21-28-34-${A.toUpperCase()}.jsonl`), A);
  assert.is(sessionIdOfName(`rollout-${A}.jsonl.bak`), null);
  assert.is(sessionIdOfName(`${A}.jsonl`), null);
  assert.is(sessionIdOfName("rollout-2026-11-23T21-28-34-not-a-uuid.jsonl"), null);
  assert.ok(isSessionId(A));
  assert.not.ok(isSessionId("../../etc/passwd"));
  assert.not.ok(isSessionId(A.toUpperCase()));
});

test("lists sessions/YYYY/MM/DD and archived_sessions (nested too); nothing else", () => {
  const root = makeTempDir();
  put(root, `sessions/2026/11/23/rollout-2026-11-23T21-28-34-${A}.jsonl`);
  put(root, `archived_sessions/rollout-2026-11-20T10-00-00-${B}.jsonl`);
  put(root, `archived_sessions/2026/11/01/rollout-2026-11-01T10-00-00-01a20a4f-0000-7000-8000-000000000001.jsonl`);
  put(root, `sessions/2026/11/rollout-2026-11-23T21-28-34-01a20a4f-0000-7000-8000-000000000002.jsonl`); // wrong depth
  put(root, `sessions/misc/11/23/rollout-2026-11-23T21-28-34-01a20a4f-0000-7000-8000-000000000003.jsonl`); // not a year
  put(root, `sessions/2026/11/23/notes.jsonl`);
  fs.mkdirSync(path.join(root, `sessions/2026/11/23/rollout-x-01a20a4f-0000-7000-8000-000000000004.jsonl`)); // a dir
  const r = listRolloutFiles(root);
  assert.ok(r.ok);
  if (!r.ok) return;
  assert.equal(r.value.map((f) => f.rel).sort(), [
    `archived_sessions/2026/11/01/rollout-2026-11-01T10-00-00-01a20a4f-0000-7000-8000-000000000001.jsonl`,
    `archived_sessions/rollout-2026-11-20T10-00-00-${B}.jsonl`,
    `sessions/2026/11/23/rollout-2026-11-23T21-28-34-${A}.jsonl`,
  ]);
  const refs = transcriptRefs(pickRollouts(r.value));
  assert.equal(refs.map((t) => [t.id, t.sessionKey, t.parentKey]), [
    ["01a20a4f-0000-7000-8000-000000000001", "01a20a4f-0000-7000-8000-000000000001", null],
    [A, A, null],
    [B, B, null],
  ]);
  const st = fs.statSync(path.join(root, `sessions/2026/11/23/rollout-2026-11-23T21-28-34-${A}.jsonl`));
  assert.is(refs.find((t) => t.id === A)?.changeToken, `${st.size}:${st.ino}:${st.mtimeMs}`);
});

test("one session in several files is listed once: live before archived, then the larger", () => {
  const root = makeTempDir();
  put(root, `archived_sessions/rollout-2026-11-23T21-28-34-${A}.jsonl`, "{}\n{}\n{}\n");
  put(root, `sessions/2026/11/23/rollout-2026-11-23T21-28-34-${A}.jsonl`, "{}\n");
  put(root, `sessions/2026/11/24/rollout-2026-11-24T09-00-00-${A}.jsonl`, "{}\n{}\n");
  const r = listRolloutFiles(root);
  assert.ok(r.ok);
  if (!r.ok) return;
  assert.is(r.value.length, 3);
  const chosen = pickRollouts(r.value);
  assert.is(chosen.size, 1);
  assert.is(chosen.get(A)?.rel, `sessions/2026/11/24/rollout-2026-11-24T09-00-00-${A}.jsonl`);
});

test("no sessions folder is an empty list", () => {
  const r = listRolloutFiles(makeTempDir());
  assert.ok(r.ok && r.value.length === 0);
});

test("symlinked folders are not followed", () => {
  const root = makeTempDir();
  const outside = makeTempDir();
  put(outside, `rollout-2026-11-23T21-28-34-${A}.jsonl`);
  fs.mkdirSync(path.join(root, "archived_sessions"), { recursive: true });
  fs.symlinkSync(outside, path.join(root, "archived_sessions", "elsewhere"));
  fs.symlinkSync(path.join(root, "archived_sessions"), path.join(root, "archived_sessions", "loop"));
  const r = listRolloutFiles(root);
  assert.ok(r.ok && r.value.length === 0);
});

test("a paced listing: the same files as in one go, with pauses along the way", async () => {
  const root = makeTempDir();
  const n = LIST_PACE * 2 + 37;
  const id = (i: number): string => `01a20a4f-8ada-7c40-a2c4-${String(i).padStart(12, "0")}`;
  for (let i = 0; i < n; i++) put(root, `sessions/2026/11/${String(20 + (i % 3)).padStart(2, "0")}/rollout-2026-11-20T10-00-00-${id(i)}.jsonl`);
  put(root, `archived_sessions/rollout-2026-11-01T10-00-00-${id(n)}.jsonl`);
  let pauses = 0;
  const paced = await listRolloutFilesPaced(root, async () => {
    pauses++;
  });
  const once = listRolloutFiles(root);
  assert.ok(paced.ok && once.ok);
  if (!paced.ok || !once.ok) return;
  const key = (fs: Array<{ rel: string }>): string[] => fs.map((f) => f.rel).sort();
  assert.equal(key(paced.value), key(once.value));
  assert.is(paced.value.length, n + 1);
  assert.ok(pauses >= 3, `${pauses} pauses for ${n} files`);
});

test.run();
