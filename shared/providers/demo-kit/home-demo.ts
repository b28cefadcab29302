// The demo of a CLI provider whose recording is a home dir holding its config dir (Claude Code's
// `.claude`, Codex's `.codex`, Gemini CLI's `.gemini`): the copy is moved to now in whole seconds,
// every JSON-lines file, SQLite database and bare date in it (tree-shift.ts), then the provider
// renames what it names by a time. Each provider's demo/demo.ts fills in the rest.
import { join } from "node:path";
import type { DemoWriter } from "../contract.js";
import type { DemoCopy, DemoEntry, ProviderDemo } from "../demo-contract.js";
import type { Random } from "../../base/random.js";
import { wholeSecondShift, type TimeShift } from "./time-shift.js";
import { shiftProviderTree } from "./tree-shift.js";

interface HomeDemo {
  manifestKey: string;
  folder: string;
  /** The config dir inside the home when the manifest entry names none (it does: `configDir`). */
  configDir: string;
  /** The provider writes unix seconds too (Codex). */
  seconds: boolean;
  /** Renames, after the shift, what the provider names by a time (its config dir's copy). */
  rename?: (configDir: string, shift: TimeShift) => void;
  writer(configDir: string, random: Random): DemoWriter;
}

/** The config dir of a home-dir recording: the entry's `configDir`, else the provider's default. */
export function demoConfigDir(copy: Pick<DemoCopy, "dir" | "entry">, fallback: string): string {
  return join(copy.dir, typeof copy.entry.configDir === "string" ? copy.entry.configDir : fallback);
}

export function homeDemo(d: HomeDemo): ProviderDemo {
  const shiftOf = (entry: DemoEntry, now: number): TimeShift => wholeSecondShift(entry.recordedFrom, entry.recordedUntil, now);
  return {
    manifestKey: d.manifestKey,
    folder: d.folder,
    offsetAt: (entry, at) => shiftOf(entry, at).offsetMs,
    moveToNow: (dir, entry, now) => {
      const shift = shiftOf(entry, now);
      shiftProviderTree(dir, shift, { seconds: d.seconds });
      d.rename?.(demoConfigDir({ dir, entry }, d.configDir), shift);
    },
    writer: (copy, random) => d.writer(demoConfigDir(copy, d.configDir), random),
  };
}
