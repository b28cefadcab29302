// A real gateway-insights daemon for the suites that measure it from the outside (graphql,
// snapshot): the built `dist/daemon/main.js` in the foreground as a child process, with its own
// HOME and XDG dirs under .tmp/bench/, a free port, and an OpenClaw state dir to read. Requests go
// over HTTP like any client's; memory comes from /proc.
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as path from "node:path";
import { daemonMain, OUR_BUILD, type Build } from "./build.js";
import { checkDistFresh } from "./child.js";
import { childPids, procMemory, removeStaleDirs, type ProcMemory } from "./proc.js";
import { profileProcess } from "./inspect.js";
import { BENCH_TMP, newProfileDir, REPO_ROOT } from "./paths.js";
import { formatSummary, summarize } from "./profile-summary.js";
import { daemonEnv } from "../cli/daemon-process.js";
import type { StateCopy } from "./state-copy.js";
import type { BenchOptions } from "./suite.js";

const PRODUCT = "gateway-insights";
/** Where the providers' own CLIs keep their history: the runner's must not reach the daemon. */
const LEAKY = new Set(["CLAUDE_CONFIG_DIR", "CODEX_HOME"]);

export interface DaemonStartOptions {
  /** Names the work dir: .tmp/bench/daemon-<name>-<runner pid>/. */
  name: string;
  /** The OpenClaw state dir to read (--openclaw-dir); null: none given (the daemon shows its bundled demo state, or with INSIGHTS_OPENCLAW=off the providers suite reads Claude Code or Codex). */
  openclawDir: string | null;
  /** Extra INSIGHTS_* settings (strings, as in the environment). */
  env?: Record<string, string>;
  /** Node flags for the daemon (and, through fork, its render workers), e.g. --inspect-port=0 for bench/inspect.ts. */
  nodeArgs?: string[];
  /** Keep what an earlier daemon of the same name left in the work dir (its store, its token): a restart. */
  reuse?: boolean;
  /** Another checkout's built daemon (…/dist/daemon/main.js), e.g. an earlier commit to compare with; default this checkout's. */
  main?: string;
  /** The checkout whose built daemon runs (--baseline's or ours; bench/build.ts), when `main` is not given. */
  build?: Build;
  log(message: string): void;
}

export interface WorkerMemory extends ProcMemory {
  command: string;
}

/** Spawns a free-port-bound daemon and waits until its HTTP server answers /health. */
export async function startDaemon(o: DaemonStartOptions): Promise<Daemon> {
  // The daemon measured must be the code in the checkout: fails when a dist/ module it loads is older than its source.
  const build = o.build ?? OUR_BUILD;
  const main = o.main ?? daemonMain(build);
  // Another checkout's dist/ is checked against that checkout's sources.
  if (!o.main) checkDistFresh([main], build.root);
  removeStaleDirs(BENCH_TMP, `daemon-${o.name}-`);
  const dir = path.join(BENCH_TMP, `daemon-${o.name}-${process.pid}`);
  if (!o.reuse) fs.rmSync(dir, { recursive: true, force: true });
  const home = path.join(dir, "home");
  const dirs = { HOME: home, XDG_CONFIG_HOME: path.join(dir, "config"), XDG_STATE_HOME: path.join(dir, "state"), XDG_RUNTIME_DIR: path.join(dir, "run") };
  for (const d of Object.values(dirs)) fs.mkdirSync(d, { recursive: true, mode: 0o700 });
  const port = await freePort();
  // Nothing of the runner's own configuration may leak in (a real token, another state dir, the
  // user's own Claude Code or Codex history).
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("INSIGHTS_") && !k.startsWith("OPENCLAW_") && !LEAKY.has(k)) env[k] = v;
  // As insightsctl start and the systemd unit run it (the malloc setting).
  Object.assign(env, daemonEnv(env), dirs, o.env ?? {});
  const consoleFile = path.join(dir, "console.log");
  const out = fs.openSync(consoleFile, "a");
  const child = spawn(process.execPath, [...(o.nodeArgs ?? []), main, "--port", String(port), "--host", "127.0.0.1", ...(o.openclawDir !== null ? ["--openclaw-dir", o.openclawDir] : [])], {
    cwd: o.main ? REPO_ROOT : build.root,
    env,
    stdio: ["ignore", out, out],
  });
  fs.closeSync(out);
  const d = new Daemon(child, `http://127.0.0.1:${port}`, dir, path.join(dirs.XDG_STATE_HOME, PRODUCT), consoleFile, env);
  try {
    await d.waitHealthy(60_000);
  } catch (err) {
    await d.stop();
    throw err;
  }
  o.log(`daemon pid ${child.pid} on ${d.url} (work dir ${path.relative(REPO_ROOT, dir)})`);
  return d;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.unref();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const addr = s.address();
      s.close(() => (typeof addr === "object" && addr ? resolve(addr.port) : reject(new Error("no port"))));
    });
  });
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Daemons not yet stopped: a runner killed by a signal takes them along. */
const running = new Set<Daemon>();
let signalsHooked = false;

