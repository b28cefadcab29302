// What every source adapter returns: typed records or a typed SourceError, never a throw past itself.
import { InsightsError } from "../base/errors.js";

/** Why a source could not be read; maps onto SourceStatus (missing -> DISCONNECTED, the rest -> ERROR). */
export type SourceErrorKind = "missing" | "corrupt" | "permission" | "timeout" | "unreachable" | "unsupported";

export class SourceError extends InsightsError {
  readonly kind: SourceErrorKind;
  constructor(kind: SourceErrorKind, message: string, details: Record<string, unknown> = {}, options?: { cause?: unknown }) {
    super(kind === "missing" || kind === "unreachable" ? "SOURCE_UNAVAILABLE" : "SOURCE_CORRUPT", message, details, options);
    this.name = "SourceError";
    this.kind = kind;
  }
}

/** A bad line, row or field that was skipped and counted; reading went on. */
export interface SourceWarning {
  code: "BAD_JSON" | "BAD_ROW" | "BAD_FIELD" | "DECODE_FAILED" | "TRUNCATED" | "ROTATED" | "UNKNOWN_FORMAT";
  message: string;
  /** File path, `table:rowid` or similar; no secrets. */
  where: string;
}

export type SourceResult<T> =
  | { ok: true; value: T; warnings: SourceWarning[] }
  | { ok: false; error: SourceError; warnings: SourceWarning[] };

export function ok<T>(value: T, warnings: SourceWarning[] = []): SourceResult<T> {
  return { ok: true, value, warnings };
}

export function fail<T>(error: SourceError, warnings: SourceWarning[] = []): SourceResult<T> {
  return { ok: false, error, warnings };
}

/** Maps a filesystem or SQLite failure onto a SourceError kind. */
export function classifyIoError(err: unknown, where: string): SourceError {
  // Already typed (a safe-open refusal naming its own path): kept as it is.
  if (err instanceof SourceError) return err;
  const code = (err as { code?: unknown } | null)?.code;
  const message = err instanceof Error ? err.message : String(err);
  if (code === "ENOENT" || code === "ENOTDIR" || code === "SQLITE_CANTOPEN") return new SourceError("missing", `${where}: not found`, { where }, { cause: err });
  if (code === "EACCES" || code === "EPERM" || code === "SQLITE_PERM" || code === "SQLITE_READONLY") return new SourceError("permission", `${where}: permission denied`, { where }, { cause: err });
  if (code === "SQLITE_NOTADB" || code === "SQLITE_CORRUPT") return new SourceError("corrupt", `${where}: not a valid SQLite database`, { where }, { cause: err });
  return new SourceError("corrupt", `${where}: ${message}`, { where }, { cause: err });
}
