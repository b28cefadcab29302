// The status line itself, as Claude Code runs it after every message (docs/statusline.md). The bin
// comes here straight through one CommonJS bundle (cli/statusline/main.ts), before citty or any
// other command module loads: Node's start is most of the time, so every module more shows. It must never fail Claude Code's status line: whatever
// the input, it prints a line and exits 0. Only the input, render and report modules load on the
// common path; the spool and child_process only when needed; never the config, a scan or GraphQL.
import * as fs from "node:fs";
import { isatty } from "node:tty";
import { parseStatusInput, type StatusInput } from "../../shared/statusline/input.js";
import { DEFAULT_FORMAT, parseFormat, PLAIN_LINE, renderStatusLine } from "../../shared/statusline/render.js";
import { reportOf, type StatusReport } from "../../shared/statusline/report.js";
import { resolvePaths, type Paths } from "../../shared/base/paths.js";
import { ControlClient } from "../control-client.js";
import { readInput, runChained } from "./io.js";

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
  return isatty(1) || input !== null;
}

/**
 * Writes the line and exits 0, whatever else is still pending (a stdin that never closed). Written
 * to the descriptor, not process.stdout (whose stream costs what readInput's note says). A reader
 * that went away (EPIPE) is not an error; another write error is, as for every command (cli/stdio.ts).
 */
export function done(line: string): void {
  const out = Buffer.from(line + "\n");
  let at = 0;
  // A non-blocking pipe that is full for a moment: a few more tries, then give up on the line.
  for (let tries = 0; at < out.length && tries < 1000; tries++) {
    try {
      at += fs.writeSync(1, out, at);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "EAGAIN") continue;
      process.exit(code === "EPIPE" ? 0 : 1);
    }
  }
  process.exit(0);
}

export async function statusline(args: { format: string; color: string; chain?: string | undefined }): Promise<void> {
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
  // An object with nothing to show (`{}`) still gets a line: an empty one looks broken.
  const line = ours || PLAIN_LINE;
  done(before ? `${before}  ${line}` : line);
}


/** The flags of the status line (`statusline --help` lists them, through citty). */
export interface StatuslineFlags {
  format: string;
  color: string;
  chain?: string | undefined;
}

/** `--format F`, `--format=F`, `--color C`, `--chain CMD`; anything else is said on the line. */
export function parseFlags(argv: readonly string[]): StatuslineFlags | string {
  const flags: StatuslineFlags = { format: DEFAULT_FORMAT, color: "auto" };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    const eq = a.indexOf("=");
    const name = a.startsWith("--") ? (eq > 0 ? a.slice(2, eq) : a.slice(2)) : null;
    if (name !== "format" && name !== "color" && name !== "chain") return `insightsctl statusline: unknown argument "${a}" (see insightsctl statusline --help)`;
    const value = eq > 0 ? a.slice(eq + 1) : argv[++i];
    if (value === undefined) return `insightsctl statusline: --${name} needs a value`;
    flags[name] = value;
  }
  return flags;
}

/** The fast path (cli/statusline/main.ts): never throws, always exits 0 after one line. */
export async function runStatusline(argv: readonly string[]): Promise<void> {
  try {
    const flags = parseFlags(argv);
    if (typeof flags === "string") return done(flags);
    await statusline(flags);
  } catch {
    done(PLAIN_LINE);
  }
}
