// The demo's cron-expression jobs after the time shift. The shift moves every stamp of the
// recording by one arbitrary offset (minutes and seconds included), which keeps run history and
// interval grids true but turns a stored next run of `0 3 * * *` into some other time of day
// (it read 17:48). A next run of an expression is not a recorded moment: it follows from the
// expression, in the job's zone (its tz, else the gateway host's). The stored value is dropped,
// so the monitor computes it from the expression by its one rule (cron-schedule.ts), in the zone
// it uses for the host, exactly as for a real gateway whose stored value is in the past.
import { join } from "node:path";
import Database from "better-sqlite3";

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

function parse(text: string): Json | null {
  try {
    const v: unknown = JSON.parse(text);
    return isObject(v) ? v : null;
  } catch {
    return null;
  }
}

/** Drops the stored next run of every cron-expression job of a shifted demo state dir; returns how many. */
export function unshiftCronExpressionRuns(stateDir: string): number {
  const db = new Database(join(stateDir, "state", "openclaw.sqlite"));
  try {
    const rows = db.prepare("SELECT store_key, job_id, job_json, state_json FROM cron_jobs").all() as { store_key: string; job_id: string; job_json: string; state_json: string }[];
    const update = db.prepare("UPDATE cron_jobs SET state_json = ? WHERE store_key = ? AND job_id = ?");
    let changed = 0;
    db.transaction(() => {
      for (const r of rows) {
        const job = parse(r.job_json);
        const state = parse(r.state_json);
        if (!isObject(job?.schedule) || job.schedule.kind !== "cron" || state === null || !("nextRunAtMs" in state)) continue;
        delete state.nextRunAtMs;
        update.run(JSON.stringify(state), r.store_key, r.job_id);
        changed++;
      }
    })();
    return changed;
  } finally {
    db.close();
  }
}
