// Moving a Claude Code or Codex state in time: bare dates, Codex's unix seconds and its rollout
// names (local time of the process that writes them). Runs in a zone behind UTC, so the local
// date of a time can differ from its UTC date.
process.env.TZ = "America/Los_Angeles";

import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { makeTempDir, removeTempDirs } from "../../../test/helpers/openclaw-fixtures.js";
import { renameRolloutsToLocal } from "../codex/demo/rollout-name.js";
import { shiftDates, shiftSeconds } from "./tree-shift.js";
import { recordingShift, type TimeShift } from "./time-shift.js";

test.after(removeTempDirs);

const FROM = Date.parse("2026-11-23T12:00:00.000Z");
const UNTIL = Date.parse("2026-11-23T21:30:00.000Z");
const DAY = 86_400_000;
const UUID = "01a20a4f-8ada-7c40-a2c4-78459390a270";

test("bare dates of the recording move with it; dates outside its window and date-times stay", () => {
  const s: TimeShift = recordingShift(FROM, UNTIL, UNTIL + 3 * DAY);
  const text = JSON.stringify({
    date: "2026-11-23",
    rendered: "<system-reminder>\nToday's date is 2026-11-23.\n</system-reminder>",
    env: "<current_date>2026-11-23</current_date>",
    beta: "interleaved-thinking-2025-05-14",
    old: "2025-05-14",
    at: "2026-11-23T21:00:00.000Z",
    name: "rollout-2026-11-23T21-28-34",
  });
  const out = JSON.parse(shiftDates(text, s)) as Record<string, string>;
  assert.is(out.date, "2026-11-26");
  assert.is(out.rendered, "<system-reminder>\nToday's date is 2026-11-26.\n</system-reminder>");
  assert.is(out.env, "<current_date>2026-11-26</current_date>");
  assert.is(out.beta, "interleaved-thinking-2025-05-14");
  assert.is(out.old, "2025-05-14");
  assert.is(out.at, "2026-11-23T21:00:00.000Z", "date-times are time-shift.ts's job");
  assert.is(out.name, "rollout-2026-11-23T21-28-34");
});

test("Codex's unix-second fields move by the offset; a fraction is kept; other numbers stay", () => {
  const s: TimeShift = { ...recordingShift(FROM, UNTIL, UNTIL + DAY + 5_000), offsetMs: DAY + 5_000 };
  const started = Math.floor(UNTIL / 1000) - 60;
  const text = `{"started_at":${started},"completed_at":${started + 2},"resets_at":${started + 3 * 3600},"create_time":${started}.0834074,"ts":${started},"process_id":"${started}","tokens":${started},"old":{"started_at":1500000000}}`;
  const out = JSON.parse(shiftSeconds(text, s)) as Record<string, unknown>;
  const d = DAY / 1000 + 5;
  assert.is(out.started_at, started + d);
  assert.is(out.completed_at, started + 2 + d);
  assert.is(out.resets_at, started + 3 * 3600 + d);
  assert.ok(shiftSeconds(text, s).includes(`"create_time":${started + d}.0834074`));
  assert.is(out.ts, started + d);
  assert.is(out.process_id, String(started), "strings are not times");
  assert.is(out.tokens, started, "only the named fields");
  assert.equal(out.old, { started_at: 1500000000 }, "outside the window");
});

test("rollouts named in UTC are renamed and filed in the local time of the shifted moment", () => {
  const home = makeTempDir();
  const day = join(home, "sessions", "2026", "11", "23");
  mkdirSync(day, { recursive: true });
  writeFileSync(join(day, `rollout-2026-11-23T21-28-34-${UUID}.jsonl`), "{}\n");
  writeFileSync(join(day, "notes.txt"), "not a rollout\n");
  // 2026-11-24T21:28:34Z is 13:28:34 in Los Angeles (PST, UTC-8).
  renameRolloutsToLocal(home, { ...recordingShift(FROM, UNTIL, UNTIL + DAY), offsetMs: DAY });
  assert.ok(existsSync(join(home, "sessions", "2026", "11", "24", `rollout-2026-11-24T13-28-34-${UUID}.jsonl`)), JSON.stringify(readdirSync(join(home, "sessions", "2026", "11"))));
  assert.not.ok(existsSync(join(day, `rollout-2026-11-23T21-28-34-${UUID}.jsonl`)));
  assert.ok(existsSync(join(day, "notes.txt")), "other files stay, and so does their folder");

  // Late in the UTC day the local date is the day before.
  const late = makeTempDir();
  const lateDay = join(late, "sessions", "2026", "11", "23");
  mkdirSync(lateDay, { recursive: true });
  writeFileSync(join(lateDay, `rollout-2026-11-23T03-10-00-${UUID}.jsonl`), "{}\n");
  renameRolloutsToLocal(late, { fromMs: FROM - DAY, untilMs: UNTIL + DAY, offsetMs: 0 });
  assert.ok(existsSync(join(late, "sessions", "2026", "11", "22", `rollout-2026-11-22T19-10-00-${UUID}.jsonl`)));
  assert.not.ok(existsSync(lateDay), "an emptied date folder goes");
});

test.run();
