// Issue 18 item 7: a transcript that stats as a regular file but cannot be read (a link to
// /proc/self/mem: EIO) must not keep its source INITIALIZING. After a few failed reads it is
// skipped, the first scan completes, health names it, the warning is not repeated every pass, and
// it is read again once it changes.
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { manualClock } from "../base/clock.js";
import { LogHub } from "../base/log/logger.js";
import { Pricer } from "../pricing/pricer.js";
import { sourcesCheck } from "../queries/system.js";
import { ClaudeCodeProvider } from "../providers/claude-code/provider.js";
import type { Install } from "../providers/contract.js";
import { copyClaudeHome, transcriptFiles } from "../../test/helpers/claude-code-fixture.js";
import { makeTempDir, removeTempDirs } from "../../test/helpers/openclaw-fixtures.js";
import { Store } from "../store/store.js";
import { AgentSource } from "./agent-source.js";
import { SKIP_AFTER_FAILURES } from "./unreadable-files.js";

test.after(removeTempDirs);

const POLL_MS = 2000;

function setup() {
  const { home, claudeDir } = copyClaudeHome();
  const clock = manualClock(Date.parse("2026-11-25T00:00:00Z"));
  const store = Store.open(path.join(makeTempDir("gi-unreadable-"), "insights.db"), { clock });
  const hub = new LogHub({ console: "off" });
  const provider = new ClaudeCodeProvider({ env: {}, home, dirs: null, pricer: new Pricer() });
  const install = provider.discover().installs[0] as Install;
  const source = new AgentSource(install, { provider, store, clock, logger: hub.logger });
  return { claudeDir, clock, store, hub, source };
}

const countRows = (store: Store, sourceId: string): number => (store.db.prepare("SELECT count(*) AS n FROM transcript_totals WHERE source_id = ?").get(sourceId) as { n: number }).n;

test("a transcript that cannot be read (a link to /proc/self/mem) is skipped after a few tries; the first scan completes and health names it", async () => {
  if (!fs.existsSync("/proc/self/mem")) return; // Linux only
  const { claudeDir, clock, store, hub, source } = setup();
  const files = transcriptFiles(claudeDir);
  assert.ok(files.length >= 2, "the fixture has several transcripts");
  const bad = path.join(claudeDir, files[0] as string);
  const saved = fs.readFileSync(bad);
  fs.rmSync(bad);
  fs.symlinkSync("/proc/self/mem", bad);
  assert.ok(fs.statSync(bad).isFile(), "it stats as a regular file");

  const warned: string[] = [];
  hub.subscribe((r) => {
    if (r.level === "warn" && JSON.stringify(r).includes(bad)) warned.push(r.msg);
  });

  // Polls as the daemon makes them, 2 s apart; far more than the tries allowed.
  for (let i = 0; i < 30 && !source.snapshot().firstPassDone; i++) {
    await source.refresh();
    clock.advance(POLL_MS);
  }
  const snap = source.snapshot();
  assert.ok(snap.firstPassDone, "the first scan completed despite the unreadable file");
  assert.is(snap.state.status, "CONNECTED");
  assert.equal(
    (snap.skippedFiles ?? []).map((f) => f.path),
    [bad],
  );
  // Every other transcript was read.
  assert.is(countRows(store, snap.id), files.length - 1);
  const check = sourcesCheck([snap], null, "installs");
  assert.is(check.status, "WARN");
  assert.ok(check.message?.includes(bad), `health names the file: ${check.message}`);

  // Many more polls: no new read attempt, no new warning.
  const before = warned.length;
  assert.ok(before >= 1 && before <= SKIP_AFTER_FAILURES, `a warning per try at most until skipped: ${warned.join(" | ")}`);
  for (let i = 0; i < 30; i++) {
    await source.refresh();
    clock.advance(POLL_MS);
  }
  assert.is(warned.length, before, "no warning every poll once skipped");

  // Its stat changes (the real file is back): it is read again and no longer skipped.
  fs.rmSync(bad);
  fs.writeFileSync(bad, saved);
  await source.refresh();
  assert.equal(source.snapshot().skippedFiles ?? [], []);
  assert.is(countRows(store, snap.id), files.length);
  assert.is(sourcesCheck([source.snapshot()], null, "installs").status, "PASS");
  store.close();
});

test.run();
