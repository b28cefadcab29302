import { defineCommand } from "citty";
import type { DaemonStatus } from "../../shared/control/protocol.js";
import { EXIT } from "../../shared/exit-codes.js";
import { resolvePaths } from "../../shared/paths.js";
import { describeReasons } from "../../shared/queries/health.js";
import { ControlClient } from "../control-client.js";
import { fail, formatBytes, formatDuration, printJson, say } from "../output.js";

/** `status --json` when nothing runs; the running shape is DaemonStatus (README documents both). */
export interface NotRunningStatus {
  running: false;
  stateDir: string;
  socket: string;
}

export default defineCommand({
  meta: { name: "status", description: "Show whether the daemon runs and how it is; exit 0 running, 3 not running" },
  args: { json: { type: "boolean", description: "Print JSON (stable shape, see README)" } },
  async run({ args }) {
    try {
      const paths = resolvePaths();
      const client = await ControlClient.tryConnect(paths.socketFile);
      if (!client) {
        const down: NotRunningStatus = { running: false, stateDir: paths.stateDir, socket: paths.socketFile };
        if (args.json) printJson(down);
        else say("gateway-insights is not running");
        process.exit(EXIT.NOT_RUNNING);
      }
      const s = await client.call<DaemonStatus>("status").finally(() => client.close());
      if (args.json) return printJson(s);
      const gw = s.gateway;
      say(`gateway-insights ${s.version}: running (pid ${s.pid}), up ${formatDuration(s.uptimeSeconds)}`);
      // The one verdict /health and GraphQL give too, with the checks behind it when it is not ok.
      const reasons = s.healthReasons ?? [];
      say(`  health     ${s.health}${reasons.length ? ` (${describeReasons(reasons)})` : ""}`);
      say(`  dashboard  ${s.url}/   (insightsctl url prints the sign-in link)`);
      say(`  data       ${s.demo ? `demo state (bundled sample) in ${s.openclawDir}` : s.openclawDir}`);
      say(`  gateway    ${s.demo ? "none (demo)" : gw.up ? `up, OpenClaw ${gw.version ?? "?"}, pid ${gw.pid ?? "?"}, ${gw.latencyMs ?? "?"} ms, ${gw.url}` : `down: ${gw.error ?? "no answer"} (${gw.url})`}`);
      const troubled = s.sources.filter((x) => x.status !== "CONNECTED");
      say(`  sources    ${s.sources.length - troubled.length} of ${s.sources.length} connected${troubled.map((x) => `; ${x.id} ${x.status}${x.lastError ? `: ${x.lastError}` : ""}`).join("")}`);
      say(`  store      ${s.store.ok ? "ok" : `error: ${s.store.error}`}, ${formatBytes(s.store.sizeBytes)}, schema v${s.store.schemaVersion}, ${s.store.path}`);
      say(`  auth       ${s.auth}`);
      say(`  log        ${s.logFile}`);
    } catch (err) {
      fail(err);
    }
  },
});
