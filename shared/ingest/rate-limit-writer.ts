// Where every rate-limit reading is stored, whoever brought it (a Codex rollout line through the
// transcript scanner, a Claude Code status line through the daemon's `statusline.report`): checked
// by rate-limit-check.ts first (an impossible one is refused, never stored), then kept as one row
// per change in rate_limit_samples.
import type Database from "better-sqlite3";
import type { RateLimitSnapshot } from "../providers/contract.js";
import { impossibleRateLimit } from "./rate-limit-check.js";

export class RateLimitWriter {
  private readonly at;
  private readonly insert;

  constructor(db: Database.Database) {
    // The sample of the same limit in force at a time: the latest at or before it (rollouts are read
    // in file order, not time order). Per limit, because a status line's reading stores its plan's
    // windows and each per-model window as rows of their own, interleaved.
    this.at = db
      .prepare<[string, string | null, number], unknown[]>(
        `SELECT limit_id, primary_used, primary_window_minutes, primary_resets_at, secondary_used, secondary_window_minutes,
           secondary_resets_at, plan_type, credits_json FROM rate_limit_samples WHERE source_id = ? AND limit_id IS ? AND ts <= ? ORDER BY ts DESC, rowid DESC LIMIT 1`,
      )
      .raw();
    this.insert = db.prepare(
      `INSERT INTO rate_limit_samples (ts, source_id, limit_id, primary_used, primary_window_minutes, primary_resets_at, secondary_used,
         secondary_window_minutes, secondary_resets_at, plan_type, credits_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
  }

  /**
   * Stores the reading taken at `ts` unless it is impossible (the reason is returned: the caller
   * counts and logs it) or the same as the one in force then. `stored` says whether a row was added.
   */
  record(source: string, ts: number, snap: RateLimitSnapshot, now: number): { refused: string | null; stored: boolean } {
    const impossible = impossibleRateLimit(snap, ts, now);
    if (impossible !== null) return { refused: impossible, stored: false };
    const values = [
      snap.limitId,
      snap.primary?.usedPercent ?? null,
      snap.primary?.windowMinutes ?? null,
      snap.primary?.resetsAt ?? null,
      snap.secondary?.usedPercent ?? null,
      snap.secondary?.windowMinutes ?? null,
      snap.secondary?.resetsAt ?? null,
      snap.planType,
      snap.credits ? JSON.stringify(snap.credits) : null,
    ] as const;
    // One row per change: every response repeats the same figures until the quota moves. Compared
    // with the figures in force at the reading's own time, so a rollout read again (replaced, or
    // truncated and rewritten) or read after a newer one adds no copy of what is already there.
    const before = this.at.get(source, snap.limitId, ts);
    if (before && values.every((v, i) => v === before[i])) return { refused: null, stored: false };
    this.insert.run(ts, source, ...values);
    return { refused: null, stored: true };
  }
}
