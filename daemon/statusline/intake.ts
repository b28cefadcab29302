// Claude Code's plan windows, as `insightsctl statusline` hands them over (control call
// `statusline.report`) or left them in the spool while no daemon ran. Each report is hostile
// input from any process of the user: checked field by field (shared/statusline/report.ts), tied
// to a Claude Code install this daemon reads (its config dir), checked for impossible figures
// like Codex's readings, and stored with its time in rate_limit_samples (one row per change and
// limit: the plan's 5-hour and weekly windows are limit `claude`, each per-model weekly window a
// limit of its own, `claude:seven_day_opus`).
// What it cannot tell from a reading (no status line set up, an API-key login) it says in the
// rate-limit check instead of leaving the gauge blank without a reason.
import { realpathSync } from "node:fs";
import type { Clock } from "../../shared/base/clock.js";
import { InsightsError, errorMessage } from "../../shared/base/errors.js";
import { msg, type Message } from "../../shared/i18n/message.js";
import { RateLimitWriter } from "../../shared/ingest/rate-limit-writer.js";
import type { Logger } from "../../shared/base/log/logger.js";
import type { ReadModel } from "../../shared/queries/read-model.js";
import { subLimitField, subLimitId, type RateLimitSnapshot } from "../../shared/providers/contract.js";
import { hasCapability, providerIdentity } from "../../shared/providers/registry.js";
import { readReport, type StatusReport } from "../../shared/statusline/report.js";
import { takeSpool } from "../../shared/statusline/spool.js";
import type { Store } from "../../shared/store/store.js";
import { statusLineSet } from "./settings-probe.js";

/** Claude Code's windows: 5 hours and 7 days (its docs name them five_hour and seven_day). */
export const FIVE_HOUR_MINUTES = 300;
export const SEVEN_DAY_MINUTES = 7 * 24 * 60;
/** The limit id the samples carry (Codex's say `codex`). */
export const CLAUDE_LIMIT_ID = "claude";

export interface IntakeOptions {
  store: Store;
  /** The installs read here (their config dirs) and their cost. */
  model: Pick<ReadModel, "agents" | "usageCost">;
  clock: Clock;
  logger: Logger;
  /** Counts a refused reading on its source, as a scan's bad input is counted (AgentSource.countWarnings). */
  countWarning: (source: string, warning: { code: string; message: string; where: string }) => void;
  /** A reading was stored: the live views and the alert rules look again. */
  changed: (source: string) => void;
}

const META_PREFIX = "statusline.last:";

/** What the last report of an install said about its windows, for the rate-limit check's reason. */
interface LastSeen {
  at: number;
  windows: boolean;
  responded: boolean;
}

export function snapshotOf(r: StatusReport): RateLimitSnapshot | null {
  const rl = r.rateLimits;
  if (!rl || (!rl.fiveHour && !rl.sevenDay)) return null;
  return {
    limitId: CLAUDE_LIMIT_ID,
    primary: rl.fiveHour ? { usedPercent: rl.fiveHour.usedPercent, windowMinutes: FIVE_HOUR_MINUTES, resetsAt: rl.fiveHour.resetsAt } : null,
    secondary: rl.sevenDay ? { usedPercent: rl.sevenDay.usedPercent, windowMinutes: SEVEN_DAY_MINUTES, resetsAt: rl.sevenDay.resetsAt } : null,
    planType: null,
    credits: null,
  };
}

/**
 * Each per-model weekly window (`seven_day_opus`) as a limit of its own, `claude:seven_day_opus`:
 * a weekly window, so the `secondary` one, with no 5-hour figure. Checked and stored apart from the
 * plan's windows, so an impossible one is refused alone.
 */
export function perModelSnapshotsOf(r: StatusReport): RateLimitSnapshot[] {
  return Object.entries(r.rateLimits?.perModel ?? {}).map(([word, w]) => ({
    limitId: subLimitId(CLAUDE_LIMIT_ID, `seven_day_${word}`),
    primary: null,
    secondary: { usedPercent: w.usedPercent, windowMinutes: SEVEN_DAY_MINUTES, resetsAt: w.resetsAt },
    planType: null,
    credits: null,
  }));
}

const real = (dir: string): string => {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
};

export class StatuslineIntake {
  private readonly writer: RateLimitWriter;
  private readonly last = new Map<string, LastSeen>();
  /** Readings refused since start (impossible figures, no install to keep them under). */
  refused = 0;

  constructor(private readonly o: IntakeOptions) {
    this.writer = new RateLimitWriter(o.store.db);
  }

  /** The Claude Code install (source id) whose config dir is `dir`; NOT_FOUND when none read here is. */
  private sourceOf(dir: string | null): string {
    // The installs whose figures come from a status line (Claude Code's).
    const installs = this.o.model.agents().filter((a) => hasCapability(a.provider, "rateLimits") && providerIdentity(a.provider).rateLimitsFrom === "statusLine");
    if (dir !== null) {
      const want = real(dir);
      const hit = installs.find((a) => a.dir === dir || real(a.dir) === want);
      if (hit) return hit.id;
    }
    throw new InsightsError("NOT_FOUND", `no Claude Code install read here has the config dir ${dir ?? "(none given)"}`);
  }

