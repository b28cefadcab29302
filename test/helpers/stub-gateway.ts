// A tiny in-process gateway for tests, on the shipped protocol server (gateway-server.ts): speaks
// the protocol v4 handshake the way a real OpenClaw 2026.9.6 gateway does (challenge, connect validation, Ed25519 device proof, shared-token or
// device-token auth, hello-ok) and answers methods from handlers, by default `channels.status` and
// `health` from the recorded fixture JSON. Loopback only, random port.
//
// What the real server checks on the device proof, in order (and what this stub copies):
// device.id == sha256(raw public key) hex -> |now - signedAt| <= 120 s -> nonce present and equal
// to the challenge's -> signature valid over the v3 payload, else the v2 payload. Failures answer
// INVALID_REQUEST with details {code: DEVICE_AUTH_*, reason} and close 1008.
//
// The challenge and hello-ok are shaped after ones recorded from real gateways (testdata/hello-*.json):
// 2026.9.6 sends challenge.capabilities, server.buildId/bootId and auth.method; 2026.7.1 sends none
// of those. While the gateway finishes its startup sidecars (seen for a few seconds right after
// /healthz first answers) connect gets UNAVAILABLE {reason: "startup-sidecars"}, retryAfterMs 500.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { deviceAuthPayloadV2, deviceAuthPayloadV3, deviceIdFromPublicKey, verifyPayloadSignature } from "../../shared/providers/openclaw/gateway-rpc/device-identity.js";
import { FIXTURES_DIR } from "./openclaw-fixtures.js";
import { CLOSE_SOCKET, GatewayRpcError, NO_REPLY, isRecord, startGatewayServer, type CallContext, type ConnectOutcome, type MethodHandler } from "../../shared/providers/openclaw/gateway-rpc/gateway-server.js";

export const GATEWAY_FIXTURES_DIR = path.join(FIXTURES_DIR, "gateway-responses-2026.9.6");

/** Real gateways whose handshake frames are recorded in testdata/. */
export type RecordedGatewayVersion = "2026.9.6" | "2026.7.1";

interface RecordedHandshake {
  challenge: { payload: Record<string, unknown> };
  helloOk: Record<string, unknown> & { server: Record<string, unknown>; features: { events: string[] }; auth: Record<string, unknown>; policy: Record<string, unknown> };
}

/** The recorded connect.challenge and hello-ok of a real gateway. */
export function recordedHandshake(version: RecordedGatewayVersion): RecordedHandshake {
  const file = path.join(path.dirname(fileURLToPath(import.meta.url)), "testdata", `hello-${version}.json`);
  return JSON.parse(fs.readFileSync(file, "utf8")) as RecordedHandshake;
}

export { CLOSE_SOCKET, NO_REPLY };
/** Thrown or returned by a handler to answer with an error frame. */
export const StubRpcError = GatewayRpcError;
export type StubRpcError = GatewayRpcError;

export type StubCallContext = CallContext;
export type StubHandler = MethodHandler;

/** What the stub verified for each successful connect; tests assert on it. */
export interface StubConnectRecord {
  deviceId: string;
  payloadVersion: "v3" | "v2";
  authMethod: "token" | "device-token" | "none";
  clientId: string;
  clientMode: string;
  displayName: string | null;
  scopes: string[];
  userAgent: string | null;
}

