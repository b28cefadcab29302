// Is a newer OpenClaw available? Asks `openclaw update status --json` (slow: it queries the npm registry and
// git), so answers are cached for hours and callers read the cache instead of waiting on the CLI.
//
// Shape (read from the 2026.9.6 package's docs/cli/update/status-and-history.md and its CLI output code):
//   { update: { root, installKind: "package"|"git"|"unknown", packageManager, git?, deps?,
//               registry?: { latestVersion, tag?, error?, reason? }, error?: {status, code, message} },
//     channel: { value, source, label, config },
//     availability: { available, hasGitUpdate, hasRegistryUpdate, latestVersion (null unless newer), gitBehind },
//     activeRun?, lastRun?, runStatusError?, … }
// It does not carry the running version, so that comes from `openclaw --version`
// ("OpenClaw 2026.9.6 (eb377ac)") when the JSON lacks one. Other versions may differ: every field is read
// defensively and the raw JSON is kept.
import type { Clock } from "../../../base/clock.js";
import { systemClock } from "../../../base/clock.js";
import { SourceError, fail, ok } from "../../result.js";
import { runCommand, unsupportedRuntimeLine } from "../../run-command.js";
import type { SourceResult, SourceWarning } from "../../result.js";

export interface RunResult {
  stdout: string;
  stderr: string;
  /** null when killed by a signal. */
  exitCode: number | null;
}

/** Runs a command without a shell. Rejects only when it cannot run at all or times out. */
export type CommandRunner = (file: string, args: string[], opts: { timeoutMs: number; env?: NodeJS.ProcessEnv }) => Promise<RunResult>;

/**
 * The real runner: a non-zero exit resolves (its output may still be JSON); a timeout rejects with
 * code ETIMEDOUT and a program that cannot start rejects with its errno. The timeout is our own
 * deadline, not inferred from how the CLI exited: the openclaw launcher exits 0 with no output
 * when signalled, which used to read as "no JSON" instead of "timed out" (see run-command.ts).
 */
export const execFileRunner: CommandRunner = async (file, args, { timeoutMs, env }) => {
  const r = await runCommand(file, args, { timeoutMs, env: { ...(env ?? process.env), NO_COLOR: "1" }, maxOutputBytes: 8 * 1024 * 1024 });
  if (r.spawnError) throw r.spawnError;
  if (r.timedOut) throw Object.assign(new Error(`${file} timed out after ${timeoutMs} ms`), { code: "ETIMEDOUT" });
  return { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode };
};

export interface UpdateStatus {
  currentVersion: string | null;
  latestVersion: string | null;
  /** null when the CLI could not tell (registry unreachable, unknown install). */
  updateAvailable: boolean | null;
  channel: string | null;
  checkedAt: number;
  raw: unknown;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v.trim() : null);

function pick(o: unknown, ...paths: string[][]): unknown {
  for (const p of paths) {
    let v: unknown = o;
    for (const k of p) v = isObj(v) ? v[k] : undefined;
    if (v !== undefined && v !== null) return v;
  }
  return undefined;
}

/** Extracts the first JSON object from CLI output that may carry log lines around it. */
export function extractJson(output: string): unknown {
  const trimmed = output.trim();
  try {
    return JSON.parse(trimmed);
  } catch {
    const start = trimmed.indexOf("{");
    const end = trimmed.lastIndexOf("}");
    if (start < 0 || end <= start) return undefined;
    try {
      return JSON.parse(trimmed.slice(start, end + 1));
    } catch {
      return undefined;
    }
  }
}

/** "v2026.9.6" / "OpenClaw 2026.9.6 (eb377ac)" -> "2026.9.6"; keeps pre-release suffixes. */
export function normalizeVersion(v: unknown): string | null {
  const s = str(v);
  if (!s) return null;
  const m = /(\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?)/.exec(s);
  return m ? m[1]! : null;
}

