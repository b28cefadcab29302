// Demo mode at run time: the demo gateway on loopback (with the demo copy's lock file pointing at
// it) and, in the daemon, the replay that keeps appending activity. `insightsctl snapshot` without
// a daemon starts the gateway only, for the one card it renders, unless a daemon already serves
// this demo copy (then its gateway answers). Both come from the installed copies' demos (each
// provider's module declares its own); this file names no provider.
import type { Clock } from "../base/clock.js";
import { errorMessage } from "../base/errors.js";
import type { Logger } from "../base/log/logger.js";
import { demoRoot, touchDemoState, type InstalledDemo } from "./install.js";
import type { Random } from "../base/random.js";
import type { DemoWriter } from "../providers/contract.js";
import type { DemoGateway } from "../providers/demo-contract.js";
import { DemoReplay, type ReplayTimers } from "./replay.js";

export interface DemoRuntimeOptions {
  /** The copy that carries the marker (installDemoState's `target`): the gateway provider's state dir. */
  stateDir: string;
  installed: InstalledDemo;
  clock: Clock;
  logger: Logger;
  /** Append new activity every few seconds (the daemon); off for a one-off in-process card. */
  replay: boolean;
  random?: Random;
  timers?: ReplayTimers;
  /** The writers to run (tests); default one per provider of the installed demo. */
  writers?: DemoWriter[];
  /** shared/demo by default. */
  root?: string;
}

export interface DemoRuntime {
  gateway: DemoGateway | null;
  replay: DemoReplay | null;
  stop(): Promise<void>;
}

/** A writer per installed copy, in the registry's order. */
function demoWriters(installed: InstalledDemo, random: Random): DemoWriter[] {
  return installed.copies.map((c) => c.demo.writer(c, random));
}

export async function startDemoRuntime(o: DemoRuntimeOptions): Promise<DemoRuntime> {
  const random = o.random ?? Math.random;
  const log = o.logger.child("demo");
  // One gateway per daemon, as outside the demo: the first copy whose demo serves one.
  const withGateway = o.installed.copies.find((c) => c.demo.gateway);
  let gateway: DemoGateway | null = null;
  if (withGateway?.demo.gateway) {
    // Without its gateway the demo still shows its data (the gateway then reads as down); it is
    // no reason to refuse to start.
    try {
      gateway = await withGateway.demo.gateway(withGateway, { root: o.root ?? demoRoot(), clock: o.clock, random });
      if (gateway) log.info("demo gateway listening", { url: gateway.url });
      else log.debug("another process serves this demo copy's gateway; using it");
    } catch (err) {
      log.error("the demo gateway could not start; the demo runs without it", { error: errorMessage(err) });
    }
  }
  let replay: DemoReplay | null = null;
  if (o.replay) {
    replay = new DemoReplay({
      writers: o.writers ?? demoWriters(o.installed, random),
      clock: o.clock,
      random,
      logger: log,
      ...(o.timers ? { timers: o.timers } : {}),
      onStep: (_steps, now) => {
        try {
          touchDemoState(o.stateDir, now);
        } catch (err) {
          log.debug("could not mark the demo copy as fresh", { error: errorMessage(err) });
        }
      },
    });
    replay.start();
  }
  let stopping: Promise<void> | null = null;
  return {
    gateway,
    replay,
    stop: () =>
      (stopping ??= (async () => {
        replay?.stop();
        await gateway?.close();
      })()),
  };
}
