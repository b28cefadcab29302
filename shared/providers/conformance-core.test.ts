// The conformance suite through the whole core (issue 21 item 6): every registered provider's
// fixture, read by its provider into a real store by the Collector and answered by the ReadModel,
// changed the way real use changes it, with the same checks for every provider: the first pass, a
// resume read later, a restart and a new turn, de-duplication, truncation and replacement, removal,
// and live sessions. What differs is declared by each provider's adapter
// (test/helpers/conformance/); the expected figures come from its oracle over the files on disk.
// The reader-level checks (discovery, batches, cursors, watch targets, capabilities) are in
// conformance.test.ts.
import * as fs from "node:fs";
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { ActivityEvent, SourceReader } from "./contract.js";
import { hasCapability, PROVIDER_IDENTITIES } from "./registry.js";
import { CONFORMANCE_FIXTURES } from "../../test/helpers/conformance/fixtures.js";
import { checkAll, checkLifetime, checkSession, sameFigures, sessionsByKey, type FixtureCopy } from "../../test/helpers/conformance/kit.js";
import { removeTempDirs } from "../../test/helpers/openclaw-fixtures.js";
import { coreReadModel, type ProviderModel } from "../../test/helpers/provider-model.js";

test.after(removeTempDirs);

const core = (c: FixtureCopy): Promise<ProviderModel> => coreReadModel(() => c.provider(), c.sourceId);

/** Runs `body` on the core over `c`, closing whichever model it ends with (`restart` hands over to a new one). */
async function withCore(c: FixtureCopy, body: (pm: ProviderModel, restart: () => Promise<ProviderModel>) => Promise<void>): Promise<void> {
  let current = await core(c);
  const restart = async (): Promise<ProviderModel> => (current = await current.restart());
  try {
    await body(current, restart);
  } finally {
    await current.close();
  }
}

function must<T>(v: T | undefined, what: string): T {
  if (v === undefined) throw new Error(`the oracle has no ${what}`);
  return v;
}

/** A file's new content under a new inode (an editor's save, a restore from backup). */
function replaceFile(file: string): void {
  fs.copyFileSync(file, `${file}.tmp-replace`);
  fs.renameSync(`${file}.tmp-replace`, file);
}

/** Every event the provider's reader gives for the install, each transcript read to the end. */
function allEvents(c: FixtureCopy): ActivityEvent[] {
  const provider = c.provider();
  const install = provider.discover().installs.find((i) => i.id === c.sourceId);
  assert.ok(install, `${c.sourceId} discovered`);
  const opened = provider.open(install);
  if (!opened.ok) throw opened.error;
  const reader: SourceReader = opened.value;
  const events: ActivityEvent[] = [];
  try {
    const refs = reader.listTranscripts();
    if (!refs.ok) throw refs.error;
    for (const ref of refs.value) {
      let cursor: unknown = null;
      for (let i = 0; i < 10_000; i++) {
        const batch = reader.readTranscript(ref, cursor, 500);
        if (!batch.ok) throw batch.error;
        events.push(...batch.value.events);
        cursor = batch.value.cursor;
        if (batch.value.done) break;
      }
    }
  } finally {
    reader.close();
  }
  return events;
}

