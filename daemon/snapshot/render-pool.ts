// The daemon's render workers (render-worker.ts): child processes drawing one card at a time.
//
// Lifecycle, so that an idle daemon holds no renderer at all:
//   - none runs until a card is asked for; `prepare()` starts one as a snapshot begins, so its
//     start-up (modules, WebAssembly, fonts) overlaps the collection of the card's data;
//   - one worker serves requests one after another; a second starts only when a request would
//     otherwise wait for the first (up to `size`);
//   - a worker stops after `idleMs` without work (renderIdleSeconds, 30 s by default), and is
//     replaced after `maxRenders` cards so anything that creeps in a long-lived one is bounded;
//   - a worker that dies mid-render fails that render (RENDER_FAILED); the next card starts a new one.
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { OPTIONS } from "../../shared/config/options.js";
import { InsightsError } from "../../shared/base/errors.js";
import type { Logger } from "../../shared/base/log/logger.js";
import type { CardModel } from "../../shared/snapshot/card-model.js";
import type { CardImageFormat } from "../../shared/snapshot/render.js";
import type { WorkerJob, WorkerReply, WorkerRequest } from "./render-worker.js";

/** A timer the pool can cancel; tests pass one they fire by hand. */
interface IdleTimer {
  cancel(): void;
}
export type StartIdleTimer = (onIdle: () => void, ms: number) => IdleTimer;

interface RenderPoolOptions {
  size: number;
  logger: Logger;
  /** Replace a worker after this many renders. */
  maxRenders?: number;
  /** Stop a worker after this long without work (DEFAULT_RENDER_IDLE_MS). */
  idleMs?: number;
  /** Starts the idle timer; default setTimeout, unref'd. */
  idleTimer?: StartIdleTimer;
  /**
   * Longest one card may take (the snapshot's total timeout): a worker past it is killed, so a
   * render that never ends cannot keep its slot and stall every snapshot after it.
   */
  renderTimeoutMs?: number;
  /** The worker script (tests substitute one); default render-worker.ts / .js beside this file. */
  workerFile?: string;
}

/** How long an idle worker lives by default (renderIdleSeconds): the daemon at rest (60 s without a request) holds none. */
export const DEFAULT_RENDER_IDLE_MS = OPTIONS.renderIdleSeconds.default * 1000;

interface Worker {
  child: ChildProcess;
  busy: boolean;
  renders: number;
  idle: IdleTimer | null;
  pending: Map<number, { resolve: (r: WorkerReply) => void }>;
}

// The worker runs from source under tsx (tests) and from dist when built.
const WORKER_FILE = fileURLToPath(new URL(import.meta.url.endsWith(".ts") ? "./render-worker.ts" : "./render-worker.js", import.meta.url));

/**
 * resvg keeps each card's pixels (~7 MB for a full PNG) in memory V8 does not see, so the heap
 * looks small and a collection comes late. A full collection after each card doubled the CPU a
 * card costs, so a worker collects once it has been idle this long: nothing under load, and the
 * memory comes back as soon as the load stops.
 */
export const WORKER_IDLE_COLLECT_MS = 1000;

/**
 * Node flags for a worker, measured on 90 cards back to back (docs/benchmarks-history.md, memory):
 * satori makes ~100 MB of garbage per full card and V8 let the heap grow to ~150 MB before
 * collecting it. A 2 MB young generation and old-generation growth of at most 2x its live size
 * kept the heap under ~80 MB (peak RSS 364 -> ~240 MB) for ~10 % more CPU per card. Growth of at
 * most 1.5x (50 %) took the peak of a worker drawing full Chinese cards from 246-265 MB to
 * 228-240 MB (median 261 -> 238 MB over three alternating runs), with no CPU difference the
 * runs could tell apart: the heap is at its largest while resvg draws, on top of resvg's own
 * memory, and the garbage satori left behind is what the lower limit collects first.
 * --expose-gc: the idle collection above.
 */
const WORKER_NODE_FLAGS = ["--expose-gc", "--max-semi-space-size=2", "--heap-growing-percent=50"] as const;

