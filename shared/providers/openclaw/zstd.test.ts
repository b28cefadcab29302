import { execFileSync } from "node:child_process";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { compressZstd, rawZstdFrame } from "../../../test/helpers/openclaw-fixtures.js";
import { decodeZstd, fzstdDecoder, nodeZstdDecoder, zstdBackend } from "./zstd.js";
import type { ZstdDecoder } from "./zstd.js";

// Made once with the zstd CLI v1.5.4, the way OpenClaw writes rows (level 1, checksum):
//   printf '%s' "$EMBEDDED_TEXT" | zstd -1 --check -c -q | base64 -w0
const EMBEDDED_TEXT = '{"type":"message","message":{"role":"assistant","content":[{"type":"text","text":"zstd fixture frame"}]}}';
const EMBEDDED_FRAME = "KLUv/QRIlQIAcsURF5CnOkBY5sfmS72FOlHBRu5Hj4q8u2wCrRWtPqjKsCp8mTICz0OvX35Jv3zieuSjBCjpET5NJvbqQVJlR2oBZvr0aoLhZQECAPCqPC1KGDRbJ+8=";

const decoders: [string, ZstdDecoder][] = [["fzstd", fzstdDecoder]];
const native = nodeZstdDecoder();
if (native) decoders.push(["node:zlib", native]);

// A long assistant reply, like the ~40 KB rows the gateway compresses.
const longEvent = JSON.stringify({
  type: "message",
  message: { role: "assistant", content: [{ type: "text", text: "LONG reply line. ".repeat(2500) }], usage: { input: 1, output: 2 } },
});

function zstdCli(): boolean {
  try {
    execFileSync("zstd", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

test("the backend is node:zlib exactly when the runtime has it", () => {
  assert.is(zstdBackend(), native ? "node:zlib" : "fzstd");
});

test("the embedded CLI-made frame decodes to its text with every decoder", () => {
  const frame = Buffer.from(EMBEDDED_FRAME, "base64");
  for (const [name, decode] of decoders) assert.is(decode(frame).toString("utf8"), EMBEDDED_TEXT, name);
  assert.is(decodeZstd(frame).toString("utf8"), EMBEDDED_TEXT);
});

test("a hand-built raw-block frame decodes (also across the 128 KiB block limit)", () => {
  const big = Buffer.from("x".repeat(300_000) + longEvent);
  for (const [name, decode] of decoders) {
    assert.is(decode(rawZstdFrame(Buffer.from(longEvent))).toString("utf8"), longEvent, name);
    assert.ok(decode(rawZstdFrame(big)).equals(big), name);
  }
});

test("a freshly compressed long event round-trips", () => {
  const { bytes, how } = compressZstd(Buffer.from(longEvent));
  assert.ok(bytes.length < Buffer.byteLength(longEvent) || how === "raw-frame", `compressed with ${how}`);
  for (const [name, decode] of decoders) assert.is(decode(bytes).toString("utf8"), longEvent, `${name} reading ${how}`);
});

test("the zstd CLI's output decodes, when the CLI is installed", () => {
  if (!zstdCli()) {
    // Nothing to compare against on this machine; the embedded frame test covers CLI output.
    assert.ok(decoders.length >= 1);
    return;
  }
  const bytes = execFileSync("zstd", ["-1", "--check", "-c", "-q"], { input: longEvent });
  for (const [name, decode] of decoders) assert.is(decode(bytes).toString("utf8"), longEvent, name);
});

test("corrupt input throws (the caller turns it into a warning)", () => {
  const frame = Buffer.from(EMBEDDED_FRAME, "base64");
  const truncated = frame.subarray(0, frame.length - 12);
  const notZstd = Buffer.from("definitely not zstd");
  for (const [name, decode] of decoders) {
    assert.throws(() => decode(notZstd), undefined, `${name}: bad magic`);
    assert.throws(() => decode(truncated), undefined, `${name}: truncated frame`);
  }
});

test.run();
