// The page's sign-in state. The page loads without a session (it must, to say how to sign in);
// GET /api/session then tells it whether the cookie is valid and gives the CSRF value every POST
// must echo. Any 401 later (the cookie expired while the page was open) lands here too.
import { signal } from "@preact/signals";

export type SignedOutReason = "missing" | "expired" | "invalid" | "signed-out" | "forbidden" | "rate-limited";

export type AuthState =
  | { status: "checking" }
  | { status: "ready"; mode: "cookie" | "none" | "bearer"; csrf: string | null; csrfHeader: string }
  | { status: "signed-out"; reason: SignedOutReason; retryAfterSeconds?: number }
  | { status: "unreachable" };

export const auth = signal<AuthState>({ status: "checking" });

/** Headers a state-changing request needs: the CSRF echo of a cookie session (none otherwise). */
export function csrfHeaders(): Record<string, string> {
  const a = auth.value;
  return a.status === "ready" && a.csrf ? { [a.csrfHeader]: a.csrf } : {};
}

/** Maps the daemon's 401 message to a reason the sign-in screen explains in the user's language. */
export function reasonOf(code: string | undefined, message: string | undefined): SignedOutReason {
  if (code === "FORBIDDEN_REMOTE") return "forbidden";
  if (code === "RATE_LIMITED") return "rate-limited";
  const m = (message ?? "").toLowerCase();
  if (m.includes("expired")) return "expired";
  if (m.includes("not valid")) return "invalid";
  return "missing";
}

export function signOutLocally(reason: SignedOutReason, retryAfterSeconds?: number): void {
  auth.value = retryAfterSeconds === undefined ? { status: "signed-out", reason } : { status: "signed-out", reason, retryAfterSeconds };
}