/**
 * Allocator settings for a worker, same measurements. resvg (Rust, mimalloc) allocates on libuv's
 * pool threads and its pixmaps are freed from the main thread: one pool thread (a worker draws one
 * card at a time) and an immediate purge return that memory; glibc (V8's and Node's own
 * allocations) with fixed mmap/trim thresholds and two arenas gives back what it frees instead of
 * keeping it for the next peak. Together ~60 MB less at the peak, no CPU measured.
 */
function workerEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const tunables = "glibc.malloc.mmap_threshold=131072:glibc.malloc.trim_threshold=131072:glibc.malloc.arena_max=2";
  return {
    ...env,
    UV_THREADPOOL_SIZE: "1",
    MIMALLOC_PURGE_DELAY: "0",
    // A setting of the user's own comes last and wins.
    GLIBC_TUNABLES: env.GLIBC_TUNABLES ? `${tunables}:${env.GLIBC_TUNABLES}` : tunables,
  };
}

const defaultIdleTimer: StartIdleTimer = (onIdle, ms) => {
  const t = setTimeout(onIdle, ms);
  t.unref();
  return { cancel: () => clearTimeout(t) };
};

export class RenderPool {
  private readonly workers = new Set<Worker>();
  private readonly waiters: Array<(w: Worker) => void> = [];
  private nextId = 1;
  private closed = false;
  /** Workers started since the pool was made (tests, /metrics). */
  started = 0;

  constructor(private readonly o: RenderPoolOptions) {}

  /** Workers running now (for tests and /metrics). */
  get size(): number {
    return this.workers.size;
  }

  /** Their process ids (tests kill one to see a crash handled). */
  pids(): number[] {
    return [...this.workers].map((w) => w.child.pid ?? 0).filter(Boolean);
  }

  /**
   * A card is on its way: start a worker now if none runs, so it warms up (render-worker.ts) while
   * the card's data is collected. Starts nothing when one runs, busy or not: a request that finds
   * it busy starts the second one itself, when it would otherwise wait.
   */
  prepare(): void {
    if (this.closed || this.workers.size > 0) return;
    this.armIdle(this.spawn());
  }

  /** Draws one card in a worker. */
  async render(model: CardModel, format: CardImageFormat): Promise<Buffer> {
    const reply = await this.request({ kind: "render", model, format }, this.o.renderTimeoutMs ?? 60_000);
    if (!reply.ok) throw new InsightsError("RENDER_FAILED", reply.message);
    return Buffer.from(reply.body?.buffer ?? new ArrayBuffer(0), reply.body?.byteOffset ?? 0, reply.body?.length ?? 0);
  }

