// A provider's demo, part of its module (issue 21): its bundled recording under shared/demo/, how a
// copy of it is moved to now, the writer that keeps appending to the copy and, for a provider with
// an agent gateway, the gateway the demo serves. A provider declares it as `demo` in its folder's
// module.ts; the demo engine (shared/demo-replay/) iterates the registered ones and names none.
import type { Clock } from "../base/clock.js";
import type { Random } from "../base/random.js";
import type { DemoWriter } from "./contract.js";

/**
 * A provider's entry in shared/demo/demo-state.json (written by test/tools/demo/): the window its
 * recording's times fall in (epoch ms), and whatever else its own demo recorded there (read by the
 * provider alone).
 */
export interface DemoEntry {
  readonly recordedFrom: number;
  readonly recordedUntil: number;
  readonly [field: string]: unknown;
}

/** An installed copy of a provider's recording. */
export interface DemoCopy {
  /** The copy of its folder, in the demo dir. */
  readonly dir: string;
  readonly entry: DemoEntry;
  /** How far its times were moved (ms). */
  readonly offsetMs: number;
}

/** The demo's own agent gateway, listening on loopback. */
export interface DemoGateway {
  port: number;
  /** http://127.0.0.1:<port> */
  url: string;
  close(): Promise<void>;
}

export interface DemoGatewayOptions {
  /** The bundle (shared/demo, or a test's). */
  root: string;
  clock: Clock;
  random: Random;
}

export interface ProviderDemo {
  /** Its entry's key in shared/demo/demo-state.json; a bundle without one has no demo of it. */
  readonly manifestKey: string;
  /** Its recording's folder under shared/demo/; the copy gets the same name in the demo dir. */
  readonly folder: string;
  /** How far a copy installed at `at` is moved (ms), so its recording ends at (or just before) `at`. */
  offsetAt(entry: DemoEntry, at: number): number;
  /** Moves a new copy (`dir`, private, not yet in place) by `offsetAt(entry, now)`: its timestamps, and names that hold a time. */
  moveToNow(dir: string, entry: DemoEntry, now: number): void;
  /** The writer that appends new activity to the installed copy while the demo runs. */
  writer(copy: DemoCopy, random: Random): DemoWriter;
  /**
   * A provider with the `gateway` capability: starts the demo's gateway over its copy and points
   * the copy at it; null when another live process already serves this copy's.
   */
  gateway?(copy: DemoCopy, o: DemoGatewayOptions): Promise<DemoGateway | null>;
}