function hookSignals(): void {
  if (signalsHooked) return;
  signalsHooked = true;
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.once(sig, () => {
      for (const d of running) d.kill();
      // The listener is gone now: the signal's default action ends the runner as it would have.
      process.kill(process.pid, sig);
    });
  }
}

export class Daemon {
  private exited: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  private readonly exitPromise: Promise<void>;
  private readonly killOnExit = (): void => this.kill();
  private tokenCache: string | null = null;

  constructor(
    private readonly child: ChildProcess,
    readonly url: string,
    readonly dir: string,
    readonly stateDir: string,
    readonly consoleFile: string,
    /** Its environment (HOME and the XDG dirs): `insightsctl` run with it talks to this daemon. */
    readonly env: Readonly<Record<string, string>>,
  ) {
    this.exitPromise = new Promise((resolve) => {
      child.once("exit", (code, signal) => {
        this.exited = { code, signal };
        resolve();
      });
    });
    // The runner going away without teardown (an exception, process.exit, a signal) takes the daemon along.
    process.once("exit", this.killOnExit);
    running.add(this);
    hookSignals();
  }

  /** SIGKILL now (its render workers follow: they exit when the IPC channel closes). */
  kill(): void {
    if (!this.exited) this.child.kill("SIGKILL");
  }

  get pid(): number {
    return this.child.pid ?? 0;
  }

  get alive(): boolean {
    return this.exited === null;
  }

  /** The API token the daemon generated in its state dir. */
  get token(): string {
    this.tokenCache ??= fs.readFileSync(path.join(this.stateDir, "token"), "utf8").trim();
    return this.tokenCache;
  }

  get authHeaders(): Record<string, string> {
    return { Authorization: `Bearer ${this.token}` };
  }

  /** The last lines the daemon wrote to its console (for error messages). */
  consoleTail(lines = 15): string {
    try {
      return fs.readFileSync(this.consoleFile, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
    } catch {
      return "";
    }
  }

  private assertAlive(): void {
    if (this.exited) throw new Error(`the daemon exited (${this.exited.signal ?? `code ${this.exited.code}`}):\n${this.consoleTail()}`);
  }

  async waitHealthy(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      this.assertAlive();
      try {
        const r = await fetch(`${this.url}/health`, { signal: AbortSignal.timeout(5000) });
        await r.arrayBuffer();
        if (r.ok) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`the daemon did not answer /health within ${timeoutMs / 1000} s:\n${this.consoleTail()}`);
      await sleep(100);
    }
  }