  /** Draws the card as PNG pages no taller than `maxHeightPx`, in a worker. */
  async renderPages(model: CardModel, maxHeightPx: number): Promise<Buffer[]> {
    const reply = await this.request({ kind: "pages", model, maxHeightPx }, this.o.renderTimeoutMs ?? 60_000);
    if (!reply.ok) throw new InsightsError("RENDER_FAILED", reply.message);
    return (reply.pages ?? []).map((p) => Buffer.from(p.buffer, p.byteOffset, p.length));
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.workers].map((w) => this.stop(w)));
  }

  private async request(job: WorkerJob, deadlineMs: number): Promise<WorkerReply> {
    if (this.closed) throw new InsightsError("RENDER_FAILED", "the daemon is stopping");
    const w = await this.acquire();
    const id = this.nextId++;
    let timer: NodeJS.Timeout | undefined;
    try {
      return await new Promise<WorkerReply>((resolve) => {
        w.pending.set(id, { resolve });
        const req: WorkerRequest = { ...job, id };
        // Its exit handler fails the card and frees the slot; the next card gets a new worker.
        timer = setTimeout(() => {
          this.o.logger.warn("a card took too long; killing its render worker", { ms: deadlineMs });
          w.child.kill("SIGKILL");
        }, deadlineMs);
        try {
          w.child.send(req);
        } catch (err) {
          w.pending.delete(id);
          resolve({ id, ok: false, code: "RENDER_FAILED", message: `the render worker is gone: ${err instanceof Error ? err.message : String(err)}` });
        }
      });
    } finally {
      clearTimeout(timer);
      w.renders++;
      this.release(w);
    }
  }

  private acquire(): Promise<Worker> {
    const free = [...this.workers].find((w) => !w.busy);
    if (free) return Promise.resolve(this.take(free));
    // Every worker is busy: this request would wait, so it may start another, up to `size`.
    if (this.workers.size < this.o.size) return Promise.resolve(this.take(this.spawn()));
    // The render queue keeps callers to `size` at a time; a caller waits here only for a worker being replaced.
    return new Promise((resolve) => this.waiters.push((w) => resolve(this.take(w))));
  }

  private take(w: Worker): Worker {
    w.busy = true;
    w.idle?.cancel();
    w.idle = null;
    return w;
  }

  private release(w: Worker): void {
    w.busy = false;
    if (!this.workers.has(w)) return;
    if (w.renders >= (this.o.maxRenders ?? 500)) {
      this.o.logger.debug("replacing a render worker after its quota of cards", { renders: w.renders });
      void this.stop(w);
    } else {
      this.armIdle(w);
    }
    const waiter = this.waiters.shift();
    if (!waiter) return;
    const next = [...this.workers].find((x) => !x.busy);
    if (next) waiter(next);
    else if (this.workers.size < this.o.size && !this.closed) waiter(this.spawn());
    else this.waiters.unshift(waiter);
  }

  private armIdle(w: Worker): void {
    w.idle?.cancel();
    const start = this.o.idleTimer ?? defaultIdleTimer;
    w.idle = start(() => {
      w.idle = null;
      if (w.busy || !this.workers.has(w)) return;
      this.o.logger.debug("stopping an idle render worker", { renders: w.renders });
      void this.stop(w);
    }, this.o.idleMs ?? DEFAULT_RENDER_IDLE_MS);
  }

  private spawn(): Worker {
    // "advanced" serialization carries the PNG bytes as a typed array instead of JSON numbers.
    const child = fork(this.o.workerFile ?? WORKER_FILE, [String(WORKER_IDLE_COLLECT_MS)], {
      serialization: "advanced",
      stdio: ["ignore", "ignore", "pipe", "ipc"],
      execArgv: [...process.execArgv, ...WORKER_NODE_FLAGS],
      env: workerEnv(),
    });
    this.started++;
    const w: Worker = { child, busy: false, renders: 0, idle: null, pending: new Map() };
    this.workers.add(w);
    let stderr = "";
    child.stderr?.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
    // A worker that cannot be started or signalled reports here; its exit (if any) cleans up.
    child.on("error", (err) => this.o.logger.warn("render worker error", { error: err.message }));
    child.on("message", (msg: WorkerReply) => {
      const p = w.pending.get(msg.id);
      if (!p) return;
      w.pending.delete(msg.id);
      p.resolve(msg);
    });
    child.on("exit", (code, signal) => {
      this.workers.delete(w);
      w.idle?.cancel();
      // During close() the workers are stopped on purpose; anything else mid-render is a crash.
      if (w.pending.size && !this.closed) this.o.logger.error("a render worker died while drawing a card", { code, signal, stderr: stderr.trim() });
      for (const [id, p] of w.pending) p.resolve({ id, ok: false, code: "RENDER_FAILED", message: `the render worker exited (${signal ?? `code ${code}`})` });
      w.pending.clear();
    });
    return w;
  }

  private stop(w: Worker): Promise<void> {
    this.workers.delete(w);
    w.idle?.cancel();
    w.idle = null;
    if (w.child.exitCode !== null || w.child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      w.child.once("exit", () => resolve());
      // Closing the IPC channel is the worker's cue to exit; a stuck one is killed.
      if (w.child.connected) w.child.disconnect();
      else w.child.kill("SIGKILL");
      setTimeout(() => w.child.kill("SIGKILL"), 5000).unref();
    });
  }
}
