// The stub must reject what the real gateway rejects, or client tests against it prove nothing.
// These tests drive it with a raw `ws` client and sign with node:crypto directly, not with the
// client module under test.
import crypto from "node:crypto";
import fs from "node:fs";
import { test } from "uvu";
import * as assert from "uvu/assert";
import WebSocket from "ws";
import { GATEWAY_FIXTURES_DIR, StubRpcError, startStubGateway } from "./stub-gateway.js";
import type { StubGateway } from "./stub-gateway.js";

const { publicKey, privateKey } = crypto.generateKeyPairSync("ed25519");
const RAW = publicKey.export({ type: "spki", format: "der" }).subarray(-32);
const PUB = RAW.toString("base64url");
const DEVICE_ID = crypto.createHash("sha256").update(RAW).digest("hex");

interface Overrides {
  minProtocol?: number;
  payload?: (nonce: string, ts: number) => string;
  deviceId?: string;
  nonce?: (nonce: string) => string;
  signedAt?: (ts: number) => number;
  device?: false;
  token?: string;
}

interface Outcome {
  res: { ok: boolean; payload?: Record<string, unknown>; error?: { code: string; details?: { code?: string } } };
  closeCode: number | null;
  ws: WebSocket;
}

/** Opens a socket, waits for the challenge, sends a hand-built connect, returns the answer. */
function handshake(url: string, o: Overrides = {}): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    let res: Outcome["res"] | null = null;
    let closeCode: number | null = null;
    const timer = setTimeout(() => reject(new Error("no answer")), 5000);
    ws.on("error", reject);
    ws.on("close", (code) => {
      closeCode = code;
      if (res) {
        clearTimeout(timer);
        resolve({ res, closeCode, ws });
      }
    });
    ws.on("message", (data) => {
      const f = JSON.parse(data.toString()) as { type: string; event?: string; payload?: { nonce: string; ts: number }; id?: string };
      if (f.type === "event" && f.event === "connect.challenge" && f.payload) {
        const { nonce, ts } = f.payload;
        const token = o.token ?? "stub-token";
        const signedAt = o.signedAt ? o.signedAt(ts) : ts;
        const payload = o.payload ? o.payload(nonce, ts) : `v3|${DEVICE_ID}|cli|probe|operator|operator.read|${signedAt}|${token}|${nonce}|linux|`;
        const signature = crypto.sign(null, Buffer.from(payload), privateKey).toString("base64url");
        const params: Record<string, unknown> = {
          minProtocol: o.minProtocol ?? 4,
          maxProtocol: 4,
          client: { id: "cli", version: "0.0.1", platform: "Linux", mode: "probe" },
          role: "operator",
          scopes: ["operator.read"],
          auth: { token },
        };
        if (o.device !== false) params.device = { id: o.deviceId ?? DEVICE_ID, publicKey: PUB, signature, signedAt, nonce: o.nonce ? o.nonce(nonce) : nonce };
        ws.send(JSON.stringify({ type: "req", id: "c1", method: "connect", params }));
      } else if (f.type === "res" && f.id === "c1") {
        res = f as unknown as Outcome["res"];
        // A successful connect stays open; a failed one is closed by the server.
        if ((res as { ok: boolean }).ok) {
          clearTimeout(timer);
          resolve({ res, closeCode, ws });
        }
      }
    });
  });
}

async function withStub(fn: (stub: StubGateway) => Promise<void>, opts: Parameters<typeof startStubGateway>[0] = { token: "stub-token" }): Promise<void> {
  const stub = await startStubGateway(opts);
  try {
    await fn(stub);
  } finally {
    await stub.close();
  }
}

test("a correctly signed v3 connect gets hello-ok with a device token", () =>
  withStub(async (stub) => {
    const { res, ws } = await handshake(stub.url);
    ws.close();
    assert.ok(res.ok);
    assert.is(res.payload?.type, "hello-ok");
    assert.is(res.payload?.protocol, 4);
    assert.is(stub.connects[0]?.deviceId, DEVICE_ID);
    assert.is(stub.connects[0]?.payloadVersion, "v3");
    assert.is(stub.connects[0]?.authMethod, "token");
    assert.is(typeof (res.payload?.auth as { deviceToken?: unknown }).deviceToken, "string");
  }));

