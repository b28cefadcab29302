// One error type for everything the page asks the daemon. Views show `kind`/`code` through the
// message catalog (never a raw body); `detail` is the daemon's own sentence, shown small.
export type ApiErrorKind = "network" | "unauthenticated" | "forbidden" | "rate-limited" | "graphql" | "http";

export class ApiError extends Error {
  constructor(
    readonly kind: ApiErrorKind,
    /** The daemon's error code (extensions.code or the REST body's code), when it gave one. */
    readonly code: string | null,
    /** The daemon's message, safe to show (it never contains a credential). */
    readonly detail: string | null,
  ) {
    super(`${kind}${code ? ` ${code}` : ""}${detail ? `: ${detail}` : ""}`);
    this.name = "ApiError";
  }
}

export interface ErrorBody {
  code?: string;
  message?: string;
  retryAfterSeconds?: number;
  errors?: Array<{ message?: string; extensions?: { code?: string } }>;
}

/** The JSON body of a response, or an empty object when it has none or it is not JSON. */
export async function readBody(res: Response): Promise<ErrorBody & Record<string, unknown>> {
  try {
    const text = await res.text();
    const v: unknown = text ? JSON.parse(text) : {};
    return v && typeof v === "object" && !Array.isArray(v) ? (v as ErrorBody & Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
