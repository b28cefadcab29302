// `--timeout SECONDS` of the commands that read the providers' files in-process when no daemon
// runs (usage, export, snapshot). Its own module: the daemon path must not load the reader.
import { UsageError } from "../shared/config/argv.js";

/** The flag as ms (a positive number of seconds, fractions allowed, at most a day), or null when not given. */
export function timeoutFlag(value: unknown, hint: string): number | null {
  if (value === undefined) return null;
  const seconds = typeof value === "string" && /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : NaN;
  if (!(seconds > 0) || seconds > 86_400) throw new UsageError(`--timeout takes a number of seconds above 0 and at most 86400, not ${JSON.stringify(value)}`, hint, { param: "timeout" });
  return Math.max(1, Math.round(seconds * 1000));
}