test("the legacy v2 payload is still accepted", () =>
  withStub(async (stub) => {
    const { res, ws } = await handshake(stub.url, { payload: (nonce, ts) => `v2|${DEVICE_ID}|cli|probe|operator|operator.read|${ts}|stub-token|${nonce}` });
    ws.close();
    assert.ok(res.ok);
    assert.is(stub.connects[0]?.payloadVersion, "v2");
  }));

const rejections: [string, Overrides, string, number][] = [
  ["a signature over other fields", { payload: (nonce, ts) => `v3|${DEVICE_ID}|cli|probe|operator|operator.admin|${ts}|stub-token|${nonce}|linux|` }, "DEVICE_AUTH_SIGNATURE_INVALID", 1008],
  ["a stale signedAt (over 120 s)", { signedAt: (ts) => ts - 121_000 }, "DEVICE_AUTH_SIGNATURE_EXPIRED", 1008],
  ["another nonce", { nonce: () => "not-the-challenge" }, "DEVICE_AUTH_NONCE_MISMATCH", 1008],
  ["a device id that is not the key's hash", { deviceId: "f".repeat(64) }, "DEVICE_AUTH_DEVICE_ID_MISMATCH", 1008],
  ["no device block", { device: false }, "DEVICE_IDENTITY_REQUIRED", 1008],
  ["a wrong shared token", { token: "wrong" }, "AUTH_TOKEN_MISMATCH", 1008],
  ["protocol 5 only", { minProtocol: 5 }, "PROTOCOL_MISMATCH", 1002],
];
for (const [what, o, code, close] of rejections) {
  test(`rejects ${what} with ${code}`, () =>
    withStub(async (stub) => {
      const { res, closeCode } = await handshake(stub.url, o);
      assert.not.ok(res.ok);
      assert.is(res.error?.details?.code, code);
      assert.is(closeCode, close);
      assert.equal(stub.connects, []);
      assert.equal(stub.rejections, [code]);
    }));
}

test("answers channels.status and health with the fixture JSON, unknown methods like the real server", () =>
  withStub(async (stub) => {
    const { ws } = await handshake(stub.url);
    const answers = new Map<string, unknown>();
    await new Promise<void>((resolve) => {
      ws.on("message", (d) => {
        const f = JSON.parse(d.toString()) as { id: string };
        answers.set(f.id, f);
        if (answers.size === 3) resolve();
      });
      ws.send(JSON.stringify({ type: "req", id: "a", method: "channels.status", params: {} }));
      ws.send(JSON.stringify({ type: "req", id: "b", method: "health", params: {} }));
      ws.send(JSON.stringify({ type: "req", id: "c", method: "nope", params: {} }));
    });
    ws.close();
    const read = (f: string) => JSON.parse(fs.readFileSync(`${GATEWAY_FIXTURES_DIR}/${f}`, "utf8")) as unknown;
    assert.equal((answers.get("a") as { payload: unknown }).payload, read("call-channels.status.json"));
    assert.equal((answers.get("b") as { payload: unknown }).payload, read("health.json"));
    const c = answers.get("c") as { ok: boolean; error: { code: string } };
    assert.is(c.ok, false);
    assert.is(c.error.code, "FORBIDDEN");
    assert.equal(stub.calls.map((x) => x.method), ["channels.status", "health", "nope"]);
  }));

test("a handler's StubRpcError becomes an error frame", () =>
  withStub(
    async (stub) => {
      const { ws } = await handshake(stub.url);
      const f = await new Promise<{ ok: boolean; error: { code: string; retryable: boolean } }>((resolve) => {
        ws.on("message", (d) => resolve(JSON.parse(d.toString())));
        ws.send(JSON.stringify({ type: "req", id: "x", method: "health", params: {} }));
      });
      ws.close();
      assert.is(f.ok, false);
      assert.is(f.error.code, "UNAVAILABLE");
      assert.is(f.error.retryable, true);
    },
    {
      token: "stub-token",
      handlers: {
        health: () => {
          throw new StubRpcError("UNAVAILABLE", "busy", { retryable: true });
        },
      },
    },
  ));

test.run();
