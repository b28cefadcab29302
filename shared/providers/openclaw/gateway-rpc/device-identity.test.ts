import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { manualClock } from "../../../base/clock.js";
import {
  DEVICE_IDENTITY_FILE,
  DEVICE_TOKEN_FILE,
  clearDeviceToken,
  deviceAuthPayloadV2,
  deviceAuthPayloadV3,
  deviceIdFromPublicKey,
  loadDeviceToken,
  loadOrCreateDeviceIdentity,
  saveDeviceToken,
  signPayload,
  verifyPayloadSignature,
} from "./device-identity.js";

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "gi-"));
const mode = (file: string) => fs.statSync(file).mode & 0o777;

// Independent of the module: the raw key is the last 32 bytes of the Ed25519 SPKI DER.
function rawFromPem(pem: string): Buffer {
  return crypto.createPublicKey(pem).export({ type: "spki", format: "der" }).subarray(-32);
}

test("first use creates a 0600 identity whose id is sha256(raw public key)", () => {
  const dir = path.join(tmp(), "state");
  const clock = manualClock(1_700_000_000_000);
  const r = loadOrCreateDeviceIdentity(dir, { clock });
  assert.ok(r.ok);
  if (!r.ok) return;
  const file = path.join(dir, DEVICE_IDENTITY_FILE);
  assert.is(mode(file), 0o600);
  assert.is(mode(dir), 0o700);
  const stored = JSON.parse(fs.readFileSync(file, "utf8")) as { deviceId: string; publicKeyPem: string; privateKeyPem: string; createdAtMs: number };
  const raw = rawFromPem(stored.publicKeyPem);
  assert.is(raw.length, 32);
  assert.is(r.value.deviceId, crypto.createHash("sha256").update(raw).digest("hex"));
  assert.is(stored.deviceId, r.value.deviceId);
  assert.is(r.value.publicKey, raw.toString("base64url"));
  assert.not.match(r.value.publicKey, /[=+/]/);
  assert.is(stored.createdAtMs, 1_700_000_000_000);
  assert.is(crypto.createPrivateKey(stored.privateKeyPem).asymmetricKeyType, "ed25519");
});

test("second use loads the same identity instead of making a new one", () => {
  const dir = tmp();
  const a = loadOrCreateDeviceIdentity(dir);
  const before = fs.readFileSync(path.join(dir, DEVICE_IDENTITY_FILE), "utf8");
  const b = loadOrCreateDeviceIdentity(dir);
  assert.ok(a.ok && b.ok);
  if (!a.ok || !b.ok) return;
  assert.is(b.value.deviceId, a.value.deviceId);
  assert.is(b.value.privateKeyPem, a.value.privateKeyPem);
  assert.is(fs.readFileSync(path.join(dir, DEVICE_IDENTITY_FILE), "utf8"), before);
});

test("an identity written by someone else is loaded as is", () => {
  const dir = tmp();
  const { publicKey, privateKey } = crypto.generateKeyPairSync("ed25519");
  const publicKeyPem = publicKey.export({ type: "spki", format: "pem" }).toString();
  const deviceId = crypto.createHash("sha256").update(rawFromPem(publicKeyPem)).digest("hex");
  fs.writeFileSync(
    path.join(dir, DEVICE_IDENTITY_FILE),
    JSON.stringify({ version: 1, deviceId, publicKeyPem, privateKeyPem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(), createdAtMs: 5 }),
    { mode: 0o644 },
  );
  const r = loadOrCreateDeviceIdentity(dir);
  assert.ok(r.ok);
  if (!r.ok) return;
  assert.is(r.value.deviceId, deviceId);
  // A readable key file is tightened, not refused.
  assert.is(mode(path.join(dir, DEVICE_IDENTITY_FILE)), 0o600);
});

test("a damaged identity file is reported corrupt and left untouched", () => {
  const dir = tmp();
  const file = path.join(dir, DEVICE_IDENTITY_FILE);
  for (const bad of ["{not json", JSON.stringify({ deviceId: "ab", publicKeyPem: "x", privateKeyPem: "y", createdAtMs: 1 })]) {
    fs.writeFileSync(file, bad);
    const r = loadOrCreateDeviceIdentity(dir);
    assert.not.ok(r.ok);
    if (r.ok) return;
    assert.is(r.error.kind, "corrupt");
    assert.is(fs.readFileSync(file, "utf8"), bad);
  }
});