/** Numeric compare of dotted release parts; a pre-release sorts before its release. null if unparsable. */
export function compareVersions(a: string, b: string): number | null {
  const parse = (v: string) => {
    const m = /^(\d+)\.(\d+)\.(\d+)(?:-(.+))?/.exec(v);
    return m ? { parts: [Number(m[1]), Number(m[2]), Number(m[3])], pre: m[4] ?? null } : null;
  };
  const x = parse(a);
  const y = parse(b);
  if (!x || !y) return null;
  for (let i = 0; i < 3; i++) if (x.parts[i] !== y.parts[i]) return x.parts[i]! < y.parts[i]! ? -1 : 1;
  if (x.pre === y.pre) return 0;
  if (x.pre === null) return 1;
  if (y.pre === null) return -1;
  return x.pre.localeCompare(y.pre, "en", { numeric: true });
}

/** Reads the fields we need from `update status --json`, tolerating other shapes. */
export function parseUpdateStatus(raw: unknown, checkedAt: number, currentVersionHint: string | null = null): UpdateStatus {
  const currentVersion =
    normalizeVersion(pick(raw, ["currentVersion"], ["version"], ["update", "currentVersion"], ["update", "version"], ["current", "version"])) ?? normalizeVersion(currentVersionHint);
  const latestVersion = normalizeVersion(
    pick(raw, ["availability", "latestVersion"], ["update", "registry", "latestVersion"], ["latestVersion"], ["latest", "version"], ["latest"]),
  );
  let updateAvailable: boolean | null = null;
  const declared = pick(raw, ["availability", "available"], ["updateAvailable"], ["available"]);
  // The CLI says "not available" also when it could not ask the registry; that is "unknown", not "no".
  const checkFailed = pick(raw, ["update", "error"], ["update", "registry", "error"]) !== undefined;
  if (typeof declared === "boolean") updateAvailable = declared || !(checkFailed && latestVersion === null) ? declared : null;
  else if (currentVersion && latestVersion) {
    const cmp = compareVersions(currentVersion, latestVersion);
    updateAvailable = cmp === null ? null : cmp < 0;
  }
  const ch = pick(raw, ["channel"]);
  const channel = str(ch) ?? str(pick(ch, ["value"], ["label"])) ?? str(pick(raw, ["update", "channel"], ["update", "registry", "tag"]));
  return { currentVersion, latestVersion, updateAvailable, channel, checkedAt, raw };
}

export interface UpdateCheckerOptions {
  runner?: CommandRunner;
  clock?: Clock;
  /** The openclaw executable; default "openclaw" on PATH. */
  command?: string;
  /** How long an answer is reused; default 6 h. */
  ttlMs?: number;
  /** How long a failure is reused before trying again; default 10 min. */
  errorTtlMs?: number;
  /** Per CLI call; default 60 s (it also passes `--timeout` so the CLI gives up on its own first). */
  timeoutMs?: number;
  /**
   * Env for the CLI; default this process's. The CLI needs Node >= 24.16 first on PATH: under our
   * Node 20 it prints only "node:sqlite is unavailable" to stderr and exits 1.
   */
  env?: NodeJS.ProcessEnv;
}

function runError(err: unknown, what: string): SourceError {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === "ETIMEDOUT") return new SourceError("timeout", `${what} timed out`, {}, { cause: err });
  if (code === "ENOENT") return new SourceError("missing", `${what}: openclaw CLI not found`, {}, { cause: err });
  if (code === "EACCES") return new SourceError("permission", `${what}: permission denied`, {}, { cause: err });
  return new SourceError("unreachable", `${what}: ${err instanceof Error ? err.message : String(err)}`, {}, { cause: err });
}

