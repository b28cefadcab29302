// Codex names a rollout by its local start time (sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl):
// the demo writer names new rollouts so, and the demo's install renames the recorded ones (named
// in UTC in the bundle) into this machine's local time, as Codex would have named them here
// (codex-format.md §3).
import { mkdirSync, readdirSync, renameSync, rmdirSync } from "node:fs";
import { join } from "node:path";
import { inWindow, type TimeShift } from "../../demo-kit/time-shift.js";

const pad = (n: number, w = 2): string => String(n).padStart(w, "0");

/** `sessions/YYYY/MM/DD/rollout-YYYY-MM-DDThh-mm-ss-` for epoch ms `ms` in this process's local time. */
export function localRolloutPrefix(ms: number): { dir: string[]; name: string } {
  const d = new Date(ms);
  const [y, mo, da] = [d.getFullYear(), d.getMonth() + 1, d.getDate()];
  return { dir: [pad(y, 4), pad(mo), pad(da)], name: `rollout-${pad(y, 4)}-${pad(mo)}-${pad(da)}T${pad(d.getHours())}-${pad(d.getMinutes())}-${pad(d.getSeconds())}-` };
}

const ROLLOUT = /^rollout-(\d{4})-(\d{2})-(\d{2})T(\d{2})-(\d{2})-(\d{2})-(.+\.jsonl)$/;

/**
 * Renames every rollout under `codexHome/sessions` whose name holds a UTC time of the recording to
 * that time moved by the shift, in local time, in the matching local date folder. Emptied date
 * folders are removed.
 */
export function renameRolloutsToLocal(codexHome: string, s: TimeShift): void {
  const sessions = join(codexHome, "sessions");
  const moves: Array<{ from: string; dir: string[]; name: string }> = [];
  const walk = (rel: string[], depth: number): void => {
    for (const e of readdirSync(join(sessions, ...rel), { withFileTypes: true })) {
      if (depth < 3 && e.isDirectory()) walk([...rel, e.name], depth + 1);
      else if (depth === 3 && e.isFile()) {
        const m = ROLLOUT.exec(e.name);
        if (!m) continue;
        const utc = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
        if (!inWindow(utc, s)) continue;
        const local = localRolloutPrefix(utc + s.offsetMs);
        moves.push({ from: join(sessions, ...rel, e.name), dir: local.dir, name: local.name + (m[7] as string) });
      }
    }
  };
  walk([], 0);
  for (const mv of moves) {
    mkdirSync(join(sessions, ...mv.dir), { recursive: true });
    renameSync(mv.from, join(sessions, ...mv.dir, mv.name));
  }
  removeEmptyDirs(sessions, 0);
}

function removeEmptyDirs(dir: string, depth: number): boolean {
  let empty = true;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory() && depth < 3 && removeEmptyDirs(join(dir, e.name), depth + 1)) continue;
    empty = false;
  }
  if (empty && depth > 0) rmdirSync(dir);
  return empty && depth > 0;
}