export interface StubGatewayOptions {
  /** Shared token the stub requires; undefined = auth mode none. */
  token?: string;
  handlers?: Record<string, StubHandler>;
  serverVersion?: string;
  /** Issue a device token in hello-ok (the real server does after loopback pairing). */
  issueDeviceToken?: boolean;
  /** Answer connect with NOT_PAIRED / PAIRING_REQUIRED this many times before accepting. */
  pairingRequiredTimes?: number;
  pairingNextStep?: string;
  /** Answer connect with UNAVAILABLE startup-sidecars this many times first. */
  unavailableTimes?: number;
  /** retryAfterMs of that answer; default 500, what the real gateway sends. */
  unavailableRetryAfterMs?: number;
  /** Whose recorded handshake to copy (frame shapes, events, policy); default 2026.9.6. */
  recorded?: RecordedGatewayVersion;
  /** Never send connect.challenge (a peer that accepts the socket and then hangs). */
  silent?: boolean;
  /**
   * The HTTP side on the same port, as the real gateway has it: GET /healthz and /readyz answer
   * these (status, JSON body); default the recorded fixture answers. `null` leaves the request
   * hanging (a gateway that accepts connections but does not answer).
   */
  http?: { healthz?: { status: number; body: unknown } | null; readyz?: { status: number; body: unknown } | null };
  tickIntervalMs?: number;
  /** Server wall clock, for the signedAt skew check. */
  now?: () => number;
}

export interface StubGateway {
  url: string;
  port: number;
  /** Successful handshakes, in order. */
  connects: StubConnectRecord[];
  /** connect failures the stub answered: details.code values. */
  rejections: string[];
  /** Methods called after the handshake, in arrival order. */
  calls: { method: string; params: unknown }[];
  /** Device tokens issued, by device id. */
  deviceTokens: Map<string, string>;
  /** Open sockets right now. */
  openSockets(): number;
  /** Drops every client socket (server-side close, code 1012 "service restart"). */
  dropAll(): void;
  close(): Promise<void>;
}

type Json = Record<string, unknown>;

/** Reads the recorded `channels.status` and `health` answers into handlers. */
export function fixtureHandlers(dir = GATEWAY_FIXTURES_DIR): Record<string, StubHandler> {
  const read = (file: string): unknown => JSON.parse(fs.readFileSync(path.join(dir, file), "utf8"));
  const status = read("call-channels.status.json");
  const health = read("health.json");
  return {
    "channels.status": () => status,
    health: () => health,
  };
}

const DEVICE_SIGNATURE_SKEW_MS = 120_000;

