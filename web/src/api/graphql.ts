// Queries and mutations: POST /graphql with the session cookie and, for a cookie session, the
// CSRF header. Failures become ApiError; a 401 also signs the page out (the cookie expired).
import { auth, reasonOf, signOutLocally, csrfHeaders } from "../state/auth";
import { markData, markReachable, markUnreachable } from "../state/connection";
import { ApiError, readBody } from "./errors";
import { checkSession } from "./session";

export type Variables = Record<string, unknown>;

export async function gql<T>(query: string, variables: Variables = {}, signal?: AbortSignal, retried = false): Promise<T> {
  let res: Response;
  try {
    res = await fetch("/graphql", {
      method: "POST",
      credentials: "same-origin",
      cache: "no-store",
      headers: { "content-type": "application/json", accept: "application/graphql-response+json, application/json", ...csrfHeaders() },
      body: JSON.stringify({ query, variables }),
      ...(signal ? { signal } : {}),
    });
  } catch (err) {
    if (signal?.aborted) throw err;
    markUnreachable();
    throw new ApiError("network", null, null);
  }
  markReachable();
  const body = await readBody(res);
  if (res.status === 401) {
    signOutLocally(reasonOf(body.code, body.message));
    throw new ApiError("unauthenticated", body.code ?? "UNAUTHENTICATED", body.message ?? null);
  }
  if (res.status === 403 && body.code === "CSRF_FAILED" && !retried && auth.value.status === "ready") {
    // The CSRF value belongs to the cookie; after a re-sign-in in another tab it changed. Ask again once.
    await checkSession();
    return gql<T>(query, variables, signal, true);
  }
  if (res.status === 403) throw new ApiError("forbidden", body.code ?? null, body.message ?? null);
  if (res.status === 429) throw new ApiError("rate-limited", body.code ?? "RATE_LIMITED", body.message ?? null);
  const first = body.errors?.[0];
  if (first) throw new ApiError("graphql", first.extensions?.code ?? null, first.message ?? null);
  if (!res.ok || !("data" in body) || body.data === null) throw new ApiError("http", body.code ?? String(res.status), body.message ?? null);
  markData();
  return body.data as T;
}