  /**
   * Stores one report; the source it went to. Throws INVALID_PARAM / NOT_FOUND for one it refuses.
   * The plan's windows and each per-model window are limits of their own: an impossible one is
   * refused (counted as bad input on the install) and the others are kept. The call fails only
   * when the plan's windows are refused, as for a reading without per-model windows.
   */
  take(report: StatusReport): string {
    const source = this.sourceOf(report.configDir);
    const now = this.o.clock.now();
    const plan = snapshotOf(report);
    const perModel = perModelSnapshotsOf(report);
    this.remember(source, { at: report.at, windows: plan !== null || perModel.length > 0, responded: report.responded });
    const snaps = [...(plan ? [plan] : []), ...perModel];
    if (!snaps.length) return source;
    const results = this.o.store.transaction(() => snaps.map((snap) => ({ snap, ...this.writer.record(source, report.at, snap, now) })));
    let planRefused: string | null = null;
    for (const { snap, refused } of results) {
      if (refused === null) continue;
      // The per-model window is named: "seven_day_opus used 150 % ..." rather than "secondary ...".
      const why = snap === plan ? refused : `${subLimitField(snap.limitId)}: ${refused}`;
      this.refused++;
      this.o.countWarning(source, { code: "BAD_FIELD", message: `impossible rate-limit reading refused: ${why}`, where: "statusline" });
      if (snap === plan) planRefused = why;
      else this.o.logger.warn("an impossible per-model rate-limit window was refused; the rest of the reading was kept", { source, why });
    }
    if (results.some((r) => r.stored)) this.o.changed(source);
    if (planRefused !== null) throw new InsightsError("INVALID_PARAM", `impossible rate-limit reading refused: ${planRefused}`);
    return source;
  }

  /** The control call: checks the params, stores the reading, answers today's cost over every provider. */
  report(params: Record<string, unknown>): { source: string; todayUsd: number | null } {
    let report: StatusReport;
    try {
      report = readReport(params);
    } catch (err) {
      throw new InsightsError("INVALID_PARAM", `statusline.report: ${errorMessage(err)}`);
    }
    const source = this.take(report);
    return { source, todayUsd: this.todayUsd() };
  }

  /** Today's cost over every source read (in the daemon's zone); null when it cannot be had. */
  todayUsd(): number | null {
    try {
      let sum = 0;
      for (const a of this.o.model.agents()) sum += this.o.model.usageCost(a.id).todayUsd;
      return Math.round(sum * 1e6) / 1e6;
    } catch {
      return null;
    }
  }

  /**
   * Takes in what the status line left while no daemon ran. Reports wait for the installs they
   * belong to (discovery runs at start) until `settled()` says every first scan is done.
   */
  async takeSpool(file: string, settled: () => boolean, pollMs = 200, maxMs = 60_000): Promise<void> {
    let taken;
    try {
      taken = takeSpool(file);
    } catch (err) {
      this.o.logger.warn("the status-line spool could not be read; left as it is", { file, error: errorMessage(err) });
      return;
    }
    if (taken.bad) this.o.logger.warn("status-line spool lines that were not a reading were dropped", { count: taken.bad });
    let pending = taken.reports;
    const started = this.o.clock.now();
    let stored = 0;
    for (;;) {
      const later: StatusReport[] = [];
      for (const r of pending) {
        try {
          this.take(r);
          stored++;
        } catch (err) {
          if (err instanceof InsightsError && err.code === "NOT_FOUND") later.push(r);
          // An impossible reading was counted and logged by take().
        }
      }
      pending = later;
      if (!pending.length || (settled() && this.o.model.agents().length > 0) || this.o.clock.now() - started > maxMs) break;
      await new Promise((r) => setTimeout(r, pollMs).unref());
    }
    if (pending.length) {
      this.refused += pending.length;
      this.o.logger.warn("status-line readings for a Claude Code install not read here were dropped", { count: pending.length, dirs: [...new Set(pending.map((r) => r.configDir))].slice(0, 3) });
    }
    if (taken.reports.length) this.o.logger.info("took in the status-line spool", { readings: taken.reports.length, kept: stored });
  }

  /** What an install's last report said, kept in the store's meta table so a restart still knows. */
  private lastOf(source: string): LastSeen | undefined {
    if (!this.last.has(source)) {
      try {
        const v = JSON.parse(this.o.store.getMeta(META_PREFIX + source) ?? "null") as LastSeen | null;
        if (v && typeof v.at === "number" && typeof v.windows === "boolean" && typeof v.responded === "boolean") this.last.set(source, v);
      } catch {
        // Not ours to trust: as if never seen.
      }
    }
    return this.last.get(source);
  }

  private remember(source: string, seen: LastSeen): void {
    const prev = this.lastOf(source);
    if (prev && prev.at > seen.at) return;
    this.last.set(source, seen);
    // Written only when what it says changes: not once per message.
    if (!prev || prev.windows !== seen.windows || prev.responded !== seen.responded) this.o.store.setMeta(META_PREFIX + source, JSON.stringify(seen));
  }

  /** Why these installs have no windows, for the rate-limit check (null: no reason known). */
  missing(sourceIds: readonly string[]): Message | null {
    const seen = sourceIds.map((id) => this.lastOf(id)).filter((x): x is LastSeen => x !== undefined);
    if (seen.some((s) => !s.windows && s.responded)) return msg("health.rateLimit.apiKey");
    const dirs = this.o.model.agents().filter((a) => sourceIds.includes(a.id)).map((a) => a.dir);
    if (seen.length === 0 && dirs.length > 0 && !dirs.some(statusLineSet)) return msg("health.rateLimit.noStatusLine");
    return msg("health.rateLimit.waiting");
  }
}
