// Subscriptions over Server-Sent Events (GraphQL over SSE, distinct-connections mode, one stream
// per subscription) through graphql-sse's client. The client's own retries are off: this module
// reconnects with its own backoff so it can tell the page what is happening (connecting, live,
// down), sign out on a 401 and refresh the CSRF value on a 403.
import { createClient, NetworkError, type Client } from "graphql-sse";
import { csrfHeaders, reasonOf, signOutLocally } from "../state/auth";
import { markReachable, markUnreachable, type StreamState } from "../state/connection";
import { readBody } from "./errors";
import { checkSession } from "./session";

let client: Client | null = null;

function sseClient(): Client {
  client ??= createClient({
    url: "/graphql",
    credentials: "same-origin",
    // A function: read on every connect, so a refreshed CSRF value is used after a re-check.
    headers: () => csrfHeaders(),
    retryAttempts: 0,
  });
  return client;
}

export interface LiveHandlers<T> {
  data(value: T): void;
  state?(state: StreamState): void;
}

export interface LiveHandle {
  close(): void;
  /** Reconnects at once if the stream is down (the tab became visible, the network came back). */
  nudge(): void;
}

/** Backoff before reconnect attempt n: 0.5 s, 1 s, 2 s, 4 s, then every 8 s, with jitter. */
function backoffMs(attempt: number): number {
  return Math.min(8000, 500 * 2 ** attempt) * (0.8 + Math.random() * 0.4);
}

export function subscribeLive<T>(query: string, variables: Record<string, unknown>, handlers: LiveHandlers<T>): LiveHandle {
  let closed = false;
  let dispose: (() => void) | null = null;
  let timer: number | undefined;
  let attempt = 0;
  let state: StreamState = "connecting";

  const setState = (s: StreamState): void => {
    if (s === state) return;
    state = s;
    handlers.state?.(s);
  };

  const connect = (): void => {
    if (closed) return;
    window.clearTimeout(timer);
    timer = undefined;
    let connected = false;
    setState("connecting");
    dispose = sseClient().subscribe<T>(
      { query, variables },
      {
        next: (result) => {
          attempt = 0;
          if (result.data) handlers.data(result.data);
        },
        error: (err) => void ended(err, connected),
        complete: () => void ended(null, connected),
      },
      {
        connected: () => {
          connected = true;
          attempt = 0;
          markReachable();
          setState("live");
        },
      },
    );
  };

  const ended = async (err: unknown, wasConnected: boolean): Promise<void> => {
    dispose = null;
    if (closed) return;
    setState("down");
    if (err instanceof NetworkError && err.response && typeof (err.response as Response).text === "function") {
      const res = err.response as Response;
      if (res.status === 401) {
        const body = await readBody(res);
        signOutLocally(reasonOf(body.code, body.message));
        return;
      }
      if (res.status === 403) await checkSession();
    } else if (err instanceof NetworkError && !wasConnected) {
      // The request itself failed: nothing answers at the daemon's address.
      markUnreachable();
    }
    if (closed) return;
    timer = window.setTimeout(connect, backoffMs(attempt++));
  };

  connect();
  return {
    close() {
      closed = true;
      window.clearTimeout(timer);
      dispose?.();
      dispose = null;
    },
    nudge() {
      if (!closed && state === "down" && timer !== undefined) {
        attempt = 0;
        connect();
      }
    },
  };
}
