// How the CLI talks to people: data on stdout, diagnostics on stderr, a failure as
// "insightsctl: <message>" plus what to do, and the documented exit codes.
import { UsageError } from "../shared/config/argv.js";
import { InsightsError, errorMessage } from "../shared/base/errors.js";
import { exitCodeFor } from "../shared/base/exit-codes.js";

const HINTS: Partial<Record<string, string>> = {
  CONFIG_INVALID: "Fix the value (see `insightsctl --help` and the README's config table) and run the command again.",
  ALREADY_RUNNING: "Use `insightsctl status` to see it, or `insightsctl restart`.",
  PORT_IN_USE: "Pass another --port, or set INSIGHTS_PORT.",
  START_FAILED: "See `insightsctl logs -n 50` for the daemon's own account.",
  OUTPUT_FAILED: "Check that the directory exists and that you may write there.",
  STORE_TOO_NEW: "Upgrade gateway-insights, or move the store file away to start fresh.",
  SOCKET_PATH_TOO_LONG: "Set XDG_RUNTIME_DIR to a shorter directory.",
};

export function fail(err: unknown): never {
  const code = err instanceof InsightsError ? err.code : undefined;
  process.stderr.write(`insightsctl: ${errorMessage(err)}\n`);
  // What to do: the error's own advice when it has some, else the advice for its code.
  const own = err instanceof UsageError ? err.hint : err instanceof InsightsError && typeof err.details.hint === "string" ? err.details.hint : undefined;
  const hint = own ?? (code ? HINTS[code] : undefined);
  if (hint) process.stderr.write(`  ${hint}\n`);
  if (!(err instanceof InsightsError) && err instanceof Error && process.env.INSIGHTS_DEBUG) {
    process.stderr.write(`${err.stack ?? ""}\n`);
  }
  process.exit(exitCodeFor(err));
}

export function say(line = ""): void {
  process.stdout.write(line + "\n");
}

export function note(line: string): void {
  process.stderr.write(line + "\n");
}

export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + "\n");
}

export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d) return `${d}d ${h}h`;
  if (h) return `${h}h ${m}m`;
  if (m) return `${m}m ${s % 60}s`;
  return `${s}s`;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MB`;
  return `${(n / 1024 ** 3).toFixed(2)} GB`;
}
