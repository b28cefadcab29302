// `insightsctl statusline`: Claude Code's status line (docs/statusline.md). Claude Code runs it
// after every message with a JSON object on stdin; it prints one line and hands the plan's
// windows to the daemon (control call `statusline.report`), or to the spool file when no daemon
// runs. It must never fail the status line: whatever the input, it prints a line and exits 0.
// It must be fast: only the input, render and report modules load on the common path; the spool,
// the installer and child_process only when needed; never the config, a scan or GraphQL.
import { defineCommand } from "citty";
import { parseStatusInput, type StatusInput } from "../../shared/statusline/input.js";
import { DEFAULT_FORMAT, parseFormat, PLAIN_LINE, renderStatusLine } from "../../shared/statusline/render.js";
import { reportOf, type StatusReport } from "../../shared/statusline/report.js";
import { resolvePaths, type Paths } from "../../shared/paths.js";
import { ControlClient } from "../control-client.js";
import { readInput, runChained } from "../statusline/io.js";

/** The daemon answers on its own socket at once or not at all; a hung one must not hold the line. */
const CONNECT_MS = 250;
const CALL_MS = 500;

export interface ReportReply {
  todayUsd: number | null;
}

/** Hands the report to the daemon; its answer, or null when none runs (the report is spooled). */
async function deliver(paths: Paths, report: StatusReport): Promise<ReportReply | null> {
  const client = await ControlClient.tryConnect(paths.socketFile, CONNECT_MS);
  if (!client) {
    try {
      const { appendToSpool } = await import("../../shared/statusline/spool.js");
      appendToSpool(paths.statuslineSpoolFile, report);
    } catch {
      // A state dir that is not ours (UNSAFE_PATH) or a full disk: the reading is lost, the line is not.
    }
    return null;
  }
  try {
    return await client.call<ReportReply>("statusline.report", { ...report }, CALL_MS);
  } catch {
    // A daemon that refuses or is too slow: the line is printed without today's cost.
    return null;
  } finally {
    client.close();
  }
}

/** `--color auto` colours a terminal and Claude Code (valid input came), never with NO_COLOR. */
function wantColour(mode: string, input: StatusInput | null): boolean {
  if (mode === "always") return true;
  if (mode === "never" || process.env.NO_COLOR) return false;
  return Boolean(process.stdout.isTTY) || input !== null;
}

function done(line: string): void {
  // Exit 0 once the line is out, whatever else is still pending (a stdin that never closed).
  process.stdout.write(line + "\n", () => process.exit(0));
}

async function statusline(args: { format: string; color: string; chain?: string | undefined }): Promise<void> {
  const parts = parseFormat(args.format);
  // A bad flag value is said on the status line itself: Claude Code shows nothing of stderr.
  if (typeof parts === "string") return done(`insightsctl statusline: unknown --format part "${parts}" (model, session, today, 5h, week, context)`);
  if (!["auto", "always", "never"].includes(args.color)) return done(`insightsctl statusline: --color is auto, always or never, not "${args.color}"`);
  const text = await readInput();
  const input = text === null ? null : parseStatusInput(text);
  const chained = args.chain && text !== null ? runChained(args.chain, text) : Promise.resolve("");
  if (!input) {
    const before = await chained;
    return done(before ? `${before} ${PLAIN_LINE}` : PLAIN_LINE);
  }
  const now = Date.now();
  const reply = await deliver(resolvePaths(), reportOf(input, now, process.env));
  const ours = renderStatusLine(input, { parts, color: wantColour(args.color, input), now, todayUsd: typeof reply?.todayUsd === "number" ? reply.todayUsd : null });
  const before = await chained;
  done(before ? `${before}  ${ours}` : ours);
}

async function installCommand(action: "install" | "uninstall"): Promise<void> {
  const { install, uninstall, shellQuote } = await import("../statusline/install.js");
  const { say, fail } = await import("../output.js");
  const { realpathSync } = await import("node:fs");
  try {
    // This very insightsctl, by absolute paths: Claude Code's shell may have another PATH.
    const self = `${shellQuote(process.execPath)} ${shellQuote(realpathSync(process.argv[1] as string))}`;
    const r = action === "install" ? install(process.env, self) : uninstall(process.env, self);
    const said: Record<typeof r.action, string> = {
      installed: `installed the status line in ${r.file}`,
      chained: `installed the status line in ${r.file}, after your own (${r.previous ?? ""}), whose output comes first`,
      already: `the status line is already installed in ${r.file}`,
      restored: `removed the status line from ${r.file}; your own is back (${r.previous ?? ""})`,
      removed: `removed the status line from ${r.file}`,
      none: `no gateway-insights status line in ${r.file}: nothing to do`,
    };
    say(said[r.action]);
    if (r.backup) say(`a copy of the file as it was: ${r.backup}`);
  } catch (err) {
    fail(err);
  }
}

export default defineCommand({
  meta: { name: "statusline", description: "Claude Code's status line: reads its JSON on stdin, prints one line, keeps the plan's windows (install: add it to settings.json)" },
  args: {
    action: { type: "positional", required: false, description: "install (add it to Claude Code's settings.json) or uninstall (put back what was there)", valueHint: "install|uninstall" },
    format: { type: "string", default: DEFAULT_FORMAT, description: "The parts, in order: model, session, today, 5h, week, context", valueHint: "parts" },
    color: { type: "string", default: "auto", description: "auto (a terminal, or Claude Code's input), always or never; NO_COLOR turns auto off", valueHint: "auto|always|never" },
    uninstall: { type: "boolean", description: "The same as `statusline uninstall`" },
    chain: { type: "string", description: "A status-line command to run first with the same input (install sets it to the one you had)", valueHint: "command" },
  },
  async run({ args }) {
    if (args.uninstall || args.action === "uninstall") return installCommand("uninstall");
    if (args.action === "install") return installCommand("install");
    try {
      if (args.action !== undefined) return done(`insightsctl statusline: unknown action "${args.action}" (install or uninstall)`);
      await statusline({ format: args.format, color: args.color, chain: args.chain });
    } catch {
      // Never a failed status line: whatever went wrong, a plain line and exit 0.
      done(PLAIN_LINE);
    }
  },
});
