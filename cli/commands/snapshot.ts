import { defineCommand } from "citty";
import { accessSync, constants, statSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { SnapshotReply } from "../../shared/control/protocol.js";
import { errorMessage, InsightsError } from "../../shared/base/errors.js";
import { exitCodeFor } from "../../shared/base/exit-codes.js";
import { cliSnapshotParams } from "../../shared/snapshot/cli-params.js";
import { cliContext } from "../context.js";
import { ControlClient } from "../control-client.js";
import { note } from "../output.js";
import { timeoutFlag } from "../timeout-flag.js";

const WHAT_TO_DO: Partial<Record<string, string>> = {
  INVALID_PARAM: "See `insightsctl snapshot --help` for the allowed values.",
  RATE_LIMITED: "Wait the time it says, or raise snapshotRateLimitPerMinute.",
  QUEUE_FULL: "The daemon is busy rendering; try again in a few seconds.",
  QUEUE_TIMEOUT: "The daemon is busy rendering; try again in a few seconds.",
  COLLECT_TIMEOUT: "No source answered in time; check `insightsctl status` and the gateway, or use --quick for what is already collected.",
  TOTAL_TIMEOUT: "Try --quick, a smaller --detail, or raise totalTimeoutSeconds.",
  PAYLOAD_TOO_LARGE: "Try --format json or svg, or raise snapshotMaxBytes.",
  GATEWAY_UNREACHABLE: "Start the gateway (`openclaw gateway run`) or point --openclaw-dir / OPENCLAW_STATE_DIR at its state dir.",
  RENDER_FAILED: "See `insightsctl logs -n 50`; report it if it persists.",
  OUTPUT_FAILED: "Check the path given to -o: its directory must exist and be writable (`-o -` writes to stdout).",
  CONTROL_TIMEOUT: "The daemon did not answer in time; see `insightsctl logs -n 50`.",
};

export default defineCommand({
  meta: { name: "snapshot", description: "Render the status card (PNG, SVG or JSON); asks the daemon, or renders in-process when none runs" },
  args: {
    output: { type: "string", alias: "o", description: "Write to this file (`-` for stdout). Default: JSON and piped output to stdout, else insights-<...>.<ext> here", valueHint: "file" },
    detail: { type: "string", description: "compact, standard (default) or full", valueHint: "level" },
    format: { type: "string", description: "png (default), svg or json", valueHint: "format" },
    range: { type: "string", description: "30m, 1h, 6h (default), 12h or 24h", valueHint: "range" },
    theme: { type: "string", description: "dark (default) or light", valueHint: "theme" },
    lang: { type: "string", description: "en (default) or zh", valueHint: "lang" },
    quick: { type: "boolean", description: "A compact PNG from already-collected data, within about a second" },
    timeout: { type: "string", description: "No daemon running: give up the first read of the files after this many seconds (exit 4, nothing written); default no limit", valueHint: "s" },
  },
  async run({ args }) {
    try {
      const { paths, loaded } = cliContext();
      const params = cliSnapshotParams({ detail: args.detail, format: args.format, range: args.range, theme: args.theme, lang: args.lang, quick: args.quick });
      const quick = args.quick === true;
      const budgetMs = timeoutFlag(args.timeout, "See `insightsctl snapshot --help` for the allowed values.");
      const out = args.output;
      // Where the card goes is known before it is drawn: a path that cannot be written fails now,
      // not after a render of several seconds.
      const toStdout = out === "-" || (out === undefined && (params.format === "json" || !process.stdout.isTTY));
      if (!toStdout) checkWritable(out === undefined ? undefined : resolve(out));
      const client = await ControlClient.tryConnect(paths.socketFile);
      let reply: SnapshotReply;
      if (client) {
        try {
          reply = await client.call<SnapshotReply>("snapshot", { ...params, quick }, (loaded.config.totalTimeoutSeconds + 5) * 1000);
        } finally {
          client.close();
        }
      } else {
        const { renderLocally } = await import("../snapshot-local.js");
        const { toSnapshotReply } = await import("../../shared/snapshot/reply.js");
        const local = await renderLocally(paths, loaded.config, params, quick, budgetMs);
        note(`gateway-insights is not running; rendered in-process from ${local.demo ? "the bundled demo state" : local.providers.join(", ")}`);
        reply = toSnapshotReply(local.result);
      }
      const body = Buffer.from(reply.body, "base64");
      if (reply.degradedSources.length) note(`skipped sources (failed or too slow): ${reply.degradedSources.join(", ")}`);
      if (reply.detail !== reply.requestedDetail) note(`detail lowered from ${reply.requestedDetail} to ${reply.detail} to fit the size limit`);
      if (toStdout) {
        process.stdout.write(body);
      } else {
        const file = resolve(out ?? reply.fileName);
        try {
          writeFileSync(file, body);
        } catch (err) {
          throw new InsightsError("OUTPUT_FAILED", `cannot write ${file}: ${errorMessage(err)}`, { file });
        }
        note(`wrote ${file} (${body.length} bytes, ${reply.durationMs} ms)`);
      }
      // In-process, a first scan may still be reading; it resumes next time, so do not wait for it.
      if (!client) process.exit(0);
    } catch (err) {
      const code = err instanceof InsightsError ? err.code : "RENDER_FAILED";
      process.stderr.write(`insightsctl: ${code}: ${errorMessage(err)}\n`);
      const hint = (err instanceof InsightsError && typeof err.details.hint === "string" ? err.details.hint : undefined) ?? WHAT_TO_DO[code];
      if (hint) process.stderr.write(`  ${hint}\n`);
      process.exit(exitCodeFor(err));
    }
  },
});

/** Throws OUTPUT_FAILED unless `file` (or, when undefined, a new file in the working directory) can be written. */
function checkWritable(file: string | undefined): void {
  const dir = file === undefined ? process.cwd() : dirname(file);
  const failed = (why: string): never => {
    throw new InsightsError("OUTPUT_FAILED", `cannot write ${file ?? `a file in ${dir}`}: ${why}`, { file: file ?? dir });
  };
  if (file !== undefined) {
    try {
      if (statSync(file).isDirectory()) failed("it is a directory");
      accessSync(file, constants.W_OK);
      return;
    } catch (err) {
      if (err instanceof InsightsError) throw err;
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") failed(errorMessage(err));
    }
  }
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    failed(`the directory ${dir} does not exist`);
  }
  if (!isDir) failed(`${dir} is not a directory`);
  try {
    accessSync(dir, constants.W_OK);
  } catch {
    failed(`the directory ${dir} is not writable`);
  }
}
