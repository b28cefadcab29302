// How much live work the GraphQL transports may hold at once. Every open SSE stream and every
// running WebSocket operation keeps a subscriber (with its buffer) in memory, so there is a cap
// for all clients together, one per WebSocket, and caps on WebSockets themselves, including those
// accepted without a credential that still have to send their token in connectionParams.
import { GraphQLError } from "graphql";

export interface StreamLimits {
  /** Open SSE streams plus running WebSocket operations, all clients together. */
  maxOperations: number;
  /** Operations running at once on one WebSocket. */
  maxPerSocket: number;
  /** Open WebSockets. */
  maxSockets: number;
  /** WebSockets accepted without a credential and still waiting for their ConnectionInit. */
  maxPendingSockets: number;
  /** How long a WebSocket may take to send ConnectionInit before it is closed (4408). */
  connectionInitWaitMs: number;
}

export const DEFAULT_STREAM_LIMITS: StreamLimits = {
  maxOperations: 500,
  maxPerSocket: 100,
  maxSockets: 200,
  maxPendingSockets: 32,
  connectionInitWaitMs: 3000,
};

/** The error code of an operation refused by a cap (GraphQL extensions.code). */
export const TOO_MANY_SUBSCRIPTIONS = "TOO_MANY_SUBSCRIPTIONS";
/** Seconds a client refused by the cap in all is told to wait (Retry-After). */
export const RETRY_AFTER_SECONDS = 10;

/** A graphql-ws connection's running operations, as its server context keeps them. */
interface SocketOperations {
  readonly subscriptions: Readonly<Record<string, unknown>>;
}

/** Counts what is live across both transports, for the cap in all. */
export class LiveOperations {
  private streams = 0;
  private readonly sockets = new Set<SocketOperations>();

  constructor(readonly limits: StreamLimits) {}

  /** Operations live now. Summed from the sockets' own tables, so an operation that ends by any path stops counting. */
  get open(): number {
    let n = this.streams;
    for (const s of this.sockets) n += Object.keys(s.subscriptions).length;
    return n;
  }

  /** A slot for one SSE stream: its release (call once, when the response closes), or null when the cap is reached. */
  takeStream(): (() => void) | null {
    if (this.open >= this.limits.maxOperations) return null;
    this.streams++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.streams--;
    };
  }

  /** Counts a WebSocket's operations from now until forget(). */
  watch(socket: SocketOperations): void {
    this.sockets.add(socket);
  }

  forget(socket: SocketOperations): void {
    this.sockets.delete(socket);
  }

  /**
   * Whether one more operation may run on `socket`, whose table already holds it (graphql-ws
   * enters an operation before asking): null when it may, else the error to answer it with.
   */
  refuseOnSocket(socket: SocketOperations): GraphQLError | null {
    const { maxPerSocket, maxOperations } = this.limits;
    if (Object.keys(socket.subscriptions).length > maxPerSocket) {
      return tooMany(`this WebSocket already runs ${maxPerSocket} operations; complete one first`);
    }
    if (this.open > maxOperations) return tooMany(`the daemon already serves ${maxOperations} live operations; try again later`);
    return null;
  }
}

export function tooMany(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: TOO_MANY_SUBSCRIPTIONS } });
}
