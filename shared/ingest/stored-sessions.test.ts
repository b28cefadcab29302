import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { manualClock } from "../base/clock.js";
import { copyClaudeHome, removeTempDirs } from "../../test/helpers/claude-code-fixture.js";
import type { LiveSession, SessionRecord } from "../providers/contract.js";
import { makeTempDir } from "../../test/helpers/openclaw-fixtures.js";
import { Store } from "../store/store.js";
import { providerReadModel, type ProviderModel } from "../../test/helpers/provider-model.js";
import { Pricer } from "../pricing/pricer.js";
import { StoredSessionIndex } from "./stored-sessions.js";

test.after(removeTempDirs);

const sessionsOf = (pm: ProviderModel): readonly SessionRecord[] => pm.collector.registry.source(pm.sourceId)?.snapshot().sessions ?? [];

/** The model windows a Claude Code source uses: the shipped data set's, as providerReadModel's default pricer has. */
const pricer = new Pricer();
const windowOf = (model: string): number | null => pricer.contextWindow(model);

/** What a fresh index (a full read of the store) says. */
async function freshRead(pm: ProviderModel, live: readonly LiveSession[] = []): Promise<readonly SessionRecord[]> {
  return (await new StoredSessionIndex(pm.store, pm.sourceId, "default", windowOf).refresh(new Set(), live)).sessions;
}

const live = (sessionKey: string): LiveSession => ({ pid: null, sessionKey, startedAt: null, status: "busy", cwd: null, cliVersion: null });

test("a refresh with nothing new hands back the very same sessions (nothing read or built again)", async () => {
  const { home } = copyClaudeHome();
  const pm = await providerReadModel("claude-code", home);
  const before = sessionsOf(pm);
  assert.ok(before.length >= 5, `the fixture's sessions (${before.length})`);
  await pm.collect();
  assert.ok(sessionsOf(pm) === before, "the same array");
  assert.equal(before, await freshRead(pm));
  await pm.close();
});

test("a resumed transcript: its session is read again, the others stay the same objects, and the whole equals a full read", async () => {
  const { home, claudeDir } = copyClaudeHome();
  const pm = await providerReadModel("claude-code", home);
  const before = sessionsOf(pm);
  // The transcript of a session that has a user line: one more prompt, a day after the last line.
  const file = fs
    .readdirSync(path.join(claudeDir, "projects"), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".jsonl") && !f.includes("subagents"))
    .map((f) => path.join(claudeDir, "projects", f))
    .find((f) => fs.readFileSync(f, "utf8").includes('"type":"user"')) as string;
  const lines = fs.readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
  const user = lines.find((l) => l.type === "user") as Record<string, unknown>;
  const key = user.sessionId as string;
  const last = Math.max(...lines.map((l) => (typeof l.timestamp === "string" ? Date.parse(l.timestamp) : 0)));
  const later = new Date(last + 86_400_000).toISOString();
  fs.appendFileSync(file, `${JSON.stringify({ ...user, uuid: "00000000-0000-4000-8000-00000000abcd", timestamp: later })}\n`);
  await pm.collect();
  const after = sessionsOf(pm);
  assert.ok(after !== before);
  assert.equal(after, await freshRead(pm));
  const moved = after.find((s) => s.key === key);
  assert.is(moved?.lastActivityAt, Date.parse(later));
  for (const s of after) if (s.key !== key) assert.ok(s === before.find((b) => b.key === s.key), `${s.key} was built again`);
  await pm.close();
});

test("a session starting and stopping running: only its record changes", async () => {
  const { home } = copyClaudeHome();
  const pm = await providerReadModel("claude-code", home);
  const index = new StoredSessionIndex(pm.store, pm.sourceId, "default", windowOf);
  const first = await index.refresh(new Set(), []);
  const key = (first.sessions[0] as SessionRecord).key;
  const running = await index.refresh(new Set(), [live(key)]);
  assert.ok(running.changed);
  assert.is(running.sessions.find((s) => s.key === key)?.status, "running");
  for (const s of running.sessions) if (s.key !== key) assert.ok(s === first.sessions.find((b) => b.key === s.key));
  const same = await index.refresh(new Set(), [live(key)]);
  assert.not.ok(same.changed);
  assert.ok(same.sessions === running.sessions);
  const stopped = await index.refresh(new Set(), []);
  assert.equal(stopped.sessions, first.sessions);
  await pm.close();
});

test("more sessions than one chunk: every one read, in key order; changed keys read again", async () => {
  const store = Store.open(path.join(makeTempDir(), "insights.db"), { clock: manualClock() });
  const insert = store.db.prepare("INSERT INTO session_meta (source_id, session_key, title, last_activity) VALUES (?, ?, ?, ?)");
  const keys = Array.from({ length: 1234 }, (_, i) => `s${String(i).padStart(5, "0")}`).reverse();
  store.db.transaction(() => {
    for (const k of keys) insert.run("codex:default", k, `title ${k}`, 1000);
    insert.run("codex:other", "s00001", "another source", 1);
  })();
  const index = new StoredSessionIndex(store, "codex:default", "default", () => null);
  const all = await index.refresh(new Set(), []);
  assert.equal(
    all.sessions.map((s) => s.key),
    [...keys].sort(),
  );
  assert.ok(all.sessions.every((s) => s.displayName === `title ${s.key}`));
  store.db.prepare("UPDATE session_meta SET title = 'renamed', last_activity = 2000 WHERE session_key IN ('s00007', 's01000')").run();
  insert.run("codex:default", "s99999", "new", 3000);
  const next = await index.refresh(new Set(["s00007", "s01000", "s99999"]), []);
  assert.is(next.sessions.length, 1235);
  assert.is(next.sessions[next.sessions.length - 1]?.key, "s99999");
  assert.equal(
    next.sessions.filter((s) => s.displayName === "renamed").map((s) => [s.key, s.lastActivityAt]),
    [
      ["s00007", 2000],
      ["s01000", 2000],
    ],
  );
  store.close();
});

test.run();
