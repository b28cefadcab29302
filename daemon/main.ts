#!/usr/bin/env node
// insightsd: the daemon entry, run in the foreground by systemd or detached by `insightsctl start`.
import { defineCommand, renderUsage, runMain } from "citty";
import { checkArgv, UsageError } from "../shared/config/argv.js";
import { flagsFromArgs, serverArgs } from "../shared/config/flags.js";
import { fitHelp } from "../shared/config/help-fit.js";
import { EXIT } from "../shared/base/exit-codes.js";
import { VERSION } from "../shared/base/version.js";
import { runForeground } from "./run.js";

const args = {
  ...serverArgs,
  detached: { type: "boolean", description: "Started by insightsctl: fall silent on the console once ready" },
} as const;

const main = defineCommand({
  meta: { name: "insightsd", version: VERSION, description: "gateway-insights daemon (runs in the foreground)" },
  args,
  run: ({ args }) => {
    if (args.detached !== true) stopWhenOutputCloses();
    return runForeground({ flags: flagsFromArgs(args), detached: args.detached === true });
  },
});

/**
 * A closed stdout or stderr (`insightsd | head`, a terminal that went away) stops the daemon
 * through its SIGTERM drain, as SIGPIPE would. Unheard, the EPIPE was an uncaught exception whose
 * log line failed the same way, again and again, filling daemon.log. The signal waits until the
 * daemon listens for it (output may close while it is still starting). Detached, the console is
 * switched off once ready and the parent's pipe closing is expected.
 */
function stopWhenOutputCloses(): void {
  let closed = false;
  const stop = (): void => {
    if (closed) return;
    closed = true;
    const timer = setInterval(() => {
      if (process.listenerCount("SIGTERM") === 0) return;
      clearInterval(timer);
      process.kill(process.pid, "SIGTERM");
    }, 50);
  };
  process.stdout.on("error", stop);
  process.stderr.on("error", stop);
}

// citty drops unknown flags silently (a mistyped --prot in a unit file would go unnoticed).
const argv = process.argv.slice(2);
if (!argv.some((a) => a === "--help" || a === "-h" || ((a === "--version" || a === "-v") && argv.length === 1))) {
  try {
    checkArgv(argv, args, "insightsd");
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`insightsd: ${err.message}\n  ${err.hint}\n`);
    process.exit(EXIT.USAGE);
  }
}
// citty colours help whatever stdout is; plain unless it is a terminal (design §8).
void runMain(main, {
  showUsage: async (cmd, parent) => {
    const text = await renderUsage(cmd, parent);
    process.stdout.write(`${fitHelp(text, { bold: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR })}\n`);
  },
});
