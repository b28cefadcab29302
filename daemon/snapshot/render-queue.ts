// The render queue (design §6): at most `concurrency` renders at once, at most `maxQueue`
// waiting, none waiting longer than `queueWaitMs`. Identical requests arriving while one is
// queued or running share it instead of rendering twice.
import { InsightsError } from "../../shared/base/errors.js";

interface RenderQueueOptions {
  concurrency: number;
  maxQueue: number;
  queueWaitMs: number;
}

interface Waiting {
  start: () => void;
  timer: NodeJS.Timeout;
}

export class RenderQueue {
  private active = 0;
  private readonly waiting: Waiting[] = [];
  private readonly inFlight = new Map<string, Promise<unknown>>();

  constructor(private readonly o: RenderQueueOptions) {}

  stats(): { active: number; queued: number; concurrency: number; maxQueue: number } {
    return { active: this.active, queued: this.waiting.length, concurrency: this.o.concurrency, maxQueue: this.o.maxQueue };
  }

  /** Whether a call with this key is queued or running now (a new one would share its result). */
  has(key: string): boolean {
    return this.inFlight.has(key);
  }

  /** Runs `task` under the queue's limits; a call with the key of one in flight gets its result. */
  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const existing = this.inFlight.get(key);
    if (existing) return existing as Promise<T>;
    const p = this.schedule(task).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, p);
    return p;
  }

  private schedule<T>(task: () => Promise<T>): Promise<T> {
    if (this.active < this.o.concurrency) return this.start(task);
    if (this.waiting.length >= this.o.maxQueue) {
      const retryAfterSeconds = Math.max(1, Math.ceil(this.o.queueWaitMs / 1000));
      return Promise.reject(new InsightsError("QUEUE_FULL", `the render queue is full (${this.o.maxQueue} waiting); try again shortly`, { retryAfterSeconds }));
    }
    return new Promise<T>((resolve, reject) => {
      const entry: Waiting = {
        start: () => {
          clearTimeout(entry.timer);
          this.start(task).then(resolve, reject);
        },
        timer: setTimeout(() => {
          const i = this.waiting.indexOf(entry);
          if (i >= 0) this.waiting.splice(i, 1);
          reject(new InsightsError("QUEUE_TIMEOUT", `waited ${Math.round(this.o.queueWaitMs / 1000)} s for a renderer; try again shortly`, { retryAfterSeconds: Math.max(1, Math.ceil(this.o.queueWaitMs / 1000)) }));
        }, this.o.queueWaitMs),
      };
      this.waiting.push(entry);
    });
  }

  private async start<T>(task: () => Promise<T>): Promise<T> {
    this.active++;
    try {
      return await task();
    } finally {
      this.active--;
      this.waiting.shift()?.start();
    }
  }
}
