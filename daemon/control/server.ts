// The control socket: a node:net server on a Unix socket (0600, in the runtime dir) speaking the
// newline-delimited JSON of shared/control/protocol.ts. The socket is the second half of the
// single-instance lock: if another daemon answers on it we refuse to start; if nobody answers it
// is a leftover from a crash and is replaced.
//
// Every line is hostile input: method names are looked up among the protocol's own methods only
// (a Map, so `constructor` or `__proto__` name nothing), ids and params are checked, a handler
// that throws becomes an error reply, and a client that floods or never reads is cut off without
// touching the others.
import { lstatSync, rmSync } from "node:fs";
import { createConnection, createServer, type Server, type Socket } from "node:net";
import { encode, LineDecoder, type ControlResponse } from "../../shared/control/protocol.js";
import { InsightsError } from "../../shared/base/errors.js";
import type { Logger } from "../../shared/base/log/logger.js";

type Params = Record<string, unknown>;

/** Answers once. */
export type CallHandler = (params: Params) => unknown | Promise<unknown>;
/** Answers many times until the client goes away; returns the cleanup to run then. */
export type StreamHandler = (params: Params, emit: (result: unknown) => void, end: () => void) => () => void;

interface ControlLimits {
  /** Open connections at once; one more is told CONTROL_UNAVAILABLE and closed (file descriptors are finite). */
  maxConnections: number;
  /** Open streams on one connection (each one is a subscription the daemon feeds). */
  maxStreamsPerConnection: number;
  /** Calls awaiting their answer on one connection. */
  maxInFlightPerConnection: number;
  /**
   * Answers written but not yet read by the client. Checked before each write, so one large
   * answer (a snapshot image) always goes out; a client that keeps asking or streaming without
   * reading is disconnected once its backlog passes this.
   */
  maxUnreadBytes: number;
}

const DEFAULT_CONTROL_LIMITS: ControlLimits = {
  maxConnections: 128,
  maxStreamsPerConnection: 16,
  maxInFlightPerConnection: 64,
  maxUnreadBytes: 16 * 1024 * 1024,
};

/** Method names are echoed in errors; a megabyte-long one is not. */
const MAX_METHOD_CHARS = 100;

interface ControlServerOptions {
  socketPath: string;
  logger: Logger;
  calls: Record<string, CallHandler>;
  streams?: Record<string, StreamHandler>;
  limits?: Partial<ControlLimits>;
}

/** One client connection's bookkeeping. */
interface Connection {
  socket: Socket;
  /** Cleanups of this connection's open streams. */
  streams: Set<() => void>;
  inFlight: number;
  send(msg: ControlResponse): void;
}

export class ControlServer {
  private server: Server | null = null;
  private readonly connectionSet = new Set<Connection>();
  private readonly calls: ReadonlyMap<string, CallHandler>;
  private readonly streams: ReadonlyMap<string, StreamHandler>;
  private readonly limits: ControlLimits;
  /** Set when a stale socket file from a crashed daemon was removed. */
  replacedStaleSocket = false;

  constructor(private readonly options: ControlServerOptions) {
    // Own entries only: a plain object's lookup would also find Object.prototype's members.
    this.calls = new Map(Object.entries(options.calls));
    this.streams = new Map(Object.entries(options.streams ?? {}));
    this.limits = { ...DEFAULT_CONTROL_LIMITS, ...options.limits };
  }

  /** Open client connections. */
  get connections(): number {
    return this.connectionSet.size;
  }

  /** Open streams over all connections. */
  get openStreams(): number {
    let n = 0;
    for (const c of this.connectionSet) n += c.streams.size;
    return n;
  }

  async listen(): Promise<void> {
    const { socketPath } = this.options;
    try {
      await this.tryListen();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EADDRINUSE") throw err;
      if (await socketAnswers(socketPath)) {
        throw new InsightsError("ALREADY_RUNNING", `another gateway-insights daemon answers on ${socketPath}`);
      }
      // rm removes a symlink itself, never what it points at.
      rmSync(socketPath, { force: true });
      this.replacedStaleSocket = true;
      await this.tryListen();
    }
    // The umask made it 0600 at creation; check rather than chmod, which would follow a link.
    const st = lstatSync(socketPath);
    if (!st.isSocket() || (st.mode & 0o077) !== 0) {
      await this.close();
      throw new InsightsError("START_FAILED", `the control socket ${socketPath} is not a private socket after creation (mode ${(st.mode & 0o777).toString(8)})`);
    }
  }

