import { appendFileSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { makeTempDir, removeTempDirs } from "../../test/helpers/openclaw-fixtures.js";
import { InsightsError } from "../base/errors.js";
import { readCron } from "../providers/openclaw/gateway/cron.js";
import { copyDir, recordedManifest } from "../../test/helpers/demo-bundle.js";
import { installDemoState, MARKER_FILE, readMarker, STALE_AFTER_MS, touchDemoState } from "./install.js";

test.after(removeTempDirs);

const NOW = Date.parse("2027-03-01T12:00:00.000Z");
const DAY = 86_400_000;

function agentDb(dir: string): Database.Database {
  return new Database(join(dir, "agents", "main", "agent", "openclaw-agent.sqlite"), { readonly: true });
}

test("a new copy is moved to now: transcripts, cron state, the log and the lock all read as the last day", () => {
  const target = join(makeTempDir(), "demo", "openclaw-state");
  const r = installDemoState(target, { now: NOW });
  assert.is(r.fresh, true);
  const m = recordedManifest();
  assert.is(r.marker.offsetMs, NOW - m.openclaw.recordedUntil);

  const db = agentDb(target);
  try {
    const span = db.prepare("SELECT min(created_at) AS lo, max(created_at) AS hi FROM transcript_events").get() as { lo: number; hi: number };
    assert.ok(span.lo > NOW - DAY && span.hi <= NOW, `transcripts between ${new Date(span.lo).toISOString()} and ${new Date(span.hi).toISOString()}`);
    for (const row of db.prepare("SELECT event_json FROM transcript_events").all() as { event_json: string }[]) {
      const ts = Date.parse((JSON.parse(row.event_json) as { timestamp: string }).timestamp);
      assert.ok(ts > NOW - DAY && ts <= NOW, `event time ${new Date(ts).toISOString()}`);
    }
  } finally {
    db.close();
  }
  const state = new Database(join(target, "state", "openclaw.sqlite"), { readonly: true });
  try {
    const cron = state.prepare("SELECT state_json FROM cron_jobs WHERE name = 'Demo ticket triage'").get() as { state_json: string };
    const s = JSON.parse(cron.state_json) as { lastRunAtMs: number; nextRunAtMs: number };
    assert.ok(s.lastRunAtMs > NOW - DAY && s.lastRunAtMs <= NOW);
    assert.ok(s.nextRunAtMs > s.lastRunAtMs && s.nextRunAtMs < NOW + DAY);
  } finally {
    state.close();
  }
  const lines = readFileSync(join(target, "logs", "gateway.log"), "utf8").trim().split("\n");
  for (const l of [lines[0] as string, lines[lines.length - 1] as string]) {
    const t = Date.parse((JSON.parse(l) as { time: string }).time);
    assert.ok(t > NOW - DAY && t <= NOW, `log time ${new Date(t).toISOString()}`);
  }
  const lockDir = join(target, "tmp", readdirSync(join(target, "tmp"))[0] as string);
  const lock = JSON.parse(readFileSync(join(lockDir, readdirSync(lockDir)[0] as string), "utf8")) as { createdAt: string };
  assert.is(Date.parse(lock.createdAt), m.openclaw.gatewayStartedAt + r.marker.offsetMs);
});

test("a copy still in use is kept as it is; a stale one or another version's is replaced", () => {
  const target = join(makeTempDir(), "openclaw-state");
  installDemoState(target, { now: NOW });
  const log = join(target, "logs", "gateway.log");
  appendFileSync(log, "written by a replay\n");
  touchDemoState(target, NOW + 10 * 60_000);

  const kept = installDemoState(target, { now: NOW + 10 * 60_000 + STALE_AFTER_MS - 1 });
  assert.is(kept.fresh, false);
  assert.ok(readFileSync(log, "utf8").includes("written by a replay"), "what the replay wrote is still there");

  const stale = installDemoState(target, { now: NOW + 10 * 60_000 + STALE_AFTER_MS + 1 });
  assert.is(stale.fresh, true);
  assert.not.ok(readFileSync(log, "utf8").includes("written by a replay"));

  const marker = readMarker(target);
  writeFileSync(join(target, MARKER_FILE), JSON.stringify({ ...marker, version: "0.0.1" }));
  assert.is(installDemoState(target, { now: NOW + 2 * STALE_AFTER_MS }).fresh, true, "another version's copy is replaced");
  writeFileSync(join(target, MARKER_FILE), "0.1.0\n");
  assert.is(installDemoState(target, { now: NOW + 2 * STALE_AFTER_MS }).fresh, true, "the old marker (a bare version) is replaced");
  assert.is(installDemoState(target, { now: NOW - DAY }).fresh, true, "a clock that went back past the copy");
});

test("the Claude Code and Codex copies are installed beside the OpenClaw copy, kept with it, and put back when one is missing", () => {
  const demoDir = join(makeTempDir(), "demo");
  const target = join(demoDir, "openclaw-state");
  const r = installDemoState(target, { now: NOW });
  assert.is(copyDir(r, "claude-code"), join(demoDir, "claude-code-home"));
  assert.is(copyDir(r, "codex"), join(demoDir, "codex-home"));
  const projects = join(demoDir, "claude-code-home", ".claude", "projects");
  const project = join(projects, readdirSync(projects)[0] as string);
  const transcript = join(project, readdirSync(project).find((n) => n.endsWith(".jsonl")) as string);
  assert.ok(existsSync(join(demoDir, "codex-home", ".codex", "sessions")));
  assert.is(statSync(transcript).mode & 0o777, 0o600, "the copy is private");
  assert.is(statSync(project).mode & 0o777, 0o700);

  appendFileSync(transcript, '{"type":"mode","mode":"normal","sessionId":"written-by-a-replay"}\n');
  touchDemoState(target, NOW + 60_000);
  const kept = installDemoState(target, { now: NOW + 120_000 });
  assert.is(kept.fresh, false);
  assert.ok(readFileSync(transcript, "utf8").includes("written-by-a-replay"), "the kept copy keeps what the replay wrote");

  rmSync(join(demoDir, "codex-home"), { recursive: true });
  const again = installDemoState(target, { now: NOW + 180_000 });
  assert.is(again.fresh, true, "a copy missing a provider is replaced whole");
  assert.ok(existsSync(join(demoDir, "codex-home", ".codex", "sessions")));
  assert.not.ok(readFileSync(transcript, "utf8").includes("written-by-a-replay"));
});

test("a bundle with no recording of a registered provider, or an entry without its window, is refused with SOURCE_CORRUPT", () => {
  const cases: Array<[string, unknown]> = [
    ["no entry", { "not-a-provider": { recordedFrom: 1, recordedUntil: 2 } }],
    ["no window", { ...recordedManifest(), openclaw: { dir: "openclaw-state" } }],
    ["not an object", { ...recordedManifest(), codex: "codex-home" }],
  ];
  for (const [what, manifest] of cases) {
    const root = makeTempDir();
    writeFileSync(join(root, "demo-state.json"), JSON.stringify(manifest));
    const target = join(makeTempDir(), "demo", "openclaw-state");
    try {
      installDemoState(target, { now: NOW, root });
      assert.unreachable(`${what}: installed`);
    } catch (err) {
      assert.instance(err, InsightsError, what);
      assert.is((err as InsightsError).code, "SOURCE_CORRUPT", what);
    }
    assert.not.ok(existsSync(target), `${what}: nothing installed`);
  }
});

test("a cron-expression job's next run follows its expression in its zone, not the shifted recording: 0 3 * * * runs at 03:00", () => {
  const target = join(makeTempDir(), "demo", "openclaw-state");
  // An offset with minutes in it, as any real start has (the recording ends at some odd time).
  const now = NOW + 17 * 60_000 + 31_000;
  installDemoState(target, { now });
  const state = new Database(join(target, "state", "openclaw.sqlite"), { readonly: true });
  const expressions = (state.prepare("SELECT job_json FROM cron_jobs").all() as { job_json: string }[])
    .map((r) => JSON.parse(r.job_json) as { id: string; schedule: { kind: string; expr?: string; tz?: string } })
    .filter((j) => j.schedule.kind === "cron");
  state.close();
  assert.equal(expressions.map((j) => [j.schedule.expr, j.schedule.tz]), [["0 3 * * *", undefined]], "the demo's one expression job, in the host's zone");
  const id = (expressions[0] as { id: string }).id;
  for (const zone of ["UTC", "Asia/Shanghai", "America/New_York"]) {
    const read = readCron(target, { nowMs: now, hostTimeZone: zone });
    assert.ok(read.ok);
    const next = read.value.jobs.find((j) => j.id === id)?.nextRunAt as number;
    const wall = new Intl.DateTimeFormat("en-GB", { timeZone: zone, hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" }).format(next);
    assert.is(wall, "03:00:00", `next run in ${zone}: ${new Date(next).toISOString()}`);
    assert.ok(next > now && next <= now + DAY, `the next one, within a day: ${new Date(next).toISOString()}`);
  }
});

test.run();