/** Cached `openclaw update status`: one CLI call at a time, reused for `ttlMs`. */
export class UpdateStatusChecker {
  private readonly runner: CommandRunner;
  private readonly clock: Clock;
  private readonly command: string;
  private readonly ttlMs: number;
  private readonly errorTtlMs: number;
  private readonly timeoutMs: number;
  private readonly env: NodeJS.ProcessEnv | undefined;
  private last: { result: SourceResult<UpdateStatus>; at: number } | null = null;
  private lastGood: UpdateStatus | null = null;
  private inFlight: Promise<SourceResult<UpdateStatus>> | null = null;

  constructor(opts: UpdateCheckerOptions = {}) {
    this.runner = opts.runner ?? execFileRunner;
    this.clock = opts.clock ?? systemClock;
    this.command = opts.command ?? "openclaw";
    this.ttlMs = opts.ttlMs ?? 6 * 3_600_000;
    this.errorTtlMs = opts.errorTtlMs ?? 10 * 60_000;
    this.timeoutMs = opts.timeoutMs ?? 60_000;
    this.env = opts.env;
  }

  /** The last successful answer without running anything, and whether it is past its TTL. */
  peek(): { status: UpdateStatus; stale: boolean } | null {
    if (!this.lastGood) return null;
    return { status: this.lastGood, stale: this.clock.now() - this.lastGood.checkedAt >= this.ttlMs };
  }

  /** The cached answer while fresh, else runs the CLI (concurrent callers share one run). */
  async get(opts: { force?: boolean } = {}): Promise<SourceResult<UpdateStatus>> {
    const now = this.clock.now();
    if (!opts.force && this.last) {
      const ttl = this.last.result.ok ? this.ttlMs : this.errorTtlMs;
      if (now - this.last.at < ttl) return this.last.result;
    }
    if (!this.inFlight) {
      this.inFlight = this.check().finally(() => {
        this.inFlight = null;
      });
    }
    return this.inFlight;
  }

  private async check(): Promise<SourceResult<UpdateStatus>> {
    const result = await this.runCheck();
    const at = this.clock.now();
    this.last = { result, at };
    if (result.ok) this.lastGood = result.value;
    return result;
  }

  private async runCheck(): Promise<SourceResult<UpdateStatus>> {
    const warnings: SourceWarning[] = [];
    const seconds = String(Math.max(1, Math.floor(this.timeoutMs / 1000) - 5));
    let out: RunResult;
    try {
      out = await this.runner(this.command, ["update", "status", "--json", "--timeout", seconds], { timeoutMs: this.timeoutMs, ...(this.env ? { env: this.env } : {}) });
    } catch (err) {
      return fail(runError(err, "openclaw update status"));
    }
    const raw = extractJson(out.stdout);
    if (!isObj(raw)) {
      const runtime = unsupportedRuntimeLine(out.stderr);
      if (runtime) return fail(new SourceError("unsupported", `openclaw update status: the CLI cannot run on the Node first on its PATH: ${runtime}`, { exitCode: out.exitCode }));
      const detail = (out.stderr || out.stdout).trim().slice(0, 200);
      return fail(new SourceError("corrupt", `openclaw update status --json gave no JSON object (exit ${out.exitCode})${detail ? `: ${detail}` : ""}`, { exitCode: out.exitCode }));
    }
    if (out.exitCode !== 0) warnings.push({ code: "UNKNOWN_FORMAT", message: `openclaw update status exited ${out.exitCode}`, where: "openclaw update status" });
    let status = parseUpdateStatus(raw, this.clock.now());
    if (!status.currentVersion) {
      // The JSON has no running version: ask the CLI for its own (fast, no network).
      try {
        const v = await this.runner(this.command, ["--version"], { timeoutMs: Math.min(this.timeoutMs, 15_000), ...(this.env ? { env: this.env } : {}) });
        status = parseUpdateStatus(raw, status.checkedAt, v.stdout);
      } catch (err) {
        warnings.push({ code: "BAD_FIELD", message: `current version unknown: ${runError(err, "openclaw --version").message}`, where: "openclaw --version" });
      }
    }
    return ok(status, warnings);
  }
}
