// Typed errors. Every error that can reach a user carries a stable public `code`, so the CLI,
// the control socket and (later) GraphQL and REST can map it without parsing messages.

export type ErrorCode =
  | "CONFIG_INVALID"
  | "ALREADY_RUNNING"
  | "NOT_RUNNING"
  | "PORT_IN_USE"
  | "SOCKET_PATH_TOO_LONG"
  | "STORE_ERROR"
  | "STORE_TOO_NEW"
  | "UNSAFE_PATH"
  | "CONTROL_UNAVAILABLE"
  | "CONTROL_PROTOCOL"
  | "CONTROL_TIMEOUT"
  | "UNKNOWN_METHOD"
  | "START_FAILED"
  | "STOP_FAILED"
  | "SOURCE_UNAVAILABLE"
  | "SOURCE_CORRUPT"
  | "BAD_USER_INPUT"
  | "NOT_FOUND"
  | "AMBIGUOUS_SELECTOR"
  | "UNAUTHENTICATED"
  | "FORBIDDEN_REMOTE"
  | "CSRF_FAILED"
  | "INSUFFICIENT_SCOPE"
  | "RATE_LIMITED"
  | "INVALID_PARAM"
  | "QUEUE_FULL"
  | "QUEUE_TIMEOUT"
  | "COLLECT_TIMEOUT"
  | "TOTAL_TIMEOUT"
  | "PAYLOAD_TOO_LARGE"
  | "GATEWAY_UNREACHABLE"
  | "RENDER_FAILED"
  | "OUTPUT_FAILED"
  | "OPERATION_IN_PROGRESS"
  | "FORBIDDEN_CHANNEL_TYPE"
  | "TARGET_REFUSED"
  | "LIMIT_REACHED"
  | "READ_INCOMPLETE"
  | "SETTINGS_INVALID"
  | "INTERNAL";

export class InsightsError extends Error {
  readonly code: ErrorCode;
  /** Extra machine-readable facts (never secrets). */
  readonly details: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, details: Record<string, unknown> = {}, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "InsightsError";
    this.code = code;
    this.details = reportable(details, () => `${this.code}: ${this.message}`);
  }

  toJSON(): { code: ErrorCode; message: string } {
    return { code: this.code, message: this.message };
  }
}

/**
 * The details as given, plus a hidden `split` that renders the error as text. Why: uvu (the test
 * runner) takes an error's `details` to be its own pre-rendered diff and calls `details.split("\n")`
 * on it; on an object that throws inside its reporter, whose `finally { return }` swallows it, so a
 * test that failed with an InsightsError printed nothing at all and the rest of its suite did not
 * run. Non-enumerable: spreading, JSON, equality checks and what clients receive see the same
 * plain object as before. A copy, so the caller's object is not changed.
 */
function reportable(details: Record<string, unknown>, headline: () => string): Record<string, unknown> {
  const out = { ...details };
  if (Object.hasOwn(out, "split")) return out;
  Object.defineProperty(out, "split", {
    enumerable: false,
    value: (separator: string): string[] => {
      let facts = "";
      try {
        facts = Object.keys(out).length ? `\ndetails: ${JSON.stringify(out)}` : "";
      } catch {
        // A value JSON cannot write (a cycle, a BigInt): the code and message still print.
      }
      return `${headline()}${facts}`.split(separator);
    },
  });
  return out;
}

/** A config value that failed validation: names the key, the bad value, where it came from and what is allowed. */
export class ConfigError extends InsightsError {
  constructor(
    readonly key: string,
    readonly value: unknown,
    readonly origin: string,
    readonly allowed: string,
  ) {
    super("CONFIG_INVALID", `invalid config ${key} = ${JSON.stringify(value)} (from ${origin}): expected ${allowed}`, {
      key,
      origin,
    });
    this.name = "ConfigError";
  }
}

export function isErrnoException(err: unknown): err is NodeJS.ErrnoException {
  return err instanceof Error && typeof (err as NodeJS.ErrnoException).code === "string";
}

/** Normalizes anything thrown into a message for logs; never includes a stack for InsightsError. */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