for (const { name } of PROVIDER_IDENTITIES) {
  const fixture = CONFORMANCE_FIXTURES[name];

  test(`${name} core: the first pass gives every session's figures, the install's lifetime figures and its event log as the files do`, async () => {
    const c = fixture();
    const oracle = c.expected();
    assert.ok(oracle.bySession.size > 0 && oracle.total.responses > 0 && oracle.total.prompts > 0, "the fixture has sessions with prompts and responses");
    await withCore(c, async (pm) => {
      assert.equal(pm.model.agents().map((a) => [a.id, a.provider, a.state.status]), [[c.sourceId, name, "CONNECTED"]]);
      checkAll(pm, oracle, "first pass");
    });
  });

  test(`${name} core: a resumed transcript read in a later pass adds only its new turn to the one session; a pass with nothing new changes nothing`, async () => {
    const c = fixture();
    const split = c.resumable();
    fs.writeFileSync(split.file, split.head);
    await withCore(c, async (pm) => {
      const before = c.expected();
      checkAll(pm, before, "before the resume");
      const windows = pm.model.session(pm.sourceId, split.key)?.windows;
      fs.appendFileSync(split.file, split.tail);
      await pm.collect();
      const after = c.expected();
      assert.ok((after.bySession.get(split.key)?.prompts ?? 0) > (before.bySession.get(split.key)?.prompts ?? 0), "the resume is a turn of its own");
      checkAll(pm, after, "after the resume");
      // One transcript, appended to: one window before and after.
      assert.equal([windows, pm.model.session(pm.sourceId, split.key)?.windows], [1, 1], "still the one session window");
      await pm.collect();
      checkAll(pm, after, "a pass with nothing new");
    });
  });

  test(`${name} core: a restart counts nothing twice, then reads only a turn appended while it runs; another restart the same`, async () => {
    const c = fixture();
    const oracle = c.expected();
    await withCore(c, async (first, restart) => {
      let pm = first;
      checkAll(pm, oracle, "first daemon");
      const events = pm.model.events(pm.sourceId).map((e) => [e.type, e.time, e.sessionKey, e.message]);
      pm = await restart();
      checkAll(pm, oracle, "second daemon, nothing new");
      assert.equal(pm.model.events(pm.sourceId).map((e) => [e.type, e.time, e.sessionKey, e.message]), events, "the same event log");
      assert.is(events.length, oracle.incidents.error + oracle.incidents.warning, "the incidents once each");
      const turn = c.newTurn();
      fs.appendFileSync(turn.file, turn.tail);
      await pm.collect();
      const after = c.expected();
      assert.is(after.bySession.get(turn.key)?.prompts, (oracle.bySession.get(turn.key)?.prompts ?? 0) + 1, "one turn appended");
      checkAll(pm, after, "after the append");
      pm = await restart();
      checkAll(pm, after, "third daemon");
    });
  });

  test(`${name} core: a response copied into another transcript counts once, in a later pass and when both are there from the start (or the provider's responses carry no id)`, async () => {
    const c = fixture();
    const copy = c.copyResponse;
    if (!copy) {
      // Nothing to de-duplicate by: every response is one of its own (OpenClaw writes one line per reply).
      const responses = allEvents(c).filter((e) => e.kind === "response");
      assert.ok(responses.length > 0);
      assert.equal(responses.filter((e) => e.key !== null), [], "a provider with no copy to make gives no response key");
      return;
    }
    const before = c.expected();
    await withCore(c, async (pm) => {
      checkAll(pm, before, "before the copy");
      const later = copy("last");
      fs.writeFileSync(later.file, later.text);
      await pm.collect();
      const after = c.expected();
      assert.is(after.files, before.files + 1);
      assert.is(after.bySession.get(later.key)?.responses, 0, "the oracle leaves the copy nothing: the original counted it first");
      sameFigures(after.total, before.total, "the same figures in total");
      for (const [key, want] of before.bySession) sameFigures(must(after.bySession.get(key), key), want, `${key} keeps its figures`);
      checkAll(pm, after, "with the copy");
    });

    // Both there from the start, the copy listed first: it owns the response, the total is the same.
    const fresh = fixture();
    const early = (fresh.copyResponse as NonNullable<FixtureCopy["copyResponse"]>)("first");
    fs.writeFileSync(early.file, early.text);
    const both = fresh.expected();
    const moved = must(both.bySession.get(early.key), early.key).responses;
    assert.ok(moved > 0, "the oracle gives the response to the copy, listed first");
    assert.is(must(both.bySession.get(early.original), early.original).responses, must(before.bySession.get(early.original), early.original).responses - moved, "and takes it from the original");
    sameFigures(both.total, before.total, "the same figures in total");
    await withCore(fresh, async (pm) => checkAll(pm, both, "both from the start"));
  });

  test(`${name} core: a transcript cut back in place and others replaced by new inodes are read again exactly once`, async () => {
    const c = fixture();
    await withCore(c, async (first, restart) => {
      let pm = first;
      checkAll(pm, c.expected(), "before");
      const cut = c.truncate();
      const inode = fs.statSync(cut.file).ino;
      fs.truncateSync(cut.file, cut.bytes);
      assert.is(fs.statSync(cut.file).ino, inode, "the same file");
      const replaced = c.replaced();
      assert.ok(replaced.length > 0);
      for (const f of replaced) replaceFile(f);
      await pm.collect();
      const now = c.expected();
      checkAll(pm, now, "after truncate and replace");
      await pm.collect();
      checkAll(pm, now, "a pass later");
      pm = await restart();
      checkAll(pm, now, "after a restart");
    });
  });

  test(`${name} core: a deleted transcript keeps its session's figures and status; lifetime totals stay while the file no longer counts`, async () => {
    const c = fixture();
    const before = c.expected();
    const removed = c.removable();
    assert.ok(removed.length > 0);
    await withCore(c, async (first, restart) => {
      let pm = first;
      checkAll(pm, before, "before");
      const statuses = removed.map((r) => pm.model.session(pm.sourceId, r.key)?.status);
      for (const r of removed) fs.rmSync(r.file);
      await pm.collect();
      const check = (what: string): void => {
        const listed = sessionsByKey(pm);
        for (const r of removed) checkSession(listed.get(r.key), must(before.bySession.get(r.key), r.key), `${what}: deleted ${r.key}`);
        assert.equal(removed.map((r) => listed.get(r.key)?.status), statuses, `${what}: statuses`);
        checkLifetime(pm, before.total, before.files - removed.length, what);
        assert.equal(pm.model.eventCounts(pm.sourceId), { ...before.incidents, restart: 0 }, `${what}: event counts`);
      };
      check("after deleting");
      pm = await restart();
      check("after a restart");
    });
  });

  test(`${name} core: sessions name a working directory exactly when the provider declares projects`, async () => {
    const c = fixture();
    await withCore(c, async (pm) => {
      const projects = [...sessionsByKey(pm).values()].map((s) => s.project);
      assert.ok(projects.length > 0);
      if (hasCapability(name, "projects")) assert.ok(projects.every((p) => typeof p === "string" && p.length > 0), JSON.stringify(projects));
      else assert.equal(projects.filter((p) => p !== null), [], "no project from a provider that declares none");
    });
  });

  test(`${name}: a running session shows the way the provider shows it, and only while it runs`, () => {
    const live = fixture().live();
    assert.not.ok(live.running().includes(live.key), "not running before");
    live.show();
    assert.equal(live.running(), [live.key]);
  });
}

test.run();
