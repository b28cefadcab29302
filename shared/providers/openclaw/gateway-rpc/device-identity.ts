// The monitor's own Ed25519 device identity for the gateway WS handshake, plus the device token
// the gateway may issue to it. Both live as small 0600 JSON files in the daemon's state dir.
//
// Wire facts (OpenClaw protocol v4, docs/gateway/protocol/auth.md and the gateway's verifier):
// - device.id = lowercase hex SHA-256 of the raw 32-byte Ed25519 public key;
// - device.publicKey = the raw 32-byte key, base64url without padding;
// - device.signature = base64url Ed25519 signature over the UTF-8 "v3" payload string
//   `v3|deviceId|clientId|clientMode|role|scopes,csv|signedAtMs|token|nonce|platform|deviceFamily`,
//   where token is auth.token ?? auth.deviceToken ?? auth.bootstrapToken ?? "" and platform /
//   deviceFamily are trimmed and ASCII-lowercased ("" when absent). The older "v2" payload is the
//   first nine fields with a "v2" tag; servers still accept it, we only produce v3.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Clock } from "../../../base/clock.js";
import { systemClock } from "../../../base/clock.js";
import { InsightsError } from "../../../base/errors.js";
import { readPrivateFile } from "../../../base/private-files.js";
import { SourceError, classifyIoError, fail, ok } from "../../result.js";
import type { SourceResult } from "../../result.js";

export const DEVICE_IDENTITY_FILE = "gateway-device.json";
export const DEVICE_TOKEN_FILE = "gateway-device-token.json";

export interface DeviceIdentity {
  /** 64 hex chars: SHA-256 of the raw public key. */
  deviceId: string;
  /** Raw public key, base64url (what goes on the wire as device.publicKey). */
  publicKey: string;
  publicKeyPem: string;
  privateKeyPem: string;
  createdAtMs: number;
}

interface StoredIdentityFile {
  version: 1;
  deviceId: string;
  publicKeyPem: string;
  privateKeyPem: string;
  createdAtMs: number;
}

/** Raw 32-byte Ed25519 public key as base64url, from PEM/DER/KeyObject. */
export function rawPublicKeyBase64Url(key: crypto.KeyObject | string): string {
  const keyObject = typeof key === "string" ? crypto.createPublicKey(key) : key;
  if (keyObject.asymmetricKeyType !== "ed25519") throw new Error(`expected an ed25519 key, got ${keyObject.asymmetricKeyType}`);
  // The JWK "x" member is exactly the raw public key in base64url, which saves slicing SPKI DER by hand.
  const jwk = keyObject.export({ format: "jwk" });
  if (typeof jwk.x !== "string") throw new Error("ed25519 key has no public component");
  return jwk.x;
}

/** Device id for a raw base64url (or base64) public key: hex SHA-256 of the 32 key bytes. */
export function deviceIdFromPublicKey(publicKeyBase64Url: string): string {
  const raw = Buffer.from(publicKeyBase64Url, "base64url");
  return crypto.createHash("sha256").update(raw).digest("hex");
}

/** The payload fields the signature binds; the gateway rebuilds the same string to verify. */
export interface DeviceAuthPayloadFields {
  deviceId: string;
  clientId: string;
  clientMode: string;
  role: string;
  scopes: readonly string[];
  signedAtMs: number;
  /** auth.token ?? auth.deviceToken ?? auth.bootstrapToken; undefined/null signs as "". */
  token?: string | null;
  nonce: string;
  platform?: string | null;
  deviceFamily?: string | null;
}

// Only ASCII A-Z is folded, mirroring the server: a locale-aware toLowerCase could differ for
// non-ASCII platform strings and break verification.
function normalizeMetadata(value: string | null | undefined): string {
  if (typeof value !== "string") return "";
  return value.trim().replace(/[A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 32));
}

export function deviceAuthPayloadV3(f: DeviceAuthPayloadFields): string {
  return [
    "v3",
    f.deviceId,
    f.clientId,
    f.clientMode,
    f.role,
    f.scopes.join(","),
    String(f.signedAtMs),
    f.token ?? "",
    f.nonce,
    normalizeMetadata(f.platform),
    normalizeMetadata(f.deviceFamily),
  ].join("|");
}