  /** Stops accepting, ends streams, closes connections. */
  async close(): Promise<void> {
    for (const c of this.connectionSet) this.endStreams(c);
    const server = this.server;
    this.server = null;
    if (!server) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const c of this.connectionSet) c.socket.end();
    // Give clients a moment to read the last line, then cut what is left.
    setTimeout(() => {
      for (const c of this.connectionSet) c.socket.destroy();
    }, 200).unref();
    await closed;
    rmSync(this.options.socketPath, { force: true });
  }

  private tryListen(): Promise<void> {
    return new Promise((resolve, reject) => {
      const server = createServer((socket) => this.accept(socket));
      // The socket file must never be readable by others, not even for an instant.
      const previous = process.umask(0o177);
      server.once("error", (err) => {
        process.umask(previous);
        reject(err);
      });
      server.listen(this.options.socketPath, () => {
        process.umask(previous);
        this.server = server;
        resolve();
      });
    });
  }

  private accept(socket: Socket): void {
    socket.on("error", () => undefined);
    const send = (msg: ControlResponse): void => {
      if (socket.destroyed || !socket.writable) return;
      if (socket.writableLength > this.limits.maxUnreadBytes) {
        this.options.logger.warn("a control client does not read its answers; disconnecting it", { unreadBytes: socket.writableLength });
        socket.destroy();
        return;
      }
      let line: string;
      try {
        line = encode(msg);
      } catch (err) {
        // A handler produced something JSON cannot carry (a BigInt, a cycle): say so, do not throw into the handler.
        this.options.logger.error("a control answer could not be encoded", { id: msg.id, error: err instanceof Error ? err.message : String(err) });
        line = encode({ id: msg.id, ok: false, error: { code: "INTERNAL", message: "the answer could not be encoded" } });
      }
      socket.write(line);
    };
    if (this.connectionSet.size >= this.limits.maxConnections) {
      this.options.logger.warn("refused a control connection: too many open", { open: this.connectionSet.size });
      socket.end(encode({ id: 0, ok: false, error: { code: "CONTROL_UNAVAILABLE", message: `too many control connections (${this.limits.maxConnections}); try again` } }));
      return;
    }
    const conn: Connection = { socket, streams: new Set(), inFlight: 0, send };
    this.connectionSet.add(conn);
    const decoder = new LineDecoder(
      (value) => void this.dispatch(value, conn),
      (err) => send({ id: 0, ok: false, error: { code: "CONTROL_PROTOCOL", message: err.message } }),
    );
    socket.on("data", (chunk) => decoder.push(chunk));
    socket.on("close", () => {
      this.connectionSet.delete(conn);
      this.endStreams(conn);
    });
  }

  /** Runs every open stream's cleanup once; a cleanup that throws is logged, never thrown. */
  private endStreams(conn: Connection): void {
    const cleanups = [...conn.streams];
    conn.streams.clear();
    for (const fn of cleanups) fn();
  }

  /** Answers one parsed line. Never rejects: whatever goes wrong becomes an error reply. */
  private async dispatch(value: unknown, conn: Connection): Promise<void> {
    const { send } = conn;
    const protocolError = (id: number, message: string): void => send({ id, ok: false, error: { code: "CONTROL_PROTOCOL", message } });
    if (!isPlainObject(value)) return protocolError(0, "a request must be a JSON object {id, method, params}");
    const id = value.id;
    if (typeof id !== "number" || !Number.isSafeInteger(id) || id < 0) return protocolError(0, "a request needs an id that is a non-negative integer");
    const method = value.method;
    if (typeof method !== "string" || method.length === 0 || method.length > MAX_METHOD_CHARS) return protocolError(id, `a request needs a method name (a string of 1 to ${MAX_METHOD_CHARS} characters)`);
    const rawParams = value.params;
    if (rawParams !== undefined && rawParams !== null && !isPlainObject(rawParams)) return protocolError(id, "params must be a JSON object");
    const params: Params = rawParams ?? {};

    const stream = this.streams.get(method);
    if (stream) return this.openStream(id, method, stream, params, conn);
    const call = this.calls.get(method);
    if (!call) {
      send({ id, ok: false, error: { code: "UNKNOWN_METHOD", message: `unknown method ${JSON.stringify(method)}` } });
      return;
    }
    if (conn.inFlight >= this.limits.maxInFlightPerConnection) return protocolError(id, `too many requests awaiting an answer on this connection (${this.limits.maxInFlightPerConnection})`);
    conn.inFlight++;
    try {
      send({ id, ok: true, result: await call(params) });
    } catch (err) {
      send({ id, ok: false, error: this.describe(err, method) });
    } finally {
      conn.inFlight--;
    }
  }

  private openStream(id: number, method: string, stream: StreamHandler, params: Params, conn: Connection): void {
    const { send } = conn;
    if (conn.streams.size >= this.limits.maxStreamsPerConnection) {
      send({ id, ok: false, error: { code: "CONTROL_PROTOCOL", message: `too many open streams on this connection (${this.limits.maxStreamsPerConnection})` } });
      return;
    }
    let ended = false;
    let started = false;
    const end = (): void => {
      if (ended) return;
      ended = true;
      send({ id, ok: true, end: true });
      // A stream that ends itself is done: its cleanup runs and it stops counting against the cap.
      if (started) finish();
    };
    const emit = (result: unknown): void => {
      if (!ended) send({ id, ok: true, result });
    };
    let cleanup: unknown;
    try {
      cleanup = stream(params, emit, end);
    } catch (err) {
      ended = true;
      send({ id, ok: false, error: this.describe(err, method) });
      return;
    }
    started = true;
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      end();
      conn.streams.delete(finish);
      if (typeof cleanup !== "function") return;
      try {
        (cleanup as () => void)();
      } catch (err) {
        this.options.logger.error("a control stream's cleanup failed", { method, error: err instanceof Error ? err.message : String(err) });
      }
    };
    // The handler may have ended at once (a backlog with no follow).
    if (ended) finish();
    else conn.streams.add(finish);
  }

  private describe(err: unknown, method: string): { code: string; message: string } {
    const code = err instanceof InsightsError ? err.code : "INTERNAL";
    const message = err instanceof Error ? err.message : String(err);
    if (code === "INTERNAL") this.options.logger.error("control method failed", { method, error: message });
    return { code, message };
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** True when something accepts connections on the socket path within the timeout. */
function socketAnswers(path: string, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection(path);
    const done = (answer: boolean): void => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}
