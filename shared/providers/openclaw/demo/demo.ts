// OpenClaw's demo, as its module declares it (shared/providers/demo-contract.ts): the recorded
// state dir shared/demo/openclaw-state, moved to now to the millisecond, its writer, and the demo
// gateway that answers as the recorded one did (shared/demo/gateway/).
import { join } from "node:path";
import type { DemoEntry, ProviderDemo } from "../../demo-contract.js";
import { recordingShift } from "../../demo-kit/time-shift.js";
import { unshiftCronExpressionRuns } from "./cron-schedules.js";
import { demoLockHeldElsewhere, removeDemoLock, startDemoGateway, writeDemoLock } from "./gateway.js";
import { shiftStateTree } from "./state-shift.js";
import { OpenclawDemoWriter } from "./writer.js";

const shiftOf = (entry: DemoEntry, now: number) => recordingShift(entry.recordedFrom, entry.recordedUntil, now);

/** When the recorded gateway started (its lock file and "gateway ready" log line); the recording's start when the entry does not say. */
function gatewayStartedAt(entry: DemoEntry): number {
  return typeof entry.gatewayStartedAt === "number" ? entry.gatewayStartedAt : entry.recordedFrom;
}

export const openclawDemo: ProviderDemo = {
  manifestKey: "openclaw",
  folder: "openclaw-state",
  offsetAt: (entry, at) => shiftOf(entry, at).offsetMs,
  moveToNow: (dir, entry, now) => {
    shiftStateTree(dir, shiftOf(entry, now));
    unshiftCronExpressionRuns(dir);
  },
  writer: (copy, random) => new OpenclawDemoWriter({ stateDir: copy.dir, random }),
  gateway: async (copy, o) => {
    // A daemon already serves this copy's gateway (the CLI renders a card in-process beside it): its answers are ours too.
    if (demoLockHeldElsewhere(copy.dir)) return null;
    const startedAt = gatewayStartedAt(copy.entry) + copy.offsetMs;
    const gateway = await startDemoGateway({ stateDir: copy.dir, answersDir: join(o.root, "gateway"), clock: o.clock, startedAt, random: o.random });
    let lockFile: string;
    try {
      lockFile = writeDemoLock({ stateDir: copy.dir, port: gateway.port, startedAt });
    } catch (err) {
      await gateway.close();
      throw err;
    }
    return {
      port: gateway.port,
      url: gateway.url,
      close: async () => {
        removeDemoLock(lockFile);
        await gateway.close();
      },
    };
  },
};
