// Our side of the providers suite (bench/providers.ts): our own Claude Code and Codex readers,
// measured next to the bare read and ccusage on the same synthetic history, in the same run.
//   - ourFirstScan: the core's first scan in a child process of its own (providers-scan-child.ts);
//   - startOurDaemon: a real daemon (dist/daemon/main.js) on the history, waited on until its
//     first scan is done; then `insightsctl usage daily --json` (the package bin) timed as a
//     whole process, as a user runs it, and its rows as per-day totals.
// Neither writes into the dataset: the store and the daemon's dirs live under .tmp/bench/.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { ControlClient } from "../cli/control-client.js";
import { resolvePaths } from "../shared/base/paths.js";
import { cliMain, type Build } from "./build.js";
import { runChild } from "./child.js";
import { startDaemon, type Daemon } from "./daemon.js";
import { BENCH_TMP } from "./paths.js";
import { removeStaleDirs } from "./proc.js";
import type { ScanInput, ScanResult } from "./providers-protocol.js";
import type { Daily } from "./synthetic/daily.js";
import type { ProviderDataset, ProviderKind } from "./synthetic/provider-common.js";
import { runTimed } from "./timed-process.js";

export interface HookInput {
  kind: ProviderKind;
  dataset: ProviderDataset;
  /** The dir the provider's tools read: CLAUDE_CONFIG_DIR (…/home/.claude), CODEX_HOME (…/home/.codex) or …/home/.gemini. */
  root: string;
  /** HOME for a process that should find the data in its default place (~/.claude, ~/.codex). */
  home: string;
  /** JSONL bytes in the dataset (manifest.bytes), for MB/s. */
  bytes: number;
  /** --keep: leave the store and the daemon's dirs behind. */
  keep: boolean;
  /** Whose daemon, CLI and core are measured (bench/build.ts). */
  build: Build;
  log(message: string): void;
}

/**
 * One first scan of `input.root` by the core (SourceRegistry + the provider), on a fresh store,
 * in its own child process on plain node against dist/. `profileDir`: CPU-profile it there.
 */