/** The legacy v2 payload; only the stub gateway uses it, to accept what real servers accept. */
export function deviceAuthPayloadV2(f: DeviceAuthPayloadFields): string {
  return ["v2", f.deviceId, f.clientId, f.clientMode, f.role, f.scopes.join(","), String(f.signedAtMs), f.token ?? "", f.nonce].join("|");
}

/** Signs a UTF-8 payload with the identity's private key; base64url signature. */
export function signPayload(identity: DeviceIdentity, payload: string): string {
  const key = crypto.createPrivateKey(identity.privateKeyPem);
  return crypto.sign(null, Buffer.from(payload, "utf8"), key).toString("base64url");
}

/** Verifies a base64url signature against a raw base64url public key. Never throws. */
export function verifyPayloadSignature(publicKeyBase64Url: string, payload: string, signatureBase64Url: string): boolean {
  try {
    const raw = Buffer.from(publicKeyBase64Url, "base64url");
    if (raw.length !== 32) return false;
    const key = crypto.createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: raw.toString("base64url") }, format: "jwk" });
    return crypto.verify(null, Buffer.from(payload, "utf8"), key, Buffer.from(signatureBase64Url, "base64url"));
  } catch {
    return false;
  }
}

function identityFromStored(stored: StoredIdentityFile): DeviceIdentity {
  const publicKey = rawPublicKeyBase64Url(stored.publicKeyPem);
  // The private key must belong to the stored public key, or every signature would be rejected.
  const derived = rawPublicKeyBase64Url(crypto.createPublicKey(crypto.createPrivateKey(stored.privateKeyPem)));
  if (derived !== publicKey) throw new Error("private key does not match public key");
  if (deviceIdFromPublicKey(publicKey) !== stored.deviceId) throw new Error("deviceId does not match public key");
  return { deviceId: stored.deviceId, publicKey, publicKeyPem: stored.publicKeyPem, privateKeyPem: stored.privateKeyPem, createdAtMs: stored.createdAtMs };
}

function parseStoredIdentity(text: string): StoredIdentityFile {
  const v = JSON.parse(text) as Partial<StoredIdentityFile> | null;
  if (!v || typeof v !== "object") throw new Error("not a JSON object");
  if (typeof v.deviceId !== "string" || !/^[0-9a-f]{64}$/.test(v.deviceId)) throw new Error("bad deviceId");
  if (typeof v.publicKeyPem !== "string" || typeof v.privateKeyPem !== "string") throw new Error("missing key material");
  if (typeof v.createdAtMs !== "number" || !Number.isFinite(v.createdAtMs)) throw new Error("bad createdAtMs");
  return { version: 1, deviceId: v.deviceId, publicKeyPem: v.publicKeyPem, privateKeyPem: v.privateKeyPem, createdAtMs: v.createdAtMs };
}

/**
 * Writes `data` to `file` with mode 0600 only if `file` does not exist yet. Returns false when it
 * already existed. Written to a temp file then hard-linked, so a reader never sees half a file and
 * two daemons racing on first start agree on one identity.
 */
function writeNewPrivateFile(file: string, data: string): boolean {
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString("hex")}.tmp`;
  fs.writeFileSync(tmp, data, { mode: 0o600, flag: "wx" });
  try {
    fs.linkSync(tmp, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw err;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

/** Replaces `file` atomically with a 0600 file. */
function writePrivateFile(file: string, data: string): void {
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString("hex")}.tmp`;
  fs.writeFileSync(tmp, data, { mode: 0o600, flag: "wx" });
  try {
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}

// A key file someone made group/world-readable is tightened rather than refused (readPrivateFile
// does it through the open descriptor, never through a link); a link, or a file another user
// owns, is refused: the private key would otherwise be someone else's choosing.

/**
 * Loads the identity from `<stateDir>/gateway-device.json`, creating it (0600, and the dir 0700)
 * on first use. A file that exists but cannot be parsed is reported as corrupt and left alone:
 * replacing it silently would orphan the device's pairing on the gateway.
 */
