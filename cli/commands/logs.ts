import { defineCommand } from "citty";
import { ConfigError } from "../../shared/errors.js";
import { isLevel, formatRecord, type Level, type LogRecord } from "../../shared/log/record.js";
import { readLastRecords } from "../../shared/log/tail.js";
import { cliContext } from "../context.js";
import { ControlClient } from "../control-client.js";
import { fail, note, say } from "../output.js";

export default defineCommand({
  meta: { name: "logs", description: "Show the daemon's log; -f follows it live through the daemon" },
  args: {
    follow: { type: "boolean", alias: "f", description: "Keep printing new lines as the daemon writes them" },
    lines: { type: "string", alias: "n", description: "How many past lines to show (default 50)", valueHint: "N" },
    level: { type: "string", description: "Minimum level: trace, debug, info, warn, error, fatal", valueHint: "level" },
    json: { type: "boolean", description: "Print each record as one JSON object per line" },
  },
  async run({ args }) {
    try {
      const { paths, loaded } = cliContext();
      const n = args.lines === undefined ? 50 : Number(args.lines);
      if (!Number.isInteger(n) || n < 0 || n > 100_000) throw new ConfigError("lines", args.lines, "flag -n", "an integer from 0 to 100000");
      const levelArg = args.level?.toLowerCase();
      if (levelArg !== undefined && !isLevel(levelArg)) throw new ConfigError("level", args.level, "flag --level", "one of trace, debug, info, warn, error, fatal");
      const level: Level = levelArg ?? "trace";
      const print = (r: LogRecord): void => say(args.json ? JSON.stringify(r) : formatRecord(r));

      const client = args.follow ? await ControlClient.tryConnect(paths.socketFile) : null;
      if (!client) {
        if (args.follow) note("gateway-insights is not running; showing daemon.log without following");
        for (const r of readLastRecords(paths.logFile, loaded.config.logMaxFiles, n, level)) print(r);
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