  /** One GraphQL operation over POST /graphql; throws on transport or GraphQL errors. */
  async graphql<T>(query: string, variables: Record<string, unknown> = {}, timeoutMs = 120_000): Promise<T> {
    this.assertAlive();
    const r = await fetch(`${this.url}/graphql`, {
      method: "POST",
      headers: { ...this.authHeaders, "Content-Type": "application/json" },
      body: JSON.stringify({ query, variables }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = (await r.json()) as { data?: T; errors?: Array<{ message: string }> };
    if (body.errors?.length || !body.data) throw new Error(`GraphQL ${r.status}: ${JSON.stringify(body.errors ?? body).slice(0, 500)}`);
    return body.data;
  }

  /**
   * Waits until every agent source has finished its first scan (`lifetimeStats.isReady`), polling
   * once a second. The first scan blocks the daemon's event loop for long stretches, so a poll may
   * wait; `progress` gets a line every 10 s.
   */
  async waitReady(timeoutMs: number, progress: (line: string) => void): Promise<{ agents: string[]; ms: number }> {
    const started = Date.now();
    const deadline = started + timeoutMs;
    let lastLog = started;
    for (;;) {
      this.assertAlive();
      const { sources } = await this.graphql<{ sources: Array<{ id: string; status: string }> }>("{ sources(filter: {category: AGENT}) { id status } }");
      if (sources.length > 0) {
        const q = `{ ${sources.map((s, i) => `a${i}: source(selector: {id: ${JSON.stringify(s.id)}}) { ... on AgentNamespace { lifetimeStats { isReady } } }`).join(" ")} }`;
        const data = await this.graphql<Record<string, { lifetimeStats: { isReady: boolean } }>>(q);
        const ready = Object.values(data).filter((a) => a.lifetimeStats.isReady).length;
        if (ready === sources.length) return { agents: sources.map((s) => s.id), ms: Date.now() - started };
        if (Date.now() - lastLog > 10_000) {
          lastLog = Date.now();
          progress(`  first scan: ${ready}/${sources.length} agents ready after ${((Date.now() - started) / 1000).toFixed(0)} s`);
        }
      }
      if (Date.now() > deadline) throw new Error(`agents not ready after ${timeoutMs / 1000} s`);
      await sleep(1000);
    }
  }

  /** The daemon process's memory now. */
  memory(): ProcMemory | null {
    return procMemory(this.pid);
  }

  /** The daemon and its render workers together: resident MB, from /proc; null when the daemon is gone. */
  treeMemory(): { rssMb: number; daemon: ProcMemory; workers: WorkerMemory[] } | null {
    const daemon = this.memory();
    if (!daemon) return null;
    const workers = this.workers();
    return { rssMb: Math.round((daemon.rssMb + workers.reduce((a, w) => a + w.rssMb, 0)) * 10) / 10, daemon, workers };
  }

  /** Its child processes (render workers) and their memory. */
  workers(): WorkerMemory[] {
    const out: WorkerMemory[] = [];
    for (const pid of childPids(this.pid)) {
      const m = procMemory(pid);
      let exe: string;
      try {
        exe = fs.readlinkSync(`/proc/${pid}/exe`);
      } catch {
        continue; // it exited meanwhile (an idle render worker stopping)
      }
      if (m) out.push({ ...m, command: path.basename(exe) });
    }
    return out;
  }

  /** SIGTERM, then SIGKILL after `graceMs`; kills any child it left behind. Safe to call twice. */
  async stop(graceMs = 15_000): Promise<void> {
    process.removeListener("exit", this.killOnExit);
    running.delete(this);
    const children = this.exited ? [] : childPids(this.pid);
    if (!this.exited) {
      this.child.kill("SIGCONT"); // a paused daemon would not see the SIGTERM
      this.child.kill("SIGTERM");
      const timer = setTimeout(() => this.child.kill("SIGKILL"), graceMs);
      await this.exitPromise;
      clearTimeout(timer);
    }
    for (const pid of children) {
      try {
        process.kill(pid, 0);
      } catch {
        continue; // gone, as it should be
      }
      await sleep(1000);
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // exited meanwhile
      }
    }
  }

  /** Pauses or resumes the whole daemon (SIGSTOP / SIGCONT), e.g. so it cannot take CPU from a timed child. */
  pause(paused: boolean): void {
    if (this.exited) return;
    process.kill(this.pid, paused ? "SIGSTOP" : "SIGCONT");
  }

  /** Removes the work dir (stores, logs); call after stop(). */
  remove(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  /**
   * CPU-profiles the daemon's main thread (started with --inspect-port=0) while `work` runs, not part
   * of the figures: `<suite>-daemon.cpuprofile` and `<suite>-summary.txt` in a new profile folder.
   */
  async profile(suite: string, what: string, log: (m: string) => void, work: () => Promise<unknown>): Promise<void> {
    const dir = newProfileDir();
    const file = path.join(dir, `${suite}-daemon.cpuprofile`);
    log(`profiling the daemon ${what} (not part of the figures)`);
    await profileProcess(this.pid, this.consoleFile, file, work);
    const text = formatSummary(path.basename(file), summarize(file, 25));
    fs.writeFileSync(path.join(dir, `${suite}-summary.txt`), `${text}\n`);
    log(`${text}\n(profile and ${suite}-summary.txt in ${path.relative(REPO_ROOT, dir)})`);
  }
}

/**
 * The daemon a suite measures, on its copy of the dataset: default config but no snapshot rate
 * limit, inspectable under --profile. Resolves once its first scan is done (every agent ready).
 */
export async function startReadyDaemon(
  o: BenchOptions,
  name: string,
  copy: StateCopy,
  extra: { env?: Record<string, string>; nodeArgs?: string[] } = {},
): Promise<{ daemon: Daemon; ready: { agents: string[]; ms: number } }> {
  const daemon = await startDaemon({
    name,
    openclawDir: copy.stateDir,
    env: { INSIGHTS_SNAPSHOT_RATE_LIMIT_PER_MINUTE: "100000", ...extra.env },
    // --profile: the inspector can be opened later (SIGUSR1) on a free port; nothing runs until then.
    nodeArgs: [...(o.flags.profile === true ? ["--inspect-port=0"] : []), ...(extra.nodeArgs ?? [])],
    build: o.build,
    log: o.log,
  });
  try {
    o.log("waiting for the daemon's first scan (every agent's lifetimeStats.isReady)");
    const ready = await daemon.waitReady(30 * 60_000, o.log);
    o.log(`  all ${ready.agents.length} agents ready after ${(ready.ms / 1000).toFixed(1)} s`);
    return { daemon, ready };
  } catch (err) {
    await daemon.stop();
    daemon.remove();
    throw err;
  }
}

/** Stops a suite's daemon and removes its dirs and the dataset copy, unless `keep` (--keep). */
export async function endDaemonRun(d: Daemon | null, copy: StateCopy, keep: boolean): Promise<void> {
  await d?.stop();
  if (keep) return;
  d?.remove();
  copy.remove();
}
