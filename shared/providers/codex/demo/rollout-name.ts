// Codex names a rollout by its local start time (sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl):
// the demo writer names new rollouts so, and the demo engine renames the recorded ones to match.
const pad = (n: number, w = 2): string => String(n).padStart(w, "0");

/** `sessions/YYYY/MM/DD/rollout-YYYY-MM-DDThh-mm-ss-` for epoch ms `ms` in this process's local time. */
export function localRolloutPrefix(ms: number): { dir: string[]; name: string } {
  const d = new Date(ms);
  const [y, mo, da] = [d.getFullYear(), d.getMonth() + 1, d.getDate()];
  return { dir: [pad(y, 4), pad(mo), pad(da)], name: `rollout-${pad(y, 4)}-${pad(mo)}-${pad(da)}T${pad(d.getHours())}-${pad(d.getMinutes())}-${pad(d.getSeconds())}-` };
}
