// A small operator client for the OpenClaw gateway WebSocket RPC (protocol v4): challenge ->
// signed `connect` -> hello-ok, then request/response calls with ids, per-call timeouts and
// measured round trips. Every public method resolves to a SourceResult; nothing is thrown at the
// caller, so a probe loop can run it unguarded.
//
// Wire facts (docs/gateway/protocol/{handshake,transport,auth,versioning}.md, checked against a
// real 2026.9.6 gateway):
// - frames: {type:"req",id,method,params} / {type:"res",id,ok,payload|error} / {type:"event",event,payload,seq?}
// - the first server frame is event `connect.challenge` {nonce, ts}; `ts` becomes device.signedAt;
// - `client.id` and `client.mode` are closed enums on the server. There is no id for third-party
//   tools, so we identify like the gateway's own status probe (`cli` + mode `probe`: ephemeral,
//   kept out of presence, read scope) and put our name in `displayName` and `userAgent`;
// - a device identity is required for scopes; loopback pairing is approved silently, otherwise
//   the server answers NOT_PAIRED with details.code PAIRING_REQUIRED and a requestId;
// - hello-ok.auth.deviceToken, when sent, is persisted and offered back on later connects.
import { performance } from "node:perf_hooks";
import { randomBytes } from "node:crypto";
import WebSocket from "ws";
import type { Clock } from "../../../base/clock.js";
import { systemClock } from "../../../base/clock.js";
import { PRODUCT, VERSION } from "../../../base/version.js";
import { SourceError, fail, ok } from "../../result.js";
import type { SourceErrorKind, SourceResult } from "../../result.js";
import {
  clearDeviceToken,
  deviceAuthPayloadV3,
  loadDeviceToken,
  loadOrCreateDeviceIdentity,
  saveDeviceToken,
  signPayload,
} from "./device-identity.js";
import type { DeviceIdentity, StoredDeviceToken } from "./device-identity.js";
import type { GatewayAuth } from "./gateway-auth.js";

export const PROTOCOL_VERSION = 4;
export const DEFAULT_SCOPES: readonly string[] = ["operator.read"];
/** Closed server enum values; see the header comment for why these two. */
export const DEFAULT_CLIENT_ID = "cli";
export const DEFAULT_CLIENT_MODE = "probe";

/** `error` of a failed response frame. */
export interface RpcErrorShape {
  code: string;
  message: string;
  details?: unknown;
  retryable?: boolean;
  retryAfterMs?: number;
}

export interface GatewayEvent {
  event: string;
  payload: unknown;
  seq?: number;
}

/** What hello-ok told us, trimmed to what a monitor uses. */
export interface HelloInfo {
  protocol: number;
  serverVersion: string;
  buildId: string | null;
  connId: string;
  methods: string[];
  events: string[];
  role: string;
  scopes: string[];
  /** hello-ok.auth.method: token | password | device-token | ...; null when the server omits it. */
  authMethod: string | null;
  /** A device token was in hello-ok.auth (persisted when new). */
  deviceTokenIssued: boolean;
  tickIntervalMs: number;
  maxPayload: number | null;
  /** Socket open to hello-ok, in ms. */
  handshakeMs: number;
  /** hello-ok.snapshot as sent (presence, health, uptimeMs, ...); unvalidated. */
  snapshot: unknown;
}

export interface RpcReply<T> {
  payload: T;
  /** Request sent to response received, in ms (monotonic clock). */
  latencyMs: number;
}

