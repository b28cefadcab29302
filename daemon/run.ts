// Runs the daemon in this process until it stops: signal handling (SIGTERM/SIGINT drain, SIGHUP
// reload) and last-resort error handling. Used by insightsd and `insightsctl start --foreground`.
import type { Flags } from "../shared/config/load.js";
import { errorMessage } from "../shared/base/errors.js";
import { EXIT, exitCodeFor } from "../shared/base/exit-codes.js";
import { resolvePaths } from "../shared/base/paths.js";
import { Daemon } from "./daemon.js";

export async function runForeground({ flags, detached = false }: { flags: Flags; detached?: boolean }): Promise<never> {
  let daemon = await startOrExit(flags, detached);
  // A signal that arrives while the daemon starts anew (below) stops the new one too.
  let signalled: string | null = null;
  const onSignal = (name: string): void => {
    signalled = name;
    void daemon.stop(name);
  };
  process.on("SIGTERM", () => onSignal("SIGTERM"));
  process.on("SIGINT", () => onSignal("SIGINT"));
  process.on("SIGHUP", () => {
    try {
      daemon.reload();
    } catch {
      // reload() logged why; the running config stays
    }
  });
  process.on("unhandledRejection", (reason) => daemon.log.error("unhandled promise rejection", { error: errorMessage(reason) }));
  process.on("uncaughtException", (err) => {
    // State is unknown after this; stop cleanly and let the supervisor restart us.
    daemon.log.fatal("uncaught exception", { error: err.message, stack: err.stack });
    void daemon.stop("uncaught exception").finally(() => process.exit(EXIT.FAILURE));
  });
  // Real data that appeared (beside the demo, or a first OpenClaw state dir) is read by a new start
  // in this process, on the same port, as a start would have chosen it (Daemon.scheduleDiscovery).
  for (let end = await daemon.done; end.restart && signalled === null; end = await daemon.done) {
    daemon = await startOrExit({ ...flags, port: end.port }, detached);
    if (signalled !== null) void daemon.stop(signalled);
  }
  process.exit(EXIT.OK);
}

async function startOrExit(flags: Flags, detached: boolean): Promise<Daemon> {
  try {
    return await Daemon.start({ paths: resolvePaths(), flags, detached });
  } catch (err) {
    process.stderr.write(`insightsd: ${errorMessage(err)}\n`);
    process.exit(exitCodeFor(err));
  }
}
