import { defineCommand } from "citty";
import { argvFromArgs, flagsFromArgs, serverArgs } from "../../shared/config/flags.js";
import { InsightsError } from "../../shared/errors.js";
import { cliContext } from "../context.js";
import { ControlClient } from "../control-client.js";
import { spawnDaemon } from "../daemon-process.js";
import { fail, say } from "../output.js";
import type { DaemonStatus } from "../../shared/control/protocol.js";

export default defineCommand({
  meta: { name: "start", description: "Start the daemon in the background (or --foreground) and print the dashboard URL" },
  args: {
    ...serverArgs,
    foreground: { type: "boolean", description: "Run in this terminal instead of detaching (Ctrl-C stops it)" },
  },
  async run({ args }) {
    try {
      const { paths } = cliContext(flagsFromArgs(args));
      const running = await ControlClient.tryConnect(paths.socketFile);
      if (running) {
        const s = await running.call<DaemonStatus>("status").finally(() => running.close());
        throw new InsightsError("ALREADY_RUNNING", `gateway-insights is already running (pid ${s.pid}) at ${s.url}`, { pid: s.pid });
      }
      if (args.foreground) {
        const { runForeground } = await import("../../daemon/run.js");
        await runForeground({ flags: flagsFromArgs(args) });
        return;
      }
      const started = await spawnDaemon(paths, argvFromArgs(args));
      const what = started.status.demo ? "serving the bundled demo state (no OpenClaw state dir found)" : `reading ${started.status.openclawDir}`;
      say(`gateway-insights ${started.status.version} started (pid ${started.pid}), ${what}`);
      say(`Dashboard: ${started.dashboardUrl}`);
    } catch (err) {
      fail(err);
    }
  },
});
