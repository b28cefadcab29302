// The daemon's render workers (render-worker.ts): up to `size` child processes, started when
// needed, each drawing one card at a time. A worker is replaced after `maxRenders` cards so its
// memory cannot creep, and stopped after `idleMs` without work so an idle daemon stays small; a
// worker that dies mid-render fails that render (RENDER_FAILED) and the next one gets a new one.
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { InsightsError } from "../../shared/errors.js";
import type { Logger } from "../../shared/log/logger.js";
import type { CardModel } from "../../shared/snapshot/card-model.js";
import type { CardImageFormat } from "../../shared/snapshot/render.js";
import type { WorkerJob, WorkerReply, WorkerRequest } from "./render-worker.js";

export interface RenderPoolOptions {
  size: number;
  logger: Logger;
  /** Replace a worker after this many renders. */
  maxRenders?: number;
  /** Stop a worker after this long without work. */
  idleMs?: number;
  /**
   * Longest one card may take (the snapshot's total timeout): a worker past it is killed, so a
   * render that never ends cannot keep its slot and stall every snapshot after it.
   */
  renderTimeoutMs?: number;
}

interface Worker {
  child: ChildProcess;
  busy: boolean;
  renders: number;
  idleTimer: NodeJS.Timeout | null;
  pending: Map<number, { resolve: (r: WorkerReply) => void }>;
}

// The worker runs from source under tsx (tests) and from dist when built.
const WORKER_FILE = fileURLToPath(new URL(import.meta.url.endsWith(".ts") ? "./render-worker.ts" : "./render-worker.js", import.meta.url));

/**
 * resvg keeps each card's pixels (~7 MB for a full PNG) in memory V8 does not see, so the heap
 * looks small and a collection comes late: measured, an idle worker held ~450 MB. A full collection
 * after each card kept it near 300 MB but doubled the CPU a card costs (125 -> 250 ms: the
 * renderer's warm state is lost each time; one every 10 or 25 cards cost 12-25 % and kept no less),
 * so a worker collects once it has been idle this long: nothing under load, and the memory comes
 * back as soon as the load stops.
 */
export const WORKER_IDLE_COLLECT_MS = 1000;

export class RenderPool {
  private readonly workers = new Set<Worker>();
  private readonly waiters: Array<(w: Worker) => void> = [];
  private nextId = 1;
  private closed = false;
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

  /** Draws one card in a worker. */
  async render(model: CardModel, format: CardImageFormat): Promise<Buffer> {
    const reply = await this.request({ kind: "render", model, format }, this.o.renderTimeoutMs ?? 60_000);
    if (!reply.ok) throw new InsightsError("RENDER_FAILED", reply.message);
    return Buffer.from(reply.body?.buffer ?? new ArrayBuffer(0), reply.body?.byteOffset ?? 0, reply.body?.length ?? 0);
  }

  /** Starts one worker and loads its fonts, so the first real card is fast. */
  async warm(): Promise<number> {
    const reply = await this.request({ kind: "warm" }, 120_000);
    if (!reply.ok) throw new InsightsError("RENDER_FAILED", reply.message);
    return reply.ms;
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
    if (this.workers.size < this.o.size) return Promise.resolve(this.take(this.spawn()));
    // The render queue keeps callers to `size` at a time; a caller waits here only for a worker being replaced.
    return new Promise((resolve) => this.waiters.push((w) => resolve(this.take(w))));
  }

  private take(w: Worker): Worker {
    w.busy = true;
    if (w.idleTimer) clearTimeout(w.idleTimer);
    w.idleTimer = null;
    return w;
  }

  private release(w: Worker): void {
    w.busy = false;
    if (!this.workers.has(w)) return;
    if (w.renders >= (this.o.maxRenders ?? 500)) {
      this.o.logger.debug("replacing a render worker after its quota of cards", { renders: w.renders });
      void this.stop(w);
    } else {
      w.idleTimer = setTimeout(() => void this.stop(w), this.o.idleMs ?? 300_000);
      w.idleTimer.unref();
    }
    const waiter = this.waiters.shift();
    if (!waiter) return;
    const next = [...this.workers].find((x) => !x.busy);
    if (next) waiter(next);
    else if (this.workers.size < this.o.size && !this.closed) waiter(this.spawn());
    else this.waiters.unshift(waiter);
  }

  private spawn(): Worker {
    // "advanced" serialization carries the PNG bytes as a typed array instead of JSON numbers.
    // --expose-gc: the worker collects once it goes idle (WORKER_IDLE_COLLECT_MS).
    const child = fork(WORKER_FILE, [String(WORKER_IDLE_COLLECT_MS)], { serialization: "advanced", stdio: ["ignore", "ignore", "pipe", "ipc"], execArgv: [...process.execArgv, "--expose-gc"] });
    this.started++;
    const w: Worker = { child, busy: false, renders: 0, idleTimer: null, pending: new Map() };
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
      if (w.idleTimer) clearTimeout(w.idleTimer);
      // During close() the workers are stopped on purpose; anything else mid-render is a crash.
      if (w.pending.size && !this.closed) this.o.logger.error("a render worker died while drawing a card", { code, signal, stderr: stderr.trim() });
      for (const [id, p] of w.pending) p.resolve({ id, ok: false, code: "RENDER_FAILED", message: `the render worker exited (${signal ?? `code ${code}`})` });
      w.pending.clear();
    });
    return w;
  }

  private stop(w: Worker): Promise<void> {
    this.workers.delete(w);
    if (w.idleTimer) clearTimeout(w.idleTimer);
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
