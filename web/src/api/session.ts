// GET /api/session at start (and after the daemon comes back), POST /api/logout on request.
import { auth, reasonOf, signOutLocally, csrfHeaders } from "../state/auth";
import { markReachable, markUnreachable } from "../state/connection";
import { readBody } from "./errors";

interface SessionInfo {
  auth?: string;
  csrf?: string | null;
  csrfHeader?: string;
}

let retryTimer: number | undefined;
let attempt = 0;

/** Asks the daemon who we are; retries by itself while the daemon cannot be reached. */
export async function checkSession(): Promise<void> {
  window.clearTimeout(retryTimer);
  let res: Response;
  try {
    res = await fetch("/api/session", { credentials: "same-origin", cache: "no-store", headers: { accept: "application/json" } });
  } catch {
    markUnreachable();
    if (auth.value.status !== "ready") auth.value = { status: "unreachable" };
    attempt++;
    retryTimer = window.setTimeout(() => void checkSession(), Math.min(15_000, 1000 * 2 ** Math.min(attempt, 4)));
    return;
  }
  attempt = 0;
  markReachable();
  const body = (await readBody(res)) as SessionInfo & { code?: string; message?: string; retryAfterSeconds?: number };
  if (res.ok) {
    const mode = body.auth === "cookie" || body.auth === "bearer" ? body.auth : "none";
    auth.value = { status: "ready", mode, csrf: body.csrf ?? null, csrfHeader: body.csrfHeader ?? "X-Insights-CSRF" };
    return;
  }
  signOutLocally(reasonOf(body.code, body.message), body.retryAfterSeconds);
}

/** Ends the cookie session; the page then shows the sign-in screen. */
export async function logout(): Promise<void> {
  try {
    await fetch("/api/logout", { method: "POST", credentials: "same-origin", headers: csrfHeaders() });
  } finally {
    signOutLocally("signed-out");
  }
}