test("an identity file that is a link is refused, and the file it points at is neither used nor chmodded", () => {
  const elsewhere = tmp();
  const first = loadOrCreateDeviceIdentity(elsewhere);
  assert.ok(first.ok);
  const target = path.join(elsewhere, DEVICE_IDENTITY_FILE);
  fs.chmodSync(target, 0o644);
  const dir = tmp();
  fs.symlinkSync(target, path.join(dir, DEVICE_IDENTITY_FILE));
  const r = loadOrCreateDeviceIdentity(dir);
  assert.not.ok(r.ok, "a linked identity must not be used");
  if (r.ok) return;
  assert.match(r.error.message, /symbolic link/);
  assert.is(mode(target), 0o644, "not chmodded through the link");
  // A linked device token reads as absent rather than being followed.
  const tokenTarget = path.join(elsewhere, "token.json");
  fs.writeFileSync(tokenTarget, JSON.stringify({ deviceId: "d", role: "operator", scopes: [], token: "t", gatewayUrl: "ws://x", savedAtMs: 1 }));
  fs.symlinkSync(tokenTarget, path.join(dir, DEVICE_TOKEN_FILE));
  assert.is(loadDeviceToken(dir), undefined);
});

test("a key pair that does not match its device id is corrupt", () => {
  const dir = tmp();
  const good = loadOrCreateDeviceIdentity(dir);
  assert.ok(good.ok);
  const file = path.join(dir, DEVICE_IDENTITY_FILE);
  const stored = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>;
  stored.deviceId = "0".repeat(64);
  fs.writeFileSync(file, JSON.stringify(stored));
  const r = loadOrCreateDeviceIdentity(dir);
  assert.not.ok(r.ok);
  if (!r.ok) assert.is(r.error.kind, "corrupt");
});

test("an unwritable state dir is a permission error", () => {
  if (process.getuid?.() === 0) {
    console.log("  (skipped: running as root, chmod does not restrict root)");
    return;
  }
  const dir = tmp();
  fs.chmodSync(dir, 0o500);
  const r = loadOrCreateDeviceIdentity(path.join(dir, "state"));
  fs.chmodSync(dir, 0o700);
  assert.not.ok(r.ok);
  if (!r.ok) assert.is(r.error.kind, "permission");
});

test("the v3 payload is the documented pipe-joined string", () => {
  const fields = {
    deviceId: "d".repeat(64),
    clientId: "cli",
    clientMode: "probe",
    role: "operator",
    scopes: ["operator.read", "operator.write"],
    signedAtMs: 1737264000000,
    token: "tok",
    nonce: "n-1",
    platform: "  Linux ",
    deviceFamily: "Desktop",
  };
  assert.is(deviceAuthPayloadV3(fields), `v3|${"d".repeat(64)}|cli|probe|operator|operator.read,operator.write|1737264000000|tok|n-1|linux|desktop`);
  assert.is(deviceAuthPayloadV2(fields), `v2|${"d".repeat(64)}|cli|probe|operator|operator.read,operator.write|1737264000000|tok|n-1`);
  // No token and no metadata leave empty fields, not "null".
  assert.is(deviceAuthPayloadV3({ ...fields, token: null, platform: undefined, deviceFamily: null }), `v3|${"d".repeat(64)}|cli|probe|operator|operator.read,operator.write|1737264000000||n-1||`);
});

test("signatures verify with node:crypto over the exact payload", () => {
  const r = loadOrCreateDeviceIdentity(tmp());
  assert.ok(r.ok);
  if (!r.ok) return;
  const payload = "v3|x|cli|probe|operator|operator.read|1|t|n|linux|";
  const sig = signPayload(r.value, payload);
  assert.match(sig, /^[A-Za-z0-9_-]+$/);
  assert.is(Buffer.from(sig, "base64url").length, 64);
  assert.ok(crypto.verify(null, Buffer.from(payload), crypto.createPublicKey(r.value.publicKeyPem), Buffer.from(sig, "base64url")));
  assert.ok(verifyPayloadSignature(r.value.publicKey, payload, sig));
  assert.not.ok(verifyPayloadSignature(r.value.publicKey, payload + "x", sig));
  assert.not.ok(verifyPayloadSignature("short", payload, sig));
  assert.is(deviceIdFromPublicKey(r.value.publicKey), r.value.deviceId);
});

test("device token: saved 0600, loaded, cleared; a damaged file reads as absent", () => {
  const dir = tmp();
  assert.is(loadDeviceToken(dir), undefined);
  const rec = { deviceId: "d1", role: "operator", scopes: ["operator.read"], token: "secret-tok", gatewayUrl: "ws://127.0.0.1:1", savedAtMs: 9, issuedAtMs: 8 };
  const s = saveDeviceToken(dir, rec);
  assert.ok(s.ok);
  const file = path.join(dir, DEVICE_TOKEN_FILE);
  assert.is(mode(file), 0o600);
  assert.equal(loadDeviceToken(dir), rec);
  saveDeviceToken(dir, { ...rec, token: "second" });
  assert.is(loadDeviceToken(dir)?.token, "second");
  assert.equal(fs.readdirSync(dir), [DEVICE_TOKEN_FILE]);
  clearDeviceToken(dir);
  assert.not.ok(fs.existsSync(file));
  fs.writeFileSync(file, "{broken");
  assert.is(loadDeviceToken(dir), undefined);
});

test.run();
