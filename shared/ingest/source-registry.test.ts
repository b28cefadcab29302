import Database from "better-sqlite3";
import { cpSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { manualClock } from "../base/clock.js";
import { LogHub } from "../base/log/logger.js";
import { copyFixture, FILES_FIXTURE, makeTempDir, removeTempDirs, SQLITE_FIXTURE } from "../../test/helpers/openclaw-fixtures.js";
import { Store } from "../store/store.js";
import { OpenClawProvider } from "../providers/openclaw/provider.js";
import type { Install, SourceReader } from "../providers/contract.js";
import type { SourceResult } from "../providers/result.js";
import { SourceRegistry } from "./source-registry.js";

test.after(removeTempDirs);
const clock = manualClock();

function setup(fixture: string): { dir: string; store: Store; registry: SourceRegistry; logs: string[] } {
  const dir = copyFixture(fixture);
  const store = Store.open(join(makeTempDir(), "insights.db"), { clock });
  const hub = new LogHub({ console: "off", level: "debug" });
  const logs: string[] = [];
  hub.subscribe((r) => logs.push(`${r.level} ${r.msg} ${JSON.stringify(r)}`));
  const registry = new SourceRegistry({ providers: [new OpenClawProvider({ stateDir: dir, env: {} })], store, clock, logger: hub.logger });
  return { dir, store, registry, logs };
}

test("both eras: one AGENT source per agent, CONNECTED and ready after the first pass", async () => {
  for (const fixture of [SQLITE_FIXTURE, FILES_FIXTURE]) {
    const { registry, store } = setup(fixture);
    assert.is(registry.ready, false);
    const changed = await registry.refresh();
    assert.equal(changed, ["agent:main"]);
    const [main] = registry.agentSnapshots();
    assert.is(main?.state.status, "CONNECTED");
    assert.is(main?.firstPassDone, true);
    assert.ok((main?.sessions.length ?? 0) > 0);
    assert.ok(main?.appVersion?.startsWith(fixture === SQLITE_FIXTURE ? "2026.9.6" : "2026.7.1"), String(main?.appVersion));
    assert.is(registry.ready, true);
    // nothing new: nothing changed
    assert.equal(await registry.refresh(), []);
    registry.close();
    store.close();
  }
});

test("refreshes joining one queued pass: a hinted one and a full one make that pass full; two hints are read together", async () => {
  const dir = copyFixture(FILES_FIXTURE);
  const store = Store.open(join(makeTempDir(), "insights.db"), { clock });
  let lists = 0;
  // The real provider, its readers counting full listings.
  class Counting extends OpenClawProvider {
    override open(install: Install): SourceResult<SourceReader> {
      const opened = super.open(install);
      if (opened.ok) {
        const r = opened.value;
        const list = r.listTranscripts.bind(r);
        const paced = r.listTranscriptsPaced?.bind(r);
        r.listTranscripts = () => (lists++, list());
        if (paced) r.listTranscriptsPaced = (pause) => (lists++, paced(pause));
      }
      return opened;
    }
  }
  const registry = new SourceRegistry({ providers: [new Counting({ stateDir: dir, env: {} })], store, clock, logger: new LogHub({ console: "off" }).logger });
  await registry.refresh();
  assert.is(lists, 1);
  const sessions = join(dir, "agents", "main", "sessions");
  const a = join(sessions, "4d7eee47-dc3e-4269-8d1c-bb0990fbc547.jsonl");
  const b = join(sessions, "d8df227b-0372-4cd5-8fa4-e413554a2d69.jsonl");
  const meta = (id: string): string => `${JSON.stringify({ type: "custom", customType: "note", id, parentId: null, timestamp: "2026-11-23T23:00:00.000Z" })}\n`;
  writeFileSync(a, meta("x1"), { flag: "a" });
  // One pass runs (hinted: no listing); a hinted and a full refresh join the one queued behind it.
  const first = registry.refreshSource("agent:main", { paths: new Set([a]) });
  const queued = [registry.refreshSource("agent:main", { paths: new Set([b]) }), registry.refreshSource("agent:main", null)];
  await Promise.all([first, ...queued]);
  assert.is(lists, 2, "the running pass did not list; the queued one, full, did");
  // Two hinted refreshes joining one queued pass: both files are read by it, and nothing is listed.
  const cursorOf = (file: string): string | undefined =>
    (store.db.prepare("SELECT change_token AS t FROM scan_cursors WHERE source = 'agent:main' AND item = ?").get(file.slice(sessions.length + 1, -".jsonl".length)) as { t: string } | undefined)?.t;
  writeFileSync(a, meta("x2"), { flag: "a" });
  writeFileSync(b, meta("y1"), { flag: "a" });
  const again = registry.refreshSource("agent:main", { paths: new Set([a]) });
  const joined = [registry.refreshSource("agent:main", { paths: new Set([a]) }), registry.refreshSource("agent:main", { paths: new Set([b]) })];
  await Promise.all([again, ...joined]);
  assert.is(lists, 2, "hinted passes only");
  const { statSync } = await import("node:fs");
  for (const f of [a, b]) {
    const st = statSync(f);
    assert.is(cursorOf(f), `file:${st.size}:${st.ino}:${st.mtimeMs}`, `${f} read to its end`);
  }
  registry.close();
  store.close();
});

test("an agent at rest hands back its reader's caches once; a change reads anew and rests again", async () => {
  const dir = copyFixture(SQLITE_FIXTURE);
  const store = Store.open(join(makeTempDir(), "insights.db"), { clock });
  let released = 0;
  // The real provider, its readers counting releaseMemory calls.
  class Counting extends OpenClawProvider {
    override open(install: Install): SourceResult<SourceReader> {
      const opened = super.open(install);
      if (opened.ok) {
        const release = opened.value.releaseMemory?.bind(opened.value);
        opened.value.releaseMemory = () => {
          released++;
          release?.();
        };
      }
      return opened;
    }
  }
  const registry = new SourceRegistry({ providers: [new Counting({ stateDir: dir, env: {} })], store, clock, logger: new LogHub({ console: "off" }).logger });
  const sessions = (): string => JSON.stringify(registry.agentSnapshots()[0]?.sessions.map((x) => [x.key, x.updatedAt]));
  const costOf = (): number => (store.db.prepare("SELECT coalesce(sum(cost_usd), 0) AS c FROM token_usage").get() as { c: number }).c;
  await registry.refresh();
  assert.is(released, 0, "a pass that read something keeps its caches");
  const listed = sessions();
  const cost = costOf();
  await registry.refresh();
  assert.is(released, 1, "the first pass with nothing new hands them back");
  await registry.refresh();
  assert.is(released, 1, "once per rest");
  assert.is(sessions(), listed);

  // The gateway writes: the next pass reads (from the OS's cache), then the install rests again.
  const w = new Database(join(dir, "agents", "main", "agent", "openclaw-agent.sqlite"));
  const last = w.prepare("SELECT session_id AS id, max(seq) AS seq FROM transcript_events GROUP BY session_id LIMIT 1").get() as { id: string; seq: number };
  const event = { type: "message", id: "rest-1", message: { role: "assistant", usage: { input: 7, output: 3, totalTokens: 10, cost: { total: 0.25 } } } };
  w.prepare("INSERT INTO transcript_events (session_id, seq, event_json, created_at) VALUES (?, ?, ?, ?)").run(last.id, last.seq + 1, JSON.stringify(event), Date.UTC(2026, 10, 22));
  w.close();
  assert.equal(await registry.refresh(), ["agent:main"], "the change is read after the caches were dropped");
  assert.is(released, 1);
  assert.is(Math.round((costOf() - cost) * 100) / 100, 0.25, "its usage is stored");
  assert.is(sessions(), listed, "the session list, read again, is the same");
  await registry.refresh();
  assert.is(released, 2);
  registry.close();
  store.close();
});

test("a new agent appears without a restart", async () => {
  const { dir, registry } = setup(SQLITE_FIXTURE);
  await registry.refresh();
  cpSync(join(dir, "agents", "main"), join(dir, "agents", "ops"), { recursive: true });
  const changed = await registry.refresh();
  assert.ok(changed.includes("agent:ops"));
  assert.equal(registry.agentSnapshots().map((s) => `${s.id}=${s.state.status}`), ["agent:main=CONNECTED", "agent:ops=CONNECTED"]);
  registry.close();
});

test("a state dir that disappears and comes back: DISCONNECTED, then CONNECTED", async () => {
  const { dir, registry, logs } = setup(FILES_FIXTURE);
  await registry.refresh();
  renameSync(dir, `${dir}.away`);
  await registry.refresh();
  const gone = registry.agentSnapshots()[0];
  assert.is(gone?.state.status, "DISCONNECTED");
  assert.ok(gone?.state.lastError);
  assert.ok(registry.providerError("openclaw"));
  renameSync(`${dir}.away`, dir);
  await registry.refresh();
  assert.is(registry.agentSnapshots()[0]?.state.status, "CONNECTED");
  assert.ok(logs.some((l) => l.includes("source status changed") && l.includes('"to":"DISCONNECTED"')));
  registry.close();
});

test("an agent DB that is not SQLite is ERROR with lastError; the other agent keeps working", async () => {
  const { dir, registry } = setup(SQLITE_FIXTURE);
  cpSync(join(dir, "agents", "main"), join(dir, "agents", "broken"), { recursive: true });
  const db = join(dir, "agents", "broken", "agent", "openclaw-agent.sqlite");
  rmSync(db);
  writeFileSync(db, "definitely not a database ".repeat(200));
  await registry.refresh();
  const byId = Object.fromEntries(registry.agentSnapshots().map((s) => [s.agentId, s]));
  assert.is(byId.broken?.state.status, "ERROR");
  assert.match(String(byId.broken?.state.lastError), /SQLite|database/i);
  assert.is(byId.main?.state.status, "CONNECTED");
  assert.is(registry.ready, false, "an agent in ERROR has not finished its first scan");
  registry.close();
});

test("corrupt transcript lines are counted warnings, not failures", async () => {
  const { dir, registry, logs } = setup(FILES_FIXTURE);
  const sessions = join(dir, "agents", "main", "sessions");
  const { readdirSync, appendFileSync } = await import("node:fs");
  const file = readdirSync(sessions).find((n) => /^[0-9a-f-]+\.jsonl$/.test(n)) as string;
  appendFileSync(join(sessions, file), '{"type":"message","message":{"role":"user"\n');
  await registry.refresh();
  const s = registry.agentSnapshots()[0];
  assert.is(s?.state.status, "CONNECTED");
  assert.ok((s?.warnings ?? 0) >= 1);
  assert.ok(logs.some((l) => l.startsWith("warn skipped bad input")));
  registry.close();
});

test.run();