export interface GatewayRpcClientOptions {
  /** ws://127.0.0.1:<port> */
  url: string;
  /** Where the device identity and device token files live (the daemon's state dir). */
  stateDir: string;
  /** Shared gateway secret(s); see resolveGatewayAuth. */
  auth?: GatewayAuth;
  clientVersion?: string;
  clientId?: string;
  clientMode?: string;
  displayName?: string;
  scopes?: readonly string[];
  platform?: string;
  /** Whole connect budget, retries included. */
  connectTimeoutMs?: number;
  /** Default per-call timeout. */
  requestTimeoutMs?: number;
  /** Wall clock, for the saved token's timestamp. */
  clock?: Clock;
  /** Monotonic ms, for latencies and budgets. */
  monotonicNow?: () => number;
  /** Waits between connect retries; injectable so tests need not wait. */
  sleep?: (ms: number) => Promise<void>;
  onEvent?: (event: GatewayEvent) => void;
  /** Called when an open connection ends (server close, watchdog, network). */
  onClose?: (info: { code: number; reason: string }) => void;
}

type Json = Record<string, unknown>;

function isRecord(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function stringArray(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((s): s is string => typeof s === "string") : [];
}

function detailCode(err: RpcErrorShape): string | undefined {
  return isRecord(err.details) && typeof err.details.code === "string" ? err.details.code : undefined;
}

function isLoopbackUrl(url: string): boolean {
  try {
    const host = new URL(url).hostname.replace(/^\[|\]$/g, "");
    return host === "localhost" || host === "::1" || /^127\./.test(host);
  } catch {
    return false;
  }
}

/** Maps a gateway error frame onto a SourceError kind, keeping the wire facts in details. */
export function rpcErrorToSourceError(err: RpcErrorShape, context: string): SourceError {
  const dcode = detailCode(err);
  // 2026.7.1 answers a scope failure as INVALID_REQUEST "missing scope: operator.admin" with no
  // details (2026.9.6: FORBIDDEN with details.code MISSING_SCOPE), so the message is the only sign.
  const scopeInMessage = /^missing scope: (\S+)/.exec(err.message)?.[1];
  let kind: SourceErrorKind;
  if (err.code === "FORBIDDEN" || err.code === "NOT_PAIRED" || scopeInMessage !== undefined) kind = "permission";
  else if (err.code === "UNAVAILABLE") kind = "unreachable";
  else if (dcode === "PROTOCOL_MISMATCH" || dcode === "CLIENT_VERSION_MISMATCH") kind = "unsupported";
  else if (dcode && /^(AUTH_|DEVICE_AUTH_|DEVICE_IDENTITY|PAIRING_|CONTROL_UI_)/.test(dcode)) kind = "permission";
  // INVALID_REQUEST without an auth code means the server did not accept what we sent: a
  // version skew in params or method, not damaged data.
  else if (err.code === "INVALID_REQUEST") kind = "unsupported";
  else kind = "corrupt";
  const details: Record<string, unknown> = { rpcCode: err.code };
  if (dcode) details.detailCode = dcode;
  if (typeof err.retryable === "boolean") details.retryable = err.retryable;
  if (typeof err.retryAfterMs === "number") details.retryAfterMs = err.retryAfterMs;
  if (isRecord(err.details)) {
    // Only non-secret, operator-useful hints are copied.
    for (const k of ["requestId", "recommendedNextStep", "missingScope", "reason", "remediationHint"]) {
      if (typeof err.details[k] === "string") details[k] = err.details[k];
    }
  }
  if (scopeInMessage !== undefined && details.missingScope === undefined) details.missingScope = scopeInMessage;
  const hint = typeof details.requestId === "string" ? ` (approve with: openclaw devices approve ${details.requestId})` : "";
  return new SourceError(kind, `${context}: ${err.code}: ${err.message}${hint}`, details);
}

function parseErrorShape(v: unknown): RpcErrorShape {
  if (!isRecord(v)) return { code: "UNKNOWN", message: "error response without an error object" };
  const out: RpcErrorShape = {
    code: typeof v.code === "string" && v.code ? v.code : "UNKNOWN",
    message: typeof v.message === "string" && v.message ? v.message : "(no message)",
  };
  if (v.details !== undefined) out.details = v.details;
  if (typeof v.retryable === "boolean") out.retryable = v.retryable;
  if (typeof v.retryAfterMs === "number") out.retryAfterMs = v.retryAfterMs;
  return out;
}

function parseHello(payload: unknown, handshakeMs: number): HelloInfo | string {
  if (!isRecord(payload)) return "hello-ok payload is not an object";
  if (payload.type !== "hello-ok") return `expected hello-ok, got ${JSON.stringify(payload.type)}`;
  const server = isRecord(payload.server) ? payload.server : {};
  const features = isRecord(payload.features) ? payload.features : {};
  const auth = isRecord(payload.auth) ? payload.auth : {};
  const policy = isRecord(payload.policy) ? payload.policy : {};
  if (typeof payload.protocol !== "number") return "hello-ok without protocol";
  if (typeof server.version !== "string") return "hello-ok without server.version";
  return {
    protocol: payload.protocol,
    serverVersion: server.version,
    buildId: typeof server.buildId === "string" ? server.buildId : null,
    connId: typeof server.connId === "string" ? server.connId : "",
    methods: stringArray(features.methods),
    events: stringArray(features.events),
    role: typeof auth.role === "string" ? auth.role : "",
    scopes: stringArray(auth.scopes),
    authMethod: typeof auth.method === "string" ? auth.method : null,
    deviceTokenIssued: typeof auth.deviceToken === "string" && auth.deviceToken.length > 0,
    tickIntervalMs: typeof policy.tickIntervalMs === "number" && policy.tickIntervalMs > 0 ? policy.tickIntervalMs : 30_000,
    maxPayload: typeof policy.maxPayload === "number" ? policy.maxPayload : null,
    handshakeMs,
    snapshot: payload.snapshot,
  };
}

function socketError(err: unknown, url: string): SourceError {
  const code = (err as { code?: unknown } | null)?.code;
  const message = err instanceof Error ? err.message : String(err);
  if (code === "ETIMEDOUT") return new SourceError("timeout", `${url}: connect timed out`, { where: url, errno: code }, { cause: err });
  if (code === "EACCES" || code === "EPERM") return new SourceError("permission", `${url}: ${message}`, { where: url, errno: code }, { cause: err });
  return new SourceError("unreachable", `${url}: ${message || String(code ?? "socket error")}`, { where: url, ...(typeof code === "string" ? { errno: code } : {}) }, { cause: err });
}

interface Pending {
  method: string;
  sentAt: number;
  timer: NodeJS.Timeout;
  resolve: (r: SourceResult<RpcReply<unknown>>) => void;
}

/** One authenticated socket; dies with the socket, never reopened. */
class Connection {
  private readonly pending = new Map<string, Pending>();
  private lastInbound: number;
  private readonly watchdog: NodeJS.Timeout;
  private seq = 0;
  closed = false;

  constructor(
    private readonly ws: WebSocket,
    readonly hello: HelloInfo,
    private readonly url: string,
    private readonly idPrefix: string,
    private readonly mono: () => number,
    private readonly onEvent: ((e: GatewayEvent) => void) | undefined,
    private readonly onClosed: (info: { code: number; reason: string }) => void,
  ) {
    this.lastInbound = mono();
    ws.on("message", (data) => this.onMessage(data));
    ws.on("close", (code, reason) => this.onSocketClose(code, reason.toString()));
    // The server ticks every tickIntervalMs; silence for two intervals means a dead peer that
    // TCP has not noticed yet (the protocol docs give the same 2x rule and close code 4000).
    this.watchdog = setInterval(() => {
      if (this.mono() - this.lastInbound > 2 * hello.tickIntervalMs) {
        this.abort("unreachable", `no frames from the gateway for ${2 * hello.tickIntervalMs} ms`, 4000);
      }
    }, hello.tickIntervalMs);
    this.watchdog.unref();
  }

  private onMessage(data: WebSocket.RawData): void {
    this.lastInbound = this.mono();
    let frame: unknown;
    try {
      frame = JSON.parse(data.toString());
    } catch {
      // One garbled frame says the stream is unreliable; pending calls cannot be matched any more.
      this.abort("corrupt", "gateway sent a frame that is not JSON", 1007);
      return;
    }
    if (!isRecord(frame)) return;
    if (frame.type === "res" && typeof frame.id === "string") {
      const p = this.pending.get(frame.id);
      if (!p) return; // late answer to a call that already timed out
      this.pending.delete(frame.id);
      clearTimeout(p.timer);
      const latencyMs = this.mono() - p.sentAt;
      if (frame.ok === true) p.resolve(ok({ payload: frame.payload, latencyMs }));
      else p.resolve(fail(rpcErrorToSourceError(parseErrorShape(frame.error), p.method)));
    } else if (frame.type === "event" && typeof frame.event === "string" && this.onEvent) {
      try {
        this.onEvent({ event: frame.event, payload: frame.payload, ...(typeof frame.seq === "number" ? { seq: frame.seq } : {}) });
      } catch {
        // a listener's bug must not kill the connection
      }
    }
  }

  private onSocketClose(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.watchdog);
    this.failAll("unreachable", `connection closed by gateway before the reply (code ${code}${reason ? `, ${reason}` : ""})`);
    this.onClosed({ code, reason });
  }

  /** Our side gives up on the socket: closed at once for callers, then cut. */
  private abort(kind: SourceErrorKind, message: string, code: number): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.watchdog);
    this.failAll(kind, message);
    this.ws.terminate();
    this.onClosed({ code, reason: message });
  }

  private failAll(kind: SourceErrorKind, message: string): void {
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.resolve(fail(new SourceError(kind, `${p.method}: ${message}`, { where: this.url, method: p.method })));
      this.pending.delete(id);
    }
  }

  request(method: string, params: unknown, timeoutMs: number): Promise<SourceResult<RpcReply<unknown>>> {
    return new Promise((resolve) => {
      if (this.closed || this.ws.readyState !== WebSocket.OPEN) {
        resolve(fail(new SourceError("unreachable", `${method}: connection is closed`, { where: this.url, method })));
        return;
      }
      const id = `${this.idPrefix}-${++this.seq}`;
      const timer = setTimeout(() => {
        if (!this.pending.delete(id)) return;
        resolve(fail(new SourceError("timeout", `${method}: no reply within ${timeoutMs} ms`, { where: this.url, method, timeoutMs })));
      }, timeoutMs);
      this.pending.set(id, { method, sentAt: this.mono(), timer, resolve });
      this.ws.send(JSON.stringify({ type: "req", id, method, params: params ?? {} }), (err) => {
        if (!err) return;
        const p = this.pending.get(id);
        if (!p) return;
        this.pending.delete(id);
        clearTimeout(p.timer);
        resolve(fail(socketError(err, this.url)));
      });
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    // Marked closed first so a close we asked for is not reported through onClose.
    this.closed = true;
    clearInterval(this.watchdog);
    this.failAll("unreachable", "client closed the connection");
    if (this.ws.readyState === WebSocket.CLOSED) return;
    const done = new Promise<void>((r) => this.ws.once("close", () => r()));
    this.ws.close(1000, "bye");
    // A peer that never answers the close handshake is cut off; 250 ms is the reference
    // client's grace before terminate().
    const grace = setTimeout(() => this.ws.terminate(), 250);
    await done;
    clearTimeout(grace);
  }
}

type AttemptAuth = { kind: "shared" } | { kind: "device-token"; stored: StoredDeviceToken } | { kind: "none" };

type AttemptResult =
  | { ok: true; conn: Connection; deviceToken?: { token: string; scopes: string[]; issuedAtMs?: number } }
  | { ok: false; error: SourceError; rpc?: RpcErrorShape };

/**
 * Operator RPC client. Connects lazily (first call) or explicitly, reuses the socket across
 * calls, and reconnects on the next call after the socket died. It does not reconnect in the
 * background: the monitor probes on a schedule, so the next probe is the retry.
 */
export class GatewayRpcClient {
  private readonly o: Required<Omit<GatewayRpcClientOptions, "onEvent" | "onClose" | "auth">> & Pick<GatewayRpcClientOptions, "onEvent" | "onClose" | "auth">;
  private conn: Connection | null = null;
  private connecting: Promise<SourceResult<HelloInfo>> | null = null;
  private identity: DeviceIdentity | null = null;
  private closedByUser = false;

  constructor(options: GatewayRpcClientOptions) {
    // `??` rather than spreading over defaults, so an explicit `undefined` still gets the default.
    this.o = {
      url: options.url,
      stateDir: options.stateDir,
      auth: options.auth,
      clientVersion: options.clientVersion ?? VERSION,
      clientId: options.clientId ?? DEFAULT_CLIENT_ID,
      clientMode: options.clientMode ?? DEFAULT_CLIENT_MODE,
      displayName: options.displayName ?? PRODUCT,
      scopes: options.scopes ?? DEFAULT_SCOPES,
      platform: options.platform ?? process.platform,
      connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
      requestTimeoutMs: options.requestTimeoutMs ?? 10_000,
      clock: options.clock ?? systemClock,
      monotonicNow: options.monotonicNow ?? (() => performance.now()),
      sleep: options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms))),
      onEvent: options.onEvent,
      onClose: options.onClose,
    };
  }

  /** The last hello-ok, while connected. */
  get hello(): HelloInfo | null {
    return this.conn && !this.conn.closed ? this.conn.hello : null;
  }

  get isOpen(): boolean {
    return this.conn !== null && !this.conn.closed;
  }

  /** Connects (or returns the open connection's hello). Concurrent callers share one attempt. */
  connect(): Promise<SourceResult<HelloInfo>> {
    this.closedByUser = false;
    if (this.conn && !this.conn.closed) return Promise.resolve(ok(this.conn.hello));
    if (!this.connecting) {
      this.connecting = this.connectWithRetries()
        .catch((err: unknown) => fail<HelloInfo>(new SourceError("corrupt", `gateway client: ${err instanceof Error ? err.message : String(err)}`, { where: this.o.url }, { cause: err })))
        .finally(() => {
          this.connecting = null;
        });
    }
    return this.connecting;
  }

  /** One RPC. Connects first when needed. A method the server did not advertise is `unsupported`. */
  async call<T = unknown>(method: string, params?: unknown, { timeoutMs }: { timeoutMs?: number } = {}): Promise<SourceResult<RpcReply<T>>> {
    try {
      const c = await this.connect();
      if (!c.ok) return fail(c.error, c.warnings);
      const conn = this.conn;
      if (!conn) return fail(new SourceError("unreachable", `${method}: connection closed`, { where: this.o.url, method }));
      // Checked locally because the real server answers an unknown method with
      // "FORBIDDEN missing scope: operator.admin", which would misreport version skew as a permission problem.
      if (conn.hello.methods.length > 0 && !conn.hello.methods.includes(method)) {
        return fail(new SourceError("unsupported", `${method}: not offered by gateway ${conn.hello.serverVersion}`, { where: this.o.url, method }));
      }
      return (await conn.request(method, params, timeoutMs ?? this.o.requestTimeoutMs)) as SourceResult<RpcReply<T>>;
    } catch (err) {
      return fail(new SourceError("corrupt", `${method}: ${err instanceof Error ? err.message : String(err)}`, { where: this.o.url, method }, { cause: err }));
    }
  }

  /** Closes the socket; pending calls resolve as unreachable. Safe to call twice. */
  async close(): Promise<void> {
    this.closedByUser = true;
    const conn = this.conn;
    this.conn = null;
    if (conn) await conn.close();
  }

  private async connectWithRetries(): Promise<SourceResult<HelloInfo>> {
    const mono = this.o.monotonicNow;
    const deadline = mono() + this.o.connectTimeoutMs;
    if (!this.identity) {
      const id = loadOrCreateDeviceIdentity(this.o.stateDir, { clock: this.o.clock });
      if (!id.ok) return fail(id.error, id.warnings);
      this.identity = id.value;
    }
    const identity = this.identity;
    const stored = this.usableStoredToken(identity);
    const hasShared = Boolean(this.o.auth?.token || this.o.auth?.password);
    // The docs' order: an explicit shared secret first, then a stored device token.
    let auth: AttemptAuth = hasShared ? { kind: "shared" } : stored ? { kind: "device-token", stored } : { kind: "none" };
    let triedDeviceToken = false;
    let last: SourceError | null = null;
    for (let attempt = 0; attempt < 20; attempt++) {
      const remaining = deadline - mono();
      if (remaining <= 0) break;
      if (auth.kind === "device-token") triedDeviceToken = true;
      const r = await this.attempt(identity, auth, remaining);
      if (this.closedByUser && r.ok) {
        await r.conn.close();
        return fail(new SourceError("unreachable", `${this.o.url}: client closed while connecting`, { where: this.o.url }));
      }
      if (r.ok) {
        this.conn = r.conn;
        if (r.deviceToken) this.persistDeviceToken(identity, r.deviceToken, r.conn.hello);
        return ok(r.conn.hello);
      }
      last = r.error;
      const rpc = r.rpc;
      if (!rpc) {
        // Socket-level failure (refused, reset, timeout): retrying inside one probe only burns
        // the budget; the next scheduled probe retries.
        return fail(r.error);
      }
      const dcode = detailCode(rpc);
      const d = isRecord(rpc.details) ? rpc.details : {};
      if (dcode === "AUTH_TOKEN_MISMATCH" && d.canRetryWithDeviceToken === true && stored && !triedDeviceToken && isLoopbackUrl(this.o.url)) {
        // Docs: a trusted (loopback) client may retry once with its cached device token.
        auth = { kind: "device-token", stored };
        continue;
      }
      if (dcode === "AUTH_DEVICE_TOKEN_MISMATCH" && auth.kind === "device-token") {
        // The gateway no longer knows our token (revoked, rotated, gateway reset): forget it.
        clearDeviceToken(this.o.stateDir);
        if (hasShared) {
          auth = { kind: "shared" };
          continue;
        }
        return fail(r.error);
      }
      const waitAndRetry =
        (rpc.code === "UNAVAILABLE" && rpc.retryable !== false) ||
        (dcode === "PAIRING_REQUIRED" && d.recommendedNextStep === "wait_then_retry") ||
        dcode === "AUTH_RATE_LIMITED";
      if (!waitAndRetry) return fail(r.error);
      const retryAfter = typeof rpc.retryAfterMs === "number" ? rpc.retryAfterMs : 500;
      const wait = Math.min(Math.max(retryAfter, 50), deadline - mono());
      if (wait <= 0) break;
      await this.o.sleep(wait);
    }
    const base = last ? `; last error: ${last.message}` : "";
    return fail(new SourceError("timeout", `${this.o.url}: no hello-ok within ${this.o.connectTimeoutMs} ms${base}`, { where: this.o.url, ...(last ? { lastKind: last.kind } : {}) }));
  }

  private usableStoredToken(identity: DeviceIdentity): StoredDeviceToken | undefined {
    const t = loadDeviceToken(this.o.stateDir);
    // A token is bound to device + role on one gateway; anything else would be rejected anyway.
    if (!t || t.deviceId !== identity.deviceId || t.role !== "operator" || t.gatewayUrl !== this.o.url) return undefined;
    return t;
  }

  private persistDeviceToken(identity: DeviceIdentity, issued: { token: string; scopes: string[]; issuedAtMs?: number }, hello: HelloInfo): void {
    const current = loadDeviceToken(this.o.stateDir);
    // Docs: keep the stored record (and its scopes) when the same token comes back.
    if (current && current.token === issued.token && current.deviceId === identity.deviceId && current.gatewayUrl === this.o.url) return;
    saveDeviceToken(this.o.stateDir, {
      deviceId: identity.deviceId,
      role: hello.role || "operator",
      scopes: issued.scopes,
      token: issued.token,
      gatewayUrl: this.o.url,
      savedAtMs: this.o.clock.now(),
      ...(issued.issuedAtMs !== undefined ? { issuedAtMs: issued.issuedAtMs } : {}),
    });
    // A failed save only costs a device token; the shared secret still works next time.
  }

  private connectParams(identity: DeviceIdentity, auth: AttemptAuth, nonce: string, signedAt: number): Json {
    const o = this.o;
    const authBlock: Json = {};
    if (auth.kind === "shared") {
      if (o.auth?.token) authBlock.token = o.auth.token;
      if (o.auth?.password) authBlock.password = o.auth.password;
    } else if (auth.kind === "device-token") {
      authBlock.deviceToken = auth.stored.token;
    }
    // The server signs over auth.token ?? auth.deviceToken ?? auth.bootstrapToken (never the password).
    const signedToken = (authBlock.token as string | undefined) ?? (authBlock.deviceToken as string | undefined) ?? null;
    const payload = deviceAuthPayloadV3({
      deviceId: identity.deviceId,
      clientId: o.clientId,
      clientMode: o.clientMode,
      role: "operator",
      scopes: o.scopes,
      signedAtMs: signedAt,
      token: signedToken,
      nonce,
      platform: o.platform,
    });
    return {
      minProtocol: PROTOCOL_VERSION,
      maxProtocol: PROTOCOL_VERSION,
      client: { id: o.clientId, displayName: o.displayName, version: o.clientVersion, platform: o.platform, mode: o.clientMode },
      role: "operator",
      scopes: [...o.scopes],
      caps: [],
      ...(Object.keys(authBlock).length > 0 ? { auth: authBlock } : {}),
      userAgent: `${o.displayName}/${o.clientVersion}`,
      device: { id: identity.deviceId, publicKey: identity.publicKey, signature: signPayload(identity, payload), signedAt, nonce },
    };
  }

  /** One socket: open, challenge, connect, hello-ok. Resolves once; never rejects. */
  private attempt(identity: DeviceIdentity, auth: AttemptAuth, budgetMs: number): Promise<AttemptResult> {
    const { url } = this.o;
    const mono = this.o.monotonicNow;
    return new Promise<AttemptResult>((resolve) => {
      let settled = false;
      let openedAt = 0;
      const connectId = `gi-connect-${randomBytes(4).toString("hex")}`;
      let ws: WebSocket;
      const finish = (r: AttemptResult): void => {
        if (settled) {
          if (r.ok) r.conn.close().catch(() => undefined);
          return;
        }
        settled = true;
        clearTimeout(timer);
        if (!r.ok && ws) {
          ws.removeAllListeners("message");
          ws.removeAllListeners("close");
          // 'error' stays handled: ws emits it on terminate() of a half-open socket.
          if (ws.readyState === WebSocket.OPEN) ws.close(1000);
          else ws.terminate();
        }
        resolve(r);
      };
      const timer = setTimeout(() => {
        const phase = openedAt ? "waiting for the challenge/hello-ok" : "opening the socket";
        finish({ ok: false, error: new SourceError("timeout", `${url}: connect timed out after ${Math.round(budgetMs)} ms ${phase}`, { where: url }) });
      }, budgetMs);
      try {
        // No Origin header: the gateway applies browser policy to requests that carry one.
        ws = new WebSocket(url, {
          handshakeTimeout: Math.max(1, Math.round(budgetMs)),
          perMessageDeflate: false,
          followRedirects: false,
          headers: { "User-Agent": `${this.o.displayName}/${this.o.clientVersion}` },
        });
      } catch (err) {
        // A malformed URL throws synchronously.
        finish({ ok: false, error: new SourceError("unreachable", `${url}: ${err instanceof Error ? err.message : String(err)}`, { where: url }, { cause: err }) });
        return;
      }
      ws.on("error", (err) => finish({ ok: false, error: socketError(err, url) }));
      ws.on("unexpected-response", (_req, res) => {
        finish({ ok: false, error: new SourceError("unreachable", `${url}: not a gateway WebSocket (HTTP ${res.statusCode})`, { where: url, httpStatus: res.statusCode }) });
      });
      ws.on("open", () => {
        openedAt = mono();
      });
      ws.on("close", (code, reason) => {
        finish({ ok: false, error: new SourceError("unreachable", `${url}: closed during handshake (code ${code}${reason.length ? `, ${reason.toString()}` : ""})`, { where: url, closeCode: code }) });
      });
      let challenged = false;
      ws.on("message", (data) => {
        let frame: unknown;
        try {
          frame = JSON.parse(data.toString());
        } catch {
          finish({ ok: false, error: new SourceError("corrupt", `${url}: handshake frame is not JSON`, { where: url }) });
          return;
        }
        if (!isRecord(frame)) return;
        if (!challenged) {
          if (frame.type !== "event" || frame.event !== "connect.challenge") return;
          const p = isRecord(frame.payload) ? frame.payload : {};
          const nonce = typeof p.nonce === "string" ? p.nonce.trim() : "";
          // Docs: a challenge without a non-negative integer ts is invalid.
          if (!nonce || typeof p.ts !== "number" || !Number.isInteger(p.ts) || p.ts < 0) {
            finish({ ok: false, error: new SourceError("corrupt", `${url}: malformed connect.challenge`, { where: url }) });
            return;
          }
          challenged = true;
          const params = this.connectParams(identity, auth, nonce, p.ts);
          ws.send(JSON.stringify({ type: "req", id: connectId, method: "connect", params }), (err) => {
            if (err) finish({ ok: false, error: socketError(err, url) });
          });
          return;
        }
        if (frame.type !== "res" || frame.id !== connectId) return;
        if (frame.ok !== true) {
          const rpc = parseErrorShape(frame.error);
          finish({ ok: false, error: rpcErrorToSourceError(rpc, "connect"), rpc });
          return;
        }
        const hello = parseHello(frame.payload, openedAt ? mono() - openedAt : 0);
        if (typeof hello === "string") {
          finish({ ok: false, error: new SourceError("corrupt", `${url}: ${hello}`, { where: url }) });
          return;
        }
        if (hello.protocol !== PROTOCOL_VERSION) {
          finish({ ok: false, error: new SourceError("unsupported", `${url}: gateway speaks protocol ${hello.protocol}, we speak ${PROTOCOL_VERSION}`, { where: url, protocol: hello.protocol }) });
          return;
        }
        const authPayload = isRecord(frame.payload) && isRecord(frame.payload.auth) ? frame.payload.auth : {};
        // Hand the socket to the connection synchronously so no frame falls between the handlers.
        ws.removeAllListeners("message");
        ws.removeAllListeners("close");
        ws.removeAllListeners("unexpected-response");
        const conn = new Connection(ws, hello, url, connectId.replace("connect-", ""), mono, this.o.onEvent, (info) => {
          if (this.conn === conn) this.conn = null;
          this.o.onClose?.(info);
        });
        const token = typeof authPayload.deviceToken === "string" && authPayload.deviceToken ? authPayload.deviceToken : undefined;
        finish({
          ok: true,
          conn,
          ...(token ? { deviceToken: { token, scopes: stringArray(authPayload.scopes), ...(typeof authPayload.issuedAtMs === "number" ? { issuedAtMs: authPayload.issuedAtMs } : {}) } } : {}),
        });
      });
    });
  }
}
