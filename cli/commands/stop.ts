import { defineCommand } from "citty";
import { resolvePaths } from "../../shared/base/paths.js";
import { stopDaemon, type StopOutcome } from "../daemon-process.js";
import { fail, say } from "../output.js";

export function describeStop(outcome: StopOutcome): string {
  switch (outcome.result) {
    case "not-running":
      return `gateway-insights is not running${outcome.cleaned ? " (removed a stale pid file and socket)" : ""}`;
    case "stopped":
      return `stopped gateway-insights (pid ${outcome.pid}) via ${outcome.via}`;
    case "killed":
      return `gateway-insights (pid ${outcome.pid}) did not stop in time and was killed with SIGKILL`;
  }
}

export default defineCommand({
  meta: { name: "stop", description: "Stop the daemon: control-socket shutdown, then SIGTERM, then SIGKILL" },
  async run() {
    try {
      say(describeStop(await stopDaemon(resolvePaths())));
    } catch (err) {
      fail(err);
    }
  },
});
