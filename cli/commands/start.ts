import { defineCommand } from "citty";
import { argvFromArgs, flagsFromArgs, serverArgs } from "../../shared/config/flags.js";
import { errorMessage, InsightsError } from "../../shared/base/errors.js";
import { cliContext } from "../context.js";
import { ControlClient } from "../control-client.js";
import { spawnDaemon, waitUntilReady } from "../daemon-process.js";
import { fail, note, say } from "../output.js";
import { stopWhenOutputCloses } from "../stdio.js";
import type { DaemonStatus } from "../../shared/control/protocol.js";
import { displayNames, nameOfWord, wordHas } from "../../shared/providers/registry.js";

/** `OpenClaw (/home/op/.openclaw), Claude Code, Codex`: what the started daemon reads. */
function describeProviders(s: DaemonStatus): string {
  return (s.providers ?? []).map((p) => (wordHas(p.provider, "gateway") && s.openclawDir ? `${nameOfWord(p.provider)} (${s.openclawDir})` : nameOfWord(p.provider))).join(", ") || "nothing yet";
}

export default defineCommand({
  meta: { name: "start", description: "Start the daemon in the background (or --foreground) and print the dashboard URL" },
  args: {
    ...serverArgs,
    foreground: { type: "boolean", description: "Run in this terminal instead of detaching (Ctrl-C stops it)" },
  },
  async run({ args }) {
    try {
      const { paths } = cliContext(flagsFromArgs(args), { atStart: true });
      const running = await ControlClient.tryConnect(paths.socketFile);
      if (running) {
        const s = await running.call<DaemonStatus>("status").finally(() => running.close());
        throw new InsightsError("ALREADY_RUNNING", `gateway-insights is already running (pid ${s.pid}) at ${s.url}`, { pid: s.pid });
      }
      if (args.foreground) {
        const { runForeground } = await import("../../daemon/run.js");
        // A closed terminal or pipe stops the daemon through its own SIGTERM drain, not mid-write.
        stopWhenOutputCloses();
        const daemonDone = runForeground({ flags: flagsFromArgs(args) });
        // The sign-in link, as a background start prints it: asked of our own control socket.
        try {
          const ready = await waitUntilReady(paths, process.pid, { timeoutMs: 60_000 });
          say(`Dashboard: ${ready.dashboardUrl}`);
        } catch (err) {
          note(`could not get the sign-in link (${errorMessage(err)}); \`insightsctl url\` prints it`);
        }
        await daemonDone;
        return;
      }
      const started = await spawnDaemon(paths, argvFromArgs(args));
      const what = started.status.demo ? `serving the bundled demo state (no ${displayNames("or")} data found)` : `reading ${describeProviders(started.status)}`;
      say(`gateway-insights ${started.status.version} started (pid ${started.pid}), ${what}`);
      say(`Dashboard: ${started.dashboardUrl}`);
    } catch (err) {
      fail(err);
    }
  },
});
