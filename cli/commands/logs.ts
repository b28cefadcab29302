import { defineCommand } from "citty";
import { ConfigError } from "../../shared/base/errors.js";
import { isLevel, formatRecord, levelRank, type Level, type LogRecord } from "../../shared/base/log/record.js";
import { readLastRecords } from "../../shared/base/log/tail.js";
import type { Config } from "../../shared/config/options.js";
import type { Paths } from "../../shared/base/paths.js";
import { cliContext } from "../context.js";
import { ControlClient } from "../control-client.js";
import { followLogFile } from "../log-follow.js";
import { fail, note, say } from "../output.js";

export default defineCommand({
  meta: { name: "logs", description: "Show the daemon's log (or with --gateway the gateway's); -f follows it (through the daemon, or daemon.log when none runs)" },
  args: {
    follow: { type: "boolean", alias: "f", description: "Keep printing new lines as the daemon writes them" },
    lines: { type: "string", alias: "n", description: "How many past lines to show (default 50)", valueHint: "N" },
    level: { type: "string", description: "Minimum level: trace, debug, info, warn, error, fatal", valueHint: "level" },
    json: { type: "boolean", description: "Print each record as one JSON object per line" },
    gateway: { type: "boolean", description: "The OpenClaw gateway's log (as gateway-insights parsed it) instead of the daemon's own" },
  },
  async run({ args }) {
    try {
      const { paths, loaded } = cliContext();
      const n = args.lines === undefined ? 50 : Number(args.lines);
      if (!Number.isInteger(n) || n < 0 || n > 100_000) throw new ConfigError("lines", args.lines, "flag -n", "an integer from 0 to 100000");
      const levelArg = args.level?.toLowerCase();
      if (levelArg !== undefined && !isLevel(levelArg)) throw new ConfigError("level", args.level, "flag --level", "one of trace, debug, info, warn, error, fatal");
      const level: Level = levelArg ?? "trace";
      if (args.gateway) return await gatewayLogs(paths, loaded.config, { n, level: levelArg ?? "info", follow: args.follow === true, json: args.json === true });
      const print = (r: LogRecord): void => say(args.json ? JSON.stringify(r) : formatRecord(r));

      const client = args.follow ? await ControlClient.tryConnect(paths.socketFile) : null;
      if (!client) {
        for (const r of readLastRecords(paths.logFile, loaded.config.logMaxFiles, n, level)) print(r);
        if (!args.follow) return;
        // Nothing to stream from: follow the file (a daemon started later writes there too).
        note(`gateway-insights is not running; following ${paths.logFile} (Ctrl-C to stop)`);
        const min = levelRank(level);
        const follower = followLogFile(paths.logFile, (r) => {
          if (levelRank(r.level) >= min) print(r);
        });
        process.on("SIGINT", () => {
          follower.stop();
          process.exit(0);
        });
        process.on("SIGTERM", () => {
          follower.stop();
          process.exit(0);
        });
        return;
      }
      // The daemon sends its in-memory backlog first, then live records: no gap, no duplicate.
      process.on("SIGINT", () => {
        client.close();
        process.exit(0);
      });
      await client.stream("logs.follow", { backlog: n, level }, (r) => print(r as LogRecord));
      note("the daemon stopped; no more lines");
    } catch (err) {
      fail(err);
    }
  },
});

interface GatewayLine {
  time: string;
  level: string;
  module: string;
  message: string;
  agentId: string | null;
}

function formatGatewayLine(e: GatewayLine): string {
  const when = e.time.replace("T", " ").replace(/\.\d+Z$/, "Z");
  return `${when} ${e.level.padEnd(5)} ${e.module ? `[${e.module}] ` : ""}${e.message}${e.agentId ? `  agent=${e.agentId}` : ""}`;
}

/** `logs --gateway`: through the daemon when it runs (and -f follows); else read in-process from the store and the log file. */
async function gatewayLogs(paths: Paths, config: Config, o: { n: number; level: string; follow: boolean; json: boolean }): Promise<void> {
  const print = (e: GatewayLine): void => say(o.json ? JSON.stringify(e) : formatGatewayLine(e));
  const client = await ControlClient.tryConnect(paths.socketFile);
  if (client) {
    process.on("SIGINT", () => {
      client.close();
      process.exit(0);
    });
    await client.stream("gateway.logs.follow", { backlog: o.n, level: o.level, follow: o.follow }, (e) => print(e as GatewayLine));
    client.close();
    if (o.follow) note("the daemon stopped; no more lines");
    return;
  }
  if (o.follow) note("gateway-insights is not running; showing the gateway log without following (start the daemon to follow it)");
  const { openData } = await import("../../shared/open-data.js");
  const { LogHub } = await import("../../shared/base/log/logger.js");
  const data = openData({ paths, config, env: process.env, logger: new LogHub({ console: "off" }).logger, collector: { channels: false } });
  // The log file's path comes from the OpenClaw config, which the agents pass reads first.
  await data.collector.collectOnce(config.collectTimeoutSeconds * 1000);
  if (o.n > 0) for (const e of data.model.gatewayLog(o.n, o.level)) print(e);
  process.exit(0);
}

