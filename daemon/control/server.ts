// The control socket: a node:net server on a Unix socket (0600, in the runtime dir) speaking the
// newline-delimited JSON of shared/control/protocol.ts. The socket is the second half of the
// single-instance lock: if another daemon answers on it we refuse to start; if nobody answers it
// is a leftover from a crash and is replaced.
import { chmodSync, rmSync } from "node:fs";
import { createConnection, createServer, type Server, type Socket } from "node:net";
import { encode, LineDecoder, type ControlRequest, type ControlResponse } from "../../shared/control/protocol.js";
import { InsightsError } from "../../shared/errors.js";
import type { Logger } from "../../shared/log/logger.js";

type Params = Record<string, unknown>;

/** Answers once. */
export type CallHandler = (params: Params) => unknown | Promise<unknown>;
/** Answers many times until the client goes away; returns the cleanup to run then. */
export type StreamHandler = (params: Params, emit: (result: unknown) => void, end: () => void) => () => void;

export interface ControlServerOptions {
  socketPath: string;
  logger: Logger;
  calls: Record<string, CallHandler>;
  streams?: Record<string, StreamHandler>;
}

export class ControlServer {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private readonly cleanups = new Set<() => void>();
  /** Set when a stale socket file from a crashed daemon was removed. */
  replacedStaleSocket = false;

  constructor(private readonly options: ControlServerOptions) {}

  async listen(): Promise<void> {
    const { socketPath } = this.options;
    try {
      await this.tryListen();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EADDRINUSE") throw err;
      if (await socketAnswers(socketPath)) {
        throw new InsightsError("ALREADY_RUNNING", `another gateway-insights daemon answers on ${socketPath}`);
      }
      rmSync(socketPath, { force: true });
      this.replacedStaleSocket = true;
      await this.tryListen();
    }
    chmodSync(socketPath, 0o600);
  }

  /** Stops accepting, ends streams, closes connections. */
  async close(): Promise<void> {
    for (const cleanup of this.cleanups) cleanup();
    this.cleanups.clear();
    const server = this.server;
    this.server = null;
    if (!server) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const s of this.sockets) s.end();
    // Give clients a moment to read the last line, then cut what is left.
    setTimeout(() => {
      for (const s of this.sockets) s.destroy();
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
    this.sockets.add(socket);
    const mine = new Set<() => void>();
    const write = (msg: ControlResponse): void => {
      if (!socket.destroyed && socket.writable) socket.write(encode(msg));
    };
    const decoder = new LineDecoder(
      (value) => void this.dispatch(value, write, mine),
      (err) => write({ id: 0, ok: false, error: { code: "CONTROL_PROTOCOL", message: err.message } }),
    );
    socket.on("data", (chunk) => decoder.push(chunk));
    socket.on("error", () => undefined);
    socket.on("close", () => {
      this.sockets.delete(socket);
      for (const cleanup of mine) {
        cleanup();
        this.cleanups.delete(cleanup);
      }
    });
  }

  private async dispatch(value: unknown, write: (msg: ControlResponse) => void, mine: Set<() => void>): Promise<void> {
    const req = value as Partial<ControlRequest>;
    const id = typeof req?.id === "number" ? req.id : 0;
    if (typeof req?.method !== "string") {
      write({ id, ok: false, error: { code: "CONTROL_PROTOCOL", message: "a request needs a string method" } });
      return;
    }
    const params = req.params && typeof req.params === "object" ? req.params : {};
    const stream = this.options.streams?.[req.method];
    if (stream) {
      let ended = false;
      const end = (): void => {
        if (ended) return;
        ended = true;
        write({ id, ok: true, end: true });
      };
      const cleanup = stream(params, (result) => !ended && write({ id, ok: true, result }), end);
      const both = (): void => {
        end();
        cleanup();
      };
      mine.add(both);
      this.cleanups.add(both);
      return;
    }
    const call = this.options.calls[req.method];
    if (!call) {
      write({ id, ok: false, error: { code: "UNKNOWN_METHOD", message: `unknown method ${req.method}` } });
      return;
    }
    try {
      write({ id, ok: true, result: await call(params) });
    } catch (err) {
      const code = err instanceof InsightsError ? err.code : "INTERNAL";
      const message = err instanceof Error ? err.message : String(err);
      if (code === "INTERNAL") this.options.logger.error("control method failed", { method: req.method, error: message });
      write({ id, ok: false, error: { code, message } });
    }
  }
}

/** True when something accepts connections on the socket path within the timeout. */
export function socketAnswers(path: string, timeoutMs = 500): Promise<boolean> {
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
