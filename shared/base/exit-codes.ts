// Process exit codes shared by insightsd and insightsctl (documented in the README).
import { InsightsError } from "./errors.js";

export const EXIT = {
  OK: 0,
  FAILURE: 1,
  /** Bad flags, bad config. */
  USAGE: 2,
  /** `status`: the daemon is not running (LSB convention). */
  NOT_RUNNING: 3,
  /**
   * `usage`, `export`, `snapshot` without a daemon: the read of the providers' files could not
   * finish (the --timeout given, an unreadable file), so nothing was printed: not a failure of
   * the command (1), and a script must not take partial figures for whole ones.
   */
  INCOMPLETE: 4,
} as const;

export function exitCodeFor(err: unknown): number {
  if (err instanceof InsightsError && (err.code === "CONFIG_INVALID" || err.code === "SOCKET_PATH_TOO_LONG" || err.code === "INVALID_PARAM")) return EXIT.USAGE;
  if (err instanceof InsightsError && err.code === "READ_INCOMPLETE") return EXIT.INCOMPLETE;
  return EXIT.FAILURE;
}