export function loadOrCreateDeviceIdentity(stateDir: string, { clock = systemClock }: { clock?: Clock } = {}): SourceResult<DeviceIdentity> {
  const file = path.join(stateDir, DEVICE_IDENTITY_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    let text: string | null;
    try {
      text = readPrivateFile(file, "the gateway device identity");
    } catch (err) {
      if (err instanceof InsightsError && err.code === "UNSAFE_PATH") return fail(new SourceError("corrupt", err.message, { where: file }, { cause: err }));
      return fail(classifyIoError(err, file));
    }
    if (text !== null) {
      try {
        const identity = identityFromStored(parseStoredIdentity(text));
        return ok(identity);
      } catch (err) {
        return fail(new SourceError("corrupt", `${file}: invalid device identity (${(err as Error).message}); move it aside to create a new one`, { where: file }, { cause: err }));
      }
    }
    try {
      fs.mkdirSync(stateDir, { recursive: true, mode: 0o700 });
      const { publicKey, privateKey } = crypto.generateKeyPairSync("ed25519");
      const raw = rawPublicKeyBase64Url(publicKey);
      const stored: StoredIdentityFile = {
        version: 1,
        deviceId: deviceIdFromPublicKey(raw),
        publicKeyPem: publicKey.export({ type: "spki", format: "pem" }).toString(),
        privateKeyPem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
        createdAtMs: clock.now(),
      };
      if (writeNewPrivateFile(file, `${JSON.stringify(stored, null, 2)}\n`)) return ok(identityFromStored(stored));
      // Another process created it between our read and write: loop once to load theirs.
    } catch (err) {
      return fail(classifyIoError(err, file));
    }
  }
  return fail(new SourceError("corrupt", `${file}: identity file appeared and vanished while loading`, { where: file }));
}

/** A device token the gateway issued in hello-ok.auth.deviceToken, kept for reconnects. */
export interface StoredDeviceToken {
  deviceId: string;
  role: string;
  scopes: string[];
  token: string;
  /** The gateway URL it came from; a token is only offered back to the same gateway. */
  gatewayUrl: string;
  savedAtMs: number;
  issuedAtMs?: number;
}

/** Reads the stored device token; undefined when absent or unreadable (a token is an optimisation). */
export function loadDeviceToken(stateDir: string): StoredDeviceToken | undefined {
  try {
    const text = readPrivateFile(path.join(stateDir, DEVICE_TOKEN_FILE), "the gateway device token");
    if (text === null) return undefined;
    const v = JSON.parse(text) as Partial<StoredDeviceToken> | null;
    if (!v || typeof v.token !== "string" || typeof v.deviceId !== "string" || typeof v.role !== "string" || typeof v.gatewayUrl !== "string") return undefined;
    const scopes = Array.isArray(v.scopes) ? v.scopes.filter((s): s is string => typeof s === "string") : [];
    return {
      deviceId: v.deviceId,
      role: v.role,
      scopes,
      token: v.token,
      gatewayUrl: v.gatewayUrl,
      savedAtMs: typeof v.savedAtMs === "number" ? v.savedAtMs : 0,
      ...(typeof v.issuedAtMs === "number" ? { issuedAtMs: v.issuedAtMs } : {}),
    };
  } catch {
    return undefined;
  }
}

/** Persists (0600) the device token; returns an error instead of throwing. */
export function saveDeviceToken(stateDir: string, record: StoredDeviceToken): SourceResult<void> {
  const file = path.join(stateDir, DEVICE_TOKEN_FILE);
  try {
    fs.mkdirSync(stateDir, { recursive: true, mode: 0o700 });
    writePrivateFile(file, `${JSON.stringify(record, null, 2)}\n`);
    return ok(undefined);
  } catch (err) {
    return fail(classifyIoError(err, file));
  }
}

/** Forgets the stored device token (after the gateway rejected it). */
export function clearDeviceToken(stateDir: string): void {
  fs.rmSync(path.join(stateDir, DEVICE_TOKEN_FILE), { force: true });
}
