import { defineCommand } from "citty";
import { argvFromArgs, flagsFromArgs, serverArgs } from "../../shared/config/flags.js";
import { cliContext } from "../context.js";
import { spawnDaemon, stopDaemon } from "../daemon-process.js";
import { fail, say } from "../output.js";
import { describeStop } from "./stop.js";

export default defineCommand({
  meta: { name: "restart", description: "Stop the daemon if it runs, then start it again" },
  args: serverArgs,
  async run({ args }) {
    try {
      // Validate first: a restart with a bad config must not leave nothing running.
      const { paths } = cliContext(flagsFromArgs(args), { atStart: true });
      const outcome = await stopDaemon(paths);
      if (outcome.result !== "not-running") say(describeStop(outcome));
      const started = await spawnDaemon(paths, argvFromArgs(args));
      say(`gateway-insights ${started.status.version} started (pid ${started.pid})`);
      say(`Dashboard: ${started.dashboardUrl}`);
    } catch (err) {
      fail(err);
    }
  },
});
