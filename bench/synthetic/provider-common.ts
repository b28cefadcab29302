// What the Claude Code, Codex and Gemini CLI generators share: parameters and the command line,
// the cache dir and manifest, projects, and the plan of sessions (which template starts each one, how many resumed turns it
// gets, when its turns happen).
import * as fs from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { BENCH_TMP, REPO_ROOT } from "../paths.js";
import type { Daily } from "./daily.js";
import { Rng } from "./random.js";

export const FIXTURES = "/work/shared/fixtures";
export const PROVIDERS_TMP = path.join(BENCH_TMP, "providers");

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
/** Sessions are spread over this many days before the dataset's `now`. */
export const SPREAD_DAYS = 60;
export const PROJECTS = 200;

export type ProviderKind = "claude-code" | "codex" | "gemini-cli";

export interface ProviderParams {
  /** Target bytes of JSONL in total (decimal: 2g = 2·10⁹). */
  bytes: number;
  /** Transcript files (Claude Code: sub-agent files included) or rollout files (Codex). */
  files: number;
  seed: number;
}

export interface ProviderManifest {
  version: number;
  kind: ProviderKind;
  params: ProviderParams;
  /** The dataset's "now" (epoch ms): every line is older. Same params + same now = same bytes. */
  now: number;
  builtAt: string;
  buildMs: number;
  /** The dir to point the tool at: CLAUDE_CONFIG_DIR (…/home/.claude) or CODEX_HOME (…/home/.codex). */
  root: string;
  /** Relative to the dataset dir: `home`, the HOME the tools would see. */
  home: string;
  files: number;
  bytes: number;
  sessions: number;
  lines: number;
  /** Provider-specific counts (sub-agents, resumed turns, failed turns, duplicate token_count lines…). */
  counts: Record<string, number>;
  /** The generator's own per-UTC-day totals (the checker recomputes them from the files). */
  expected: Daily;
  /** Codex: the zone of the rollouts' folder and file names. */
  timeZone?: string;
}

export interface ProviderDataset {
  dir: string;
  manifest: ProviderManifest;
  cached: boolean;
}

export function cacheDir(kind: ProviderKind, p: ProviderParams, version: number): string {
  return path.join(PROVIDERS_TMP, `${kind}-f${p.files}-b${p.bytes}-seed${p.seed}-v${version}`);
}

export function readManifest(dir: string, version: number): ProviderManifest | null {
  try {
    const m = JSON.parse(fs.readFileSync(path.join(dir, "manifest.json"), "utf8")) as ProviderManifest;
    return m.version === version ? m : null;
  } catch {
    return null;
  }
}

/** A fresh work dir beside `dir`; leftovers of builds that died are removed. */
export function startBuild(dir: string): string {
  const base = path.basename(dir);
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  for (const name of fs.readdirSync(path.dirname(dir))) if (name.startsWith(`${base}.partial-`)) fs.rmSync(path.join(path.dirname(dir), name), { recursive: true, force: true });
  const work = `${dir}.partial-${process.pid}`;
  fs.mkdirSync(work, { recursive: true });
  return work;
}