export async function startStubGateway(options: StubGatewayOptions = {}): Promise<StubGateway> {
  const handlers = options.handlers ?? fixtureHandlers();
  const now = options.now ?? (() => Date.now());
  const tickIntervalMs = options.tickIntervalMs ?? 30_000;
  let pairingLeft = options.pairingRequiredTimes ?? 0;
  let unavailableLeft = options.unavailableTimes ?? 0;
  const recorded = recordedHandshake(options.recorded ?? "2026.9.6");
  const { nonce: _recordedNonce, ts: _recordedTs, ...challengeExtra } = recorded.challenge.payload;
  const recordedHttp = (file: string): { status: number; body: unknown } => ({ status: 200, body: JSON.parse(fs.readFileSync(path.join(GATEWAY_FIXTURES_DIR, file), "utf8")) as unknown });
  const answers = { healthz: recordedHttp("healthz.json"), readyz: recordedHttp("readyz.json"), ...options.http };
  const stub: StubGateway = {
    url: "",
    port: 0,
    connects: [],
    rejections: [],
    calls: [],
    deviceTokens: new Map(),
    openSockets: () => 0,
    dropAll: () => undefined,
    close: async () => undefined,
  };

  // The real server's connect checks, in its order; each refusal is recorded for the tests.
  const connect = (frame: Json, { nonce, connId }: { nonce: string; connId: string }): ConnectOutcome => {
    const reject = (code: string, message: string, details: Json, closeCode = 1008, extra: Json = {}): ConnectOutcome => {
      stub.rejections.push(typeof details.code === "string" ? details.code : code);
      return { ok: false, code, message, details, closeCode, extra };
    };
    if (frame.type !== "req" || frame.method !== "connect" || !isRecord(frame.params)) {
      return reject("INVALID_REQUEST", "first frame must be connect", { code: "INVALID_FIRST_FRAME" });
    }
    const p = frame.params;
    const client = isRecord(p.client) ? p.client : {};
    if (typeof p.minProtocol !== "number" || typeof p.maxProtocol !== "number" || !(p.maxProtocol >= 4 && p.minProtocol <= 4)) {
      return reject("INVALID_REQUEST", "protocol mismatch", { code: "PROTOCOL_MISMATCH", expectedProtocol: 4 }, 1002);
    }
    const role = typeof p.role === "string" ? p.role : "operator";
    const scopes = Array.isArray(p.scopes) ? p.scopes.filter((s): s is string => typeof s === "string") : [];
    const auth = isRecord(p.auth) ? p.auth : {};
    const device = isRecord(p.device) ? p.device : null;
    if (!device) {
      return reject("NOT_PAIRED", "device identity required", { code: "DEVICE_IDENTITY_REQUIRED" });
    }
    const deviceId = String(device.id ?? "");
    const publicKey = String(device.publicKey ?? "");
    if (deviceIdFromPublicKey(publicKey) !== deviceId || Buffer.from(publicKey, "base64url").length !== 32) {
      return reject("INVALID_REQUEST", "device identity mismatch", { code: "DEVICE_AUTH_DEVICE_ID_MISMATCH", reason: "device-id-mismatch" });
    }
    const signedAt = device.signedAt;
    if (typeof signedAt !== "number" || Math.abs(now() - signedAt) > DEVICE_SIGNATURE_SKEW_MS) {
      return reject("INVALID_REQUEST", "device signature expired", { code: "DEVICE_AUTH_SIGNATURE_EXPIRED", reason: "device-signature-stale" });
    }
    const sentNonce = typeof device.nonce === "string" ? device.nonce.trim() : "";
    if (!sentNonce) {
      return reject("INVALID_REQUEST", "device nonce required", { code: "DEVICE_AUTH_NONCE_REQUIRED", reason: "device-nonce-missing" });
    }
    if (sentNonce !== nonce) {
      return reject("INVALID_REQUEST", "device nonce mismatch", { code: "DEVICE_AUTH_NONCE_MISMATCH", reason: "device-nonce-mismatch" });
    }
    const signedToken = [auth.token, auth.deviceToken, auth.bootstrapToken].find((t): t is string => typeof t === "string") ?? null;
    const fields = {
      deviceId,
      clientId: String(client.id ?? ""),
      clientMode: String(client.mode ?? ""),
      role,
      scopes,
      signedAtMs: signedAt,
      token: signedToken,
      nonce: sentNonce,
      platform: typeof client.platform === "string" ? client.platform : null,
      deviceFamily: typeof client.deviceFamily === "string" ? client.deviceFamily : null,
    };
    const signature = String(device.signature ?? "");
    const payloadVersion = verifyPayloadSignature(publicKey, deviceAuthPayloadV3(fields), signature)
      ? "v3"
      : verifyPayloadSignature(publicKey, deviceAuthPayloadV2(fields), signature)
        ? "v2"
        : null;
    if (!payloadVersion) {
      return reject("INVALID_REQUEST", "device signature invalid", { code: "DEVICE_AUTH_SIGNATURE_INVALID", reason: "device-signature" });
    }
    // Shared secret first; then the device token, explicit or as the auth.token fallback.
    let authMethod: StubConnectRecord["authMethod"] = "none";
    if (options.token !== undefined) {
      const issued = stub.deviceTokens.get(deviceId);
      const deviceCandidate = typeof auth.deviceToken === "string" ? auth.deviceToken : typeof auth.token === "string" ? auth.token : undefined;
      if (auth.token === options.token) authMethod = "token";
      else if (issued !== undefined && deviceCandidate === issued) authMethod = "device-token";
      else if (typeof auth.deviceToken === "string") {
        return reject("INVALID_REQUEST", "unauthorized: device token mismatch", { code: "AUTH_DEVICE_TOKEN_MISMATCH", canRetryWithDeviceToken: false, recommendedNextStep: "update_auth_credentials" });
      } else if (typeof auth.token === "string") {
        return reject("INVALID_REQUEST", "unauthorized: gateway token mismatch", { code: "AUTH_TOKEN_MISMATCH", canRetryWithDeviceToken: true, recommendedNextStep: "retry_with_device_token" });
      } else {
        return reject("INVALID_REQUEST", "unauthorized: gateway token missing", { code: "AUTH_TOKEN_MISSING", canRetryWithDeviceToken: false, recommendedNextStep: "update_auth_configuration" });
      }
    }
    if (unavailableLeft > 0) {
      unavailableLeft--;
      return reject("UNAVAILABLE", "gateway starting; retry shortly", { reason: "startup-sidecars" }, 1013, { retryable: true, retryAfterMs: options.unavailableRetryAfterMs ?? 500 });
    }
    if (pairingLeft > 0) {
      pairingLeft--;
      const requestId = `req-${crypto.randomBytes(3).toString("hex")}`;
      return reject("NOT_PAIRED", `pairing required (requestId: ${requestId})`, {
        code: "PAIRING_REQUIRED",
        reason: "not-paired",
        requestId,
        recommendedNextStep: options.pairingNextStep ?? "wait_then_retry",
        retryable: true,
      });
    }
    let deviceToken: string | undefined;
    if (options.issueDeviceToken !== false) {
      deviceToken = stub.deviceTokens.get(deviceId) ?? crypto.randomBytes(24).toString("base64url");
      stub.deviceTokens.set(deviceId, deviceToken);
    }
    stub.connects.push({
      deviceId,
      payloadVersion,
      authMethod,
      clientId: fields.clientId,
      clientMode: fields.clientMode,
      displayName: typeof client.displayName === "string" ? client.displayName : null,
      scopes,
      userAgent: typeof p.userAgent === "string" ? p.userAgent : null,
    });
    const real = recorded.helloOk;
    // 2026.7.1 has no auth.method and no server.buildId; copy only what the recorded gateway sent.
    const server: Json = { ...real.server, version: options.serverVersion ?? (real.server.version as string), connId };
    const authOut: Json = { ...("method" in real.auth ? { method: authMethod } : {}), role, scopes, ...(deviceToken ? { deviceToken, issuedAtMs: now() } : {}) };
    return {
      ok: true,
      session: { deviceId, scopes, connId },
      hello: {
        type: "hello-ok",
        protocol: 4,
        server,
        features: { methods: Object.keys(handlers), events: real.features.events },
        snapshot: { uptimeMs: 1 },
        auth: authOut,
        policy: { ...real.policy, tickIntervalMs },
      },
    };
  };

  const gateway = await startGatewayServer({
    http: (p) => {
      const name = p === "/healthz" ? "healthz" : p === "/readyz" ? "readyz" : null;
      if (!name) return undefined;
      return answers[name] ?? null;
    },
    challengeExtra,
    connect,
    handlers,
    // What the real server answers a read-scoped client for a method it does not know (or an
    // admin-only one): 2026.9.6 FORBIDDEN with details, 2026.7.1 INVALID_REQUEST with none.
    unknownMethod: () =>
      options.recorded === "2026.7.1"
        ? { code: "INVALID_REQUEST", message: "missing scope: operator.admin" }
        : { code: "FORBIDDEN", message: "missing scope: operator.admin", details: { code: "MISSING_SCOPE", missingScope: "operator.admin", requiredScopes: ["operator.admin"] } },
    onRequest: (method, params) => stub.calls.push({ method, params }),
    ...(options.silent ? { silent: true } : {}),
    now,
  });
  Object.assign(stub, { url: gateway.url, port: gateway.port, openSockets: gateway.openSockets, dropAll: gateway.dropAll, close: gateway.close });
  return stub;
}
