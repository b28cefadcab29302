// `insightsctl statusline install` / `--uninstall`: puts the status line into Claude Code's
// settings.json (`$CLAUDE_CONFIG_DIR/settings.json`, default ~/.claude/settings.json) and takes
// it out again. The file is the user's: a copy is kept before the first change, a statusLine
// already there is kept and chained (its output first, then ours), every other key is left as it
// is, and a file that is not a JSON object is refused (SETTINGS_INVALID) without a byte written.
import fs from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { InsightsError } from "../../shared/base/errors.js";
import { OUR_STATUSLINE } from "../../shared/statusline/command.js";

type Env = Readonly<Record<string, string | undefined>>;
type Settings = Record<string, unknown>;

/** The word every command we write carries, so ours is told from the user's own. */
const MARK = " statusline";
export const BACKUP_SUFFIX = ".gateway-insights.bak";

export function settingsFile(env: Env): string {
  const dir = env.CLAUDE_CONFIG_DIR?.split(",")[0]?.trim() || join(env.HOME || homedir(), ".claude");
  return join(dir, "settings.json");
}

/** A word for `sh -c`: single-quoted, its own single quotes closed and escaped. */
export const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** The real file behind a link (dotfile managers link settings.json): we write there, never replace the link. */
function target(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    return file;
  }
}

function read(file: string): { settings: Settings; text: string | null } {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { settings: {}, text: null };
    throw new InsightsError("SETTINGS_INVALID", `cannot read ${file}: ${(err as Error).message}`, { path: file });
  }
  let parsed: unknown;
  try {
    parsed = text.trim() === "" ? {} : JSON.parse(text);
  } catch (err) {
    throw new InsightsError("SETTINGS_INVALID", `${file} is not valid JSON (${(err as Error).message}); it was left as it is`, { path: file, hint: "Fix the file (Claude Code will not read it either), then run the command again." });
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new InsightsError("SETTINGS_INVALID", `${file} is not a JSON object; it was left as it is`, { path: file, hint: "Fix the file, then run the command again." });
  }
  return { settings: parsed as Settings, text };
}

/** Written whole to a temp file beside it, then renamed: Claude Code never reads half a file. */
function write(file: string, settings: Settings, mode: number): void {
  fs.mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(settings, null, 2) + "\n", { mode, flag: "wx" });
  fs.renameSync(tmp, file);
}

function commandOf(v: unknown): string | null {
  if (typeof v !== "object" || v === null) return null;
  const c = (v as Record<string, unknown>).command;
  return typeof c === "string" ? c : null;
}

const isOurs = (command: string | null, ours: string): boolean => command !== null && command.startsWith(ours);

export interface InstallResult {
  file: string;
  action: "installed" | "chained" | "already" | "updated" | "restored" | "removed" | "none";
  backup: string | null;
  previous: string | null;
}

/** `self`: how to run this insightsctl from a shell (absolute, so Claude Code's PATH does not matter). */
export function install(env: Env, self: string): InstallResult {
  const file = target(settingsFile(env));
  const { settings, text } = read(file);
  const ours = `${self}${MARK}`;
  const current = commandOf(settings.statusLine);
  if (isOurs(current, ours)) return { file, action: "already", backup: null, previous: null };
  // Ours from another copy, or from an earlier version that named dist/cli/main.js (whose status
  // line misses the bin's fast path): now this one, its flags (a --chain) kept. The backup the
  // first install made stays the one uninstall puts back.
  const older = current !== null ? OUR_STATUSLINE.exec(current) : null;
  if (current !== null && older) {
    const command = ours + current.slice(older.index + older[0].length);
    write(file, { ...settings, statusLine: { ...(settings.statusLine as Settings), command } }, fs.statSync(file).mode & 0o777);
    return { file, action: "updated", backup: null, previous: current };
  }
  const backup = file + BACKUP_SUFFIX;
  const mode = text === null ? 0o600 : fs.statSync(file).mode & 0o777;
  // The user's file as it was, before anything of ours; a later install keeps the first copy.
  if (text !== null && !fs.existsSync(backup)) fs.writeFileSync(backup, text, { mode, flag: "wx" });
  const command = current ? `${ours} --chain ${shellQuote(current)}` : ours;
  const prev = typeof settings.statusLine === "object" && settings.statusLine !== null ? (settings.statusLine as Settings) : {};
  write(file, { ...settings, statusLine: { ...prev, type: "command", command, padding: typeof prev.padding === "number" ? prev.padding : 0 } }, mode);
  return { file, action: current ? "chained" : "installed", backup: text !== null ? backup : null, previous: current };
}

/** Puts back the statusLine the backup had (or none); every other key stays as it is now. */
export function uninstall(env: Env, self: string): InstallResult {
  const file = target(settingsFile(env));
  const { settings, text } = read(file);
  const current = commandOf(settings.statusLine);
  // Ours from this insightsctl, or from another copy of it (a reinstall moved it).
  const ours = current !== null && (isOurs(current, `${self}${MARK}`) || OUR_STATUSLINE.test(current));
  if (text === null || !ours) {
    return { file, action: "none", backup: null, previous: null };
  }
  const backup = file + BACKUP_SUFFIX;
  let before: Settings = {};
  try {
    before = read(backup).settings;
  } catch {
    // A backup that cannot be read: take ours out and leave no status line rather than guess one.
  }
  const { statusLine: _ours, ...rest } = settings;
  const mode = fs.statSync(file).mode & 0o777;
  write(file, before.statusLine !== undefined ? { ...rest, statusLine: before.statusLine } : rest, mode);
  fs.rmSync(backup, { force: true });
  return { file, action: before.statusLine !== undefined ? "restored" : "removed", backup: null, previous: commandOf(before.statusLine) };
}
