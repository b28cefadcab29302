// The CLI side of the control socket: one connection, request/response by id, and streams.
import { existsSync } from "node:fs";
import type { Socket } from "node:net";
import { encode, LineDecoder, MAX_RESPONSE_LINE_BYTES, type ControlResponse } from "../shared/control/protocol.js";
import { InsightsError, type ErrorCode } from "../shared/base/errors.js";

type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void; onResult?: (v: unknown) => void };

export class ControlClient {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private closedError: Error | null = null;

  private constructor(private readonly socket: Socket) {
    const decoder = new LineDecoder(
      (value) => this.onMessage(value as ControlResponse),
      () => undefined,
      MAX_RESPONSE_LINE_BYTES,
    );
    socket.on("data", (chunk) => decoder.push(chunk));
    socket.on("close", () => {
      this.closedError = new InsightsError("CONTROL_UNAVAILABLE", "the daemon closed the control connection");
      for (const p of this.pending.values()) {
        // A stream that ends because the daemon went away simply ends.
        if (p.onResult) p.resolve(undefined);
        else p.reject(this.closedError);
      }
      this.pending.clear();
    });
    socket.on("error", () => undefined);
  }

  /** Connects, or rejects with CONTROL_UNAVAILABLE when nobody listens. */
  static connect(socketPath: string, timeoutMs = 1000): Promise<ControlClient> {
    return new Promise((resolve, reject) => {
      // Loaded here, not imported: with no daemon the status line's bundle never needs node:net,
      // whose streams cost its every call a few ms to compile (docs/benchmarks.md, "Statusline").
      const socket = process.getBuiltinModule("node:net").createConnection(socketPath);
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new InsightsError("CONTROL_UNAVAILABLE", `no answer on ${socketPath} within ${timeoutMs} ms`));
      }, timeoutMs);
      socket.once("connect", () => {
        clearTimeout(timer);
        resolve(new ControlClient(socket));
      });
      socket.once("error", (err) => {
        clearTimeout(timer);
        reject(new InsightsError("CONTROL_UNAVAILABLE", `the daemon is not listening on ${socketPath} (${(err as NodeJS.ErrnoException).code ?? err.message})`));
      });
    });
  }

  /** Connects if a daemon answers; null otherwise (at once when its socket file is not there). */
  static async tryConnect(socketPath: string, timeoutMs = 1000): Promise<ControlClient | null> {
    if (!existsSync(socketPath)) return null;
    try {
      return await ControlClient.connect(socketPath, timeoutMs);
    } catch {
      return null;
    }
  }

  call<T>(method: string, params: Record<string, unknown> = {}, timeoutMs = 5000): Promise<T> {
    if (this.closedError) return Promise.reject(this.closedError);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new InsightsError("CONTROL_TIMEOUT", `the daemon did not answer ${method} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, {
        resolve: (v) => {
          clearTimeout(timer);
          resolve(v as T);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      this.socket.write(encode({ id, method, params }));
    });
  }

  /** Calls a streaming method; resolves when the daemon ends the stream or goes away. */
  stream(method: string, params: Record<string, unknown>, onResult: (v: unknown) => void): Promise<void> {
    if (this.closedError) return Promise.reject(this.closedError);
    const id = this.nextId++;
    return new Promise<void>((resolve, reject) => {
      this.pending.set(id, { resolve: () => resolve(), reject, onResult });
      this.socket.write(encode({ id, method, params }));
    });
  }

  close(): void {
    this.socket.end();
    this.socket.destroy();
  }

  private onMessage(msg: ControlResponse): void {
    const p = this.pending.get(msg.id);
    if (!p) return;
    if (!msg.ok) {
      this.pending.delete(msg.id);
      // The daemon only sends codes of its own ErrorCode set.
      p.reject(new InsightsError(msg.error.code as ErrorCode, msg.error.message));
      return;
    }
    if (p.onResult) {
      if (msg.end) {
        this.pending.delete(msg.id);
        p.resolve(undefined);
      } else p.onResult(msg.result);
      return;
    }
    this.pending.delete(msg.id);
    p.resolve(msg.result);
  }
}
