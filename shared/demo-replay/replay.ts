// The living demo: every few seconds (jittered) each provider's demo writer appends a little new
// activity to its demo copy, in that provider's own on-disk format, so the normal readers pick it
// up and the dashboard's charts, live log and `dataChanged` move as they would on a busy gateway.
// Writers are per provider behind one interface, each from its provider's demo (runtime.ts). Time
// and timers are injected so a test can step it by hand.
import type { Clock } from "../base/clock.js";
import { errorMessage } from "../base/errors.js";
import type { Logger } from "../base/log/logger.js";
import type { Random } from "../base/random.js";
import type { DemoStep, DemoWriter } from "../providers/contract.js";

/** setTimeout/clearTimeout, injectable: tests hold the scheduled step and run it when they choose. */
export interface ReplayTimers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const realTimers: ReplayTimers = {
  set: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref();
    return t;
  },
  clear: (h) => clearTimeout(h as NodeJS.Timeout),
};

interface DemoReplayOptions {
  writers: DemoWriter[];
  clock: Clock;
  random: Random;
  logger: Logger;
  timers?: ReplayTimers;
  /** The pause between steps is drawn from [minMs, maxMs]. */
  minMs?: number;
  maxMs?: number;
  /** After each step (the demo install marks its copy as fresh here). */
  onStep?: (steps: DemoStep[], now: number) => void;
}

export class DemoReplay {
  private handle: unknown = null;
  private running = false;
  /** The last failure of each writer: a demo copy that stays broken is reported once, not every step. */
  private readonly failing = new Map<string, string>();

  constructor(private readonly o: DemoReplayOptions) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule();
  }

  stop(): void {
    this.running = false;
    if (this.handle !== null) (this.o.timers ?? realTimers).clear(this.handle);
    this.handle = null;
    for (const w of this.o.writers) {
      try {
        w.close();
      } catch (err) {
        this.o.logger.warn("demo writer did not close cleanly", { provider: w.provider, error: errorMessage(err) });
      }
    }
  }

  /** One step of every writer, now. A writer that fails is logged and tried again next step. */
  tick(): DemoStep[] {
    const now = this.o.clock.now();
    const steps: DemoStep[] = [];
    for (const w of this.o.writers) {
      try {
        steps.push(w.step(now));
        if (this.failing.delete(w.provider)) this.o.logger.info("demo replay writes again", { provider: w.provider });
      } catch (err) {
        const error = errorMessage(err);
        const level = this.failing.get(w.provider) === error ? "debug" : "warn";
        this.failing.set(w.provider, error);
        this.o.logger[level]("demo replay step failed", { provider: w.provider, error });
      }
    }
    if (steps.length) this.o.logger.debug("demo replay step", { wrote: steps.flatMap((s) => s.wrote.map((w) => `${s.provider}: ${w}`)) });
    this.o.onStep?.(steps, now);
    return steps;
  }

  private schedule(): void {
    if (!this.running) return;
    const min = this.o.minMs ?? 5_000;
    const max = this.o.maxMs ?? 15_000;
    const wait = Math.round(min + this.o.random() * (max - min));
    this.handle = (this.o.timers ?? realTimers).set(() => {
      this.handle = null;
      if (!this.running) return;
      this.tick();
      this.schedule();
    }, wait);
  }
}