/** The manifest goes in last and the rename is atomic: a dir with a manifest is complete. */
export function finishBuild(work: string, dir: string, manifest: ProviderManifest): void {
  fs.writeFileSync(path.join(work, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.renameSync(work, dir);
}

/** How a caller asks for a dataset: `dir` replaces the cache dir (tests). */
export interface EnsureOptions {
  rebuild?: boolean;
  now?: number;
  dir?: string;
  log?: (m: string) => void;
}

/**
 * The dataset cached in `dir`, built first by `build` when missing (or with `rebuild`); the log
 * names it: "building a synthetic <what> in <dir> (<details>)".
 */
export function ensureDataset(dir: string, version: number, opts: EnsureOptions, what: string, details: string, build: (now: number, log: (m: string) => void) => ProviderManifest): ProviderDataset {
  const log = opts.log ?? ((m: string) => process.stderr.write(`${m}\n`));
  const cached = opts.rebuild ? null : readManifest(dir, version);
  if (cached) return { dir, manifest: cached, cached: true };
  log(`building a synthetic ${what} in ${relative(dir)} (${details})`);
  const manifest = build(opts.now ?? defaultNow(), log);
  log(`built in ${(manifest.buildMs / 1000).toFixed(1)} s: ${describeDataset(manifest)}`);
  return { dir, manifest, cached: false };
}

/** A generator's size presets: the full history and --quick's. */
export interface SizePresets {
  full: { bytes: number; files: number };
  quick: { bytes: number; files: number };
}

/**
 * The command line every generator takes (--quick, --bytes, --files, --seed, --now, --rebuild),
 * checked; `extra` adds string options of the generator's own (Codex's --tz).
 */
export function generatorArgs(sizes: SizePresets, extra: Record<string, { type: "string"; default?: string }> = {}): { params: ProviderParams; now: number | undefined; rebuild: boolean; extra: Record<string, string | undefined> } {
  const { values } = parseArgs({
    options: {
      quick: { type: "boolean", default: false },
      bytes: { type: "string" },
      files: { type: "string" },
      seed: { type: "string", default: "1" },
      now: { type: "string" },
      rebuild: { type: "boolean", default: false },
      ...extra,
    },
  });
  // parseArgs types its values from a literal config; with `extra` spread in, they are read by name.
  const v = values as Record<string, string | boolean | undefined>;
  const str = (k: string): string | undefined => (typeof v[k] === "string" ? (v[k] as string) : undefined);
  const size = v.quick === true ? sizes.quick : sizes.full;
  const bytes = str("bytes");
  const params: ProviderParams = { bytes: bytes ? parseSize(bytes) : size.bytes, files: Number(str("files") ?? size.files), seed: Number(str("seed")) };
  if (!Number.isInteger(params.files) || params.files < 1) throw new RangeError("--files must be a positive integer");
  if (!Number.isInteger(params.seed)) throw new RangeError("--seed must be an integer");
  const nowText = str("now");
  const now = nowText ? Date.parse(nowText) : undefined;
  if (now !== undefined && Number.isNaN(now)) throw new RangeError(`--now: not a date: ${nowText}`);
  return { params, now, rebuild: v.rebuild === true, extra: Object.fromEntries(Object.keys(extra).map((k) => [k, str(k)])) };
}

export function describeDataset(m: ProviderManifest): string {
  const counts = Object.entries(m.counts)
    .map(([k, v]) => `${v} ${k}`)
    .join(", ");
  return `${m.kind}: ${m.files} files, ${m.sessions} sessions, ${m.lines} lines, ${(m.bytes / 1e6).toFixed(0)} MB of JSONL (${counts}); now = ${new Date(m.now).toISOString()}`;
}

export function relative(p: string): string {
  return path.relative(REPO_ROOT, p);
}

/** "2g", "50m", "512k" or a plain number (decimal units). */
export function parseSize(text: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*([kmg]?)b?$/i.exec(text.trim());
  if (!m) throw new RangeError(`not a size: ${JSON.stringify(text)} (e.g. 2g, 50m, 500000)`);
  const unit = { "": 1, k: 1e3, m: 1e6, g: 1e9 }[(m[2] ?? "").toLowerCase()] ?? 1;
  return Math.round(Number(m[1]) * unit);
}

/** The default anchor: the current hour (so two builds in the same hour are byte-identical). */
export function defaultNow(): number {
  return Math.floor(Date.now() / HOUR) * HOUR;
}

/** A generator for one session: independent of the others, so the plan order does not matter. */
export function sessionRng(seed: number, salt: number, index: number): Rng {
  return new Rng((Math.imul(seed, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b) ^ Math.imul(salt, 0xc2b2ae35)) >>> 0);
}

export function projectCwd(p: number): string {
  return `/home/op/code/p${String(p + 1).padStart(3, "0")}`;
}

/** Claude Code's project dir name: the cwd with every `/` and `.` replaced by `-`. */
export function slugOf(cwd: string): string {
  return cwd.replace(/[/.]/g, "-");
}

/** Busy projects and quiet ones: project i gets weight 1/(i+1)^0.8. */
export function pickProject(rng: Rng): number {
  const w = PROJECT_CDF;
  const u = rng.next() * (w[w.length - 1] as number);
  let lo = 0;
  let hi = w.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((w[mid] as number) < u) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
const PROJECT_CDF = (() => {
  const out: number[] = [];
  let acc = 0;
  for (let i = 0; i < PROJECTS; i++) out.push((acc += 1 / Math.pow(i + 1, 0.8)));
  return out;
})();

/** Whether a project is a git repository (most are). Fixed per project. */
export function projectIsGit(p: number): boolean {
  return p % 7 !== 3;
}

export function pickWeighted<T extends string>(rng: Rng, weights: Readonly<Record<T, number>>): T {
  const entries = Object.entries(weights) as Array<[T, number]>;
  const total = entries.reduce((a, [, w]) => a + w, 0);
  let u = rng.next() * total;
  for (const [k, w] of entries) {
    u -= w;
    if (u < 0) return k;
  }
  return (entries[entries.length - 1] as [T, number])[0];
}

/**
 * Splits `total` resumed turns over sessions in proportion to `weights` (largest remainder), so
 * a few sessions get many turns and many get few, and the sum is exact.
 */
export function distribute(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (total <= 0 || sum <= 0) return weights.map(() => 0);
  const raw = weights.map((w) => (w / sum) * total);
  const out = raw.map(Math.floor);
  let left = total - out.reduce((a, b) => a + b, 0);
  const order = raw.map((r, i) => [r - Math.floor(r), i] as const).sort((a, b) => b[0] - a[0]);
  for (let j = 0; left > 0; j = (j + 1) % order.length, left--) {
    const i = (order[j] as readonly [number, number])[1];
    out[i] = (out[i] as number) + 1;
  }
  return out;
}

/**
 * Start times of a session's blocks (first turn, then each resume): the first uniformly in the
 * spread window, then gaps of minutes to days. Everything ends before `now`.
 */
export function blockStarts(rng: Rng, now: number, spans: readonly number[]): number[] {
  const gaps: number[] = [];
  for (let i = 1; i < spans.length; i++) {
    // Median about 40 minutes, a long tail to days (a session picked up again next week).
    gaps.push(Math.min(10 * DAY, Math.max(30_000, rng.logNormal(1.8) * 40 * MINUTE)));
  }
  const busy = spans.reduce((a, b) => a + b, 0);
  let idle = gaps.reduce((a, b) => a + b, 0);
  const room = SPREAD_DAYS * DAY - 2 * MINUTE - busy;
  if (idle > room * 0.9) {
    const f = (room * 0.9) / idle;
    for (let i = 0; i < gaps.length; i++) gaps[i] = (gaps[i] as number) * f;
    idle *= f;
  }
  const latestStart = now - MINUTE - busy - idle;
  const earliestStart = now - SPREAD_DAYS * DAY;
  let t = Math.round(earliestStart + rng.next() * Math.max(0, latestStart - earliestStart));
  const out: number[] = [];
  for (let i = 0; i < spans.length; i++) {
    out.push(t);
    t += (spans[i] as number) + Math.round(gaps[i] ?? 0);
  }
  return out;
}

export function isoOf(ms: number): string {
  return new Date(ms).toISOString();
}