export async function ourFirstScan(input: HookInput, opts: { idleRefreshes: number; profileDir: string | null; incrementalReps?: number }): Promise<ScanResult> {
  removeStaleDirs(BENCH_TMP, "providers-store-");
  const dir = path.join(BENCH_TMP, `providers-store-${process.pid}`);
  const storePath = path.join(dir, `${input.kind}.sqlite`);
  // Appending needs a tree of our own: hard links to the dataset's files (the same files, so the
  // first scan reads the same bytes and inodes), but the transcript appended to a copy.
  const mirror = opts.incrementalReps ? mirrorForAppends(input, path.join(dir, "tree")) : null;
  const scanInput: ScanInput = {
    mode: "scan",
    kind: input.kind,
    root: mirror?.root ?? input.root,
    home: mirror?.home ?? input.home,
    storePath,
    anchorNow: input.dataset.manifest.now,
    idleRefreshes: opts.idleRefreshes,
    profileDir: opts.profileDir,
    incremental: mirror && opts.incrementalReps ? { file: mirror.file, reps: opts.incrementalReps } : null,
  };
  try {
    return await runChild<ScanResult>("providers-scan-child.ts", scanInput, { build: input.build });
  } finally {
    if (!input.keep) fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The env that points a daemon or the CLI at one provider's history `root` only (the others off). */
export function providerEnv(kind: ProviderKind, root: string): Record<string, string> {
  const on = (k: ProviderKind): string => (k === kind ? "on" : "off");
  // Gemini CLI has no variable for its .gemini dir: GEMINI_CLI_HOME stands for the HOME above it.
  const dir: Record<string, string> = kind === "claude-code" ? { CLAUDE_CONFIG_DIR: root } : kind === "codex" ? { CODEX_HOME: root } : { GEMINI_CLI_HOME: path.dirname(root) };
  return { INSIGHTS_CLAUDE_CODE: on("claude-code"), INSIGHTS_CODEX: on("codex"), INSIGHTS_GEMINI_CLI: on("gemini-cli"), ...dir };
}

/** The marker of a line with a response's usage in it. */
const RESPONSE_MARKER: Record<ProviderKind, string> = { "claude-code": '"type":"assistant"', codex: '"type":"token_usage_record"', "gemini-cli": '"tokens":{' };

/** The first transcript of a tree with a response in it, by sorted path (a session's own file, not a sub-agent's). */
function firstTranscript(kind: HookInput["kind"], root: string): string {
  const marker = RESPONSE_MARKER[kind];
  const walk = (dir: string, depth: number): string | null => {
    const entries = fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const d of entries) {
      const p = path.join(dir, d.name);
      if (d.isFile() && d.name.endsWith(".jsonl") && fs.readFileSync(p, "utf8").includes(marker)) return p;
    }
    if (depth === 0) return null;
    for (const d of entries) {
      if (!d.isDirectory()) continue;
      const found = walk(path.join(dir, d.name), depth - 1);
      if (found) return found;
    }
    return null;
  };
  // Gemini CLI: tmp/<slug>/chats/session-*.jsonl (sub-agents are one level further down).
  const found = kind === "claude-code" ? walk(path.join(root, "projects"), 1) : kind === "codex" ? walk(path.join(root, "sessions"), 3) : walk(path.join(root, "tmp"), 2);
  if (!found) throw new Error(`no transcript with a response under ${root}`);
  return found;
}

/**
 * `root` mirrored at `dest` with hard links (cp -al: no byte of the dataset is copied or written),
 * then one transcript replaced by a copy of its own (a new inode) for the appends.
 */
function mirrorForAppends(input: HookInput, dest: string): { home: string; root: string; file: string } {
  fs.rmSync(dest, { recursive: true, force: true });
  fs.mkdirSync(dest, { recursive: true });
  // The whole HOME, so the provider's default dir (HOME/.claude, HOME/.codex) is the mirror too, not the dataset.
  const home = path.join(dest, path.basename(input.home));
  execFileSync("cp", ["-al", input.home, home]);
  const root = path.join(home, path.relative(input.home, input.root));
  const file = firstTranscript(input.kind, root);
  const tmp = `${file}.copy`;
  fs.copyFileSync(file, tmp);
  fs.renameSync(tmp, file);
  const original = path.join(input.root, path.relative(root, file));
  if (fs.statSync(file).ino === fs.statSync(original).ino) throw new Error(`${file} is still the dataset's file`);
  input.log(`  appends go to a copy of ${path.relative(root, file)} in a hard-linked mirror of the dataset`);
  return { home, root, file };
}

export interface UsageDailyRun {
  /** Wall time of the whole `insightsctl usage daily --json` process, ms. */
  ms: number;
  cpuMs: number;
  peakRssMb: number;
  measuredBy: string;
  /** Its rows as per-UTC-day totals (inputTokens is already input without cached input). */
  daily: Daily;
  responses: number;
}

export interface OurDaemon {
  /** The daemon running now (a new one after `restart`). */
  readonly daemon: Daemon;
  /** From spawn until every source's first scan was done (GraphQL lifetimeStats.isReady), ms. */
  readonly readyMs: number;
  /** The CLI's command line, for notes. */
  command: string;
  usageDaily(): Promise<UsageDailyRun>;
  /** `insightsctl status` against this daemon as a whole process, wall ms (exit 0 or it throws). */
  status(): Promise<number>;
  /** The same report asked over the control socket from this process: the daemon's part alone, ms. */
  askDaemon(): Promise<number>;
  /** Stops the daemon and starts a new one on the same store (its retention job runs at start); resolves when it is ready. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Wall time of a Node.js process that does nothing (`node -e 0`): the floor of any Node CLI, ms.
 * `env`: the environment the CLI it is compared with runs in. It matters: Node reads
 * NODE_EXTRA_CA_CERTS' bundle at start (~30 ms on this machine), before any of our code runs.
 */
export async function nodeFloorMs(env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? "/usr/bin:/bin" }): Promise<number> {
  const r = await runTimed(process.execPath, ["-e", "0"], env);
  if (r.code !== 0) throw new Error(`node -e 0 exited ${r.code}`);
  return r.ms;
}

interface UsageRow {
  key?: unknown;
  inputTokens?: unknown;
  outputTokens?: unknown;
  cacheWriteTokens?: unknown;
  cacheReadTokens?: unknown;
  responses?: unknown;
}

/** `insightsctl usage daily --json` (docs/usage.md) as per-day totals; refuses a partial or demo report. */
export function dailyFromUsage(json: unknown): { daily: Daily; responses: number } {
  const r = json as { report?: unknown; timeZone?: unknown; demo?: unknown; scanComplete?: unknown; rows?: unknown };
  if (r.report !== "daily" || r.timeZone !== "UTC") throw new Error(`insightsctl usage: not a UTC daily report (${JSON.stringify(r.report)}, ${JSON.stringify(r.timeZone)})`);
  if (r.demo !== false) throw new Error("insightsctl usage read the demo state, not the dataset");
  if (r.scanComplete !== true) throw new Error("insightsctl usage: scanComplete is not true (the daemon had not finished reading)");
  if (!Array.isArray(r.rows)) throw new Error("insightsctl usage: no rows array");
  const n = (v: unknown, what: string): number => {
    if (typeof v !== "number" || !Number.isSafeInteger(v)) throw new Error(`insightsctl usage: ${what} is not an integer`);
    return v;
  };
  let responses = 0;
  const daily = (r.rows as UsageRow[]).map((row) => {
    if (typeof row.key !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(row.key)) throw new Error(`insightsctl usage: unexpected key ${JSON.stringify(row.key)}`);
    responses += n(row.responses, "responses");
    return {
      date: row.key,
      input: n(row.inputTokens, "inputTokens"),
      output: n(row.outputTokens, "outputTokens"),
      cacheRead: n(row.cacheReadTokens, "cacheReadTokens"),
      cacheWrite: n(row.cacheWriteTokens, "cacheWriteTokens"),
    };
  });
  return { daily, responses };
}

/**
 * A daemon reading only `input.root` (CLAUDE_CONFIG_DIR, CODEX_HOME or the .gemini dir; OpenClaw and
 * the other providers off), ready once its first scan is done. The caller stops it.
 */
export async function startOurDaemon(input: HookInput, nodeArgs: string[] = []): Promise<OurDaemon> {
  const start = async (reuse: boolean): Promise<{ daemon: Daemon; readyMs: number }> => {
    const started = Date.now();
    const daemon = await startDaemon({
      name: `providers-${input.kind}`,
      openclawDir: null,
      env: {
        INSIGHTS_OPENCLAW: "off",
        ...providerEnv(input.kind, input.root),
      },
      nodeArgs,
      reuse,
      build: input.build,
      log: input.log,
    });
    try {
      input.log(`  waiting for the daemon's ${reuse ? "scan after its restart" : "first scan"} (lifetimeStats.isReady)`);
      await daemon.waitReady(60 * 60_000, input.log);
      const readyMs = Date.now() - started;
      input.log(`  ready after ${(readyMs / 1000).toFixed(1)} s`);
      return { daemon, readyMs };
    } catch (err) {
      await daemon.stop();
      if (!input.keep) daemon.remove();
      throw err;
    }
  };
  let current = await start(false);
  const CLI = cliMain(input.build);
  const args = [CLI, "usage", "daily", "--json", "--provider", input.kind, "-z", "UTC"];
  return {
    get daemon() {
      return current.daemon;
    },
    get readyMs() {
      return current.readyMs;
    },
    command: `insightsctl ${args.slice(1).join(" ")}`,
    async askDaemon(): Promise<number> {
      const client = await ControlClient.connect(resolvePaths(current.daemon.env).socketFile, 5000);
      try {
        const t = performance.now();
        const report = await client.call<unknown>("usage", { report: "daily", provider: input.kind, timeZone: "UTC" }, 600_000);
        const ms = performance.now() - t;
        dailyFromUsage(report);
        return ms;
      } finally {
        client.close();
      }
    },
    async restart(): Promise<void> {
      await current.daemon.stop();
      current = await start(true);
    },
    async usageDaily(): Promise<UsageDailyRun> {
      const daemon = current.daemon;
      const r = await runTimed(process.execPath, args, { ...daemon.env, NO_COLOR: "1" });
      if (r.code !== 0) throw new Error(`insightsctl usage exited ${r.code}: ${r.stderr.trim().slice(0, 500)}`);
      // Asked through the daemon, it says nothing on stderr; in-process it would ("not running").
      if (r.stderr.includes("not running")) throw new Error(`insightsctl usage did not reach the daemon: ${r.stderr.trim()}`);
      const { daily, responses } = dailyFromUsage(JSON.parse(r.stdout.toString("utf8")));
      return { ms: r.ms, cpuMs: r.cpuMs, peakRssMb: r.peakRssMb, measuredBy: r.measuredBy, daily, responses };
    },
    async status(): Promise<number> {
      const r = await runTimed(process.execPath, [CLI, "status"], { ...current.daemon.env, NO_COLOR: "1" });
      if (r.code !== 0) throw new Error(`insightsctl status exited ${r.code}: ${r.stderr.trim().slice(0, 500)}`);
      return r.ms;
    },
    async stop(): Promise<void> {
      await current.daemon.stop();
      if (!input.keep) current.daemon.remove();
    },
  };
}
