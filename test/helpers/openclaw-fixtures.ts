// Test helper: copies a real OpenClaw fixture state dir into a fresh temp dir. Tests never open
// the originals: even a read-only SQLite open of a WAL database creates -wal/-shm files beside it.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import * as zlib from "node:zlib";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

// any: raw fixture JSON, read the way a test reads it.
export type RawLine = Record<string, any>;

/** Every line of a JSONL file, parsed with JSON.parse (the provider fixtures' transcripts). */
export function rawLines(file: string): RawLine[] {
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as RawLine);
}

/**
 * The team's reference folder (`fixtures/`, `tools/`): `GI_REFERENCE_DIR`, else `../shared` beside
 * the checkout, else `/work/shared` (where a clone made elsewhere, e.g. /tmp/fresh, finds it).
 */
export const REFERENCE_DIR: string =
  process.env.GI_REFERENCE_DIR ??
  [path.resolve(repoRoot, "..", "shared"), "/work/shared"].find((d) => fs.existsSync(path.join(d, "fixtures"))) ??
  path.resolve(repoRoot, "..", "shared");

/** Real OpenClaw state dirs and gateway answers; GI_FIXTURES_DIR overrides it. */
export const FIXTURES_DIR = process.env.GI_FIXTURES_DIR ?? path.join(REFERENCE_DIR, "fixtures");
/** run-openclaw.sh, fake-llm.mjs and the gateway config they use. */
export const TOOLS_DIR = path.join(REFERENCE_DIR, "tools");

/** OpenClaw 2026.9.6: sessions and transcripts in the per-agent SQLite DB. */
export const SQLITE_FIXTURE = "openclaw-2026.9.6";
/** OpenClaw 2026.7.1: sessions.json + JSONL transcripts. */
export const FILES_FIXTURE = "openclaw-2026.7.1";

const made: string[] = [];

/** A fresh empty temp dir (`gi-…`), removed by `removeTempDirs`. */
export function makeTempDir(prefix = "gi-"): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

function makeWritable(p: string): void {
  const st = fs.lstatSync(p);
  if (st.isSymbolicLink()) return;
  if (st.isDirectory()) {
    fs.chmodSync(p, 0o755);
    for (const name of fs.readdirSync(p)) makeWritable(path.join(p, name));
  } else {
    fs.chmodSync(p, 0o644);
  }
}

/** Copies fixture `name` (e.g. SQLITE_FIXTURE) into a new temp dir and returns the copy's path. */
export function copyFixture(name: string): string {
  const src = path.join(FIXTURES_DIR, name);
  if (!fs.existsSync(src)) throw new Error(`fixture not found: ${src} (set GI_FIXTURES_DIR)`);
  const dest = path.join(makeTempDir(), name);
  fs.cpSync(src, dest, { recursive: true });
  makeWritable(dest);
  return dest;
}

/** Removes every temp dir this process made; call from `test.after`. */
export function removeTempDirs(): void {
  while (made.length > 0) fs.rmSync(made.pop() as string, { recursive: true, force: true });
}

/**
 * A valid zstd frame holding `data` uncompressed (raw blocks), built by hand from RFC 8878 §3.1:
 * magic, a frame header with a 4-byte content size, then raw blocks of at most 128 KiB. Any
 * decoder accepts it, so it works where no zstd compressor exists.
 */
export function rawZstdFrame(data: Uint8Array): Buffer {
  const maxBlock = 128 * 1024;
  const parts: Buffer[] = [];
  const header = Buffer.alloc(9);
  header.writeUInt32LE(0xfd2fb528, 0); // magic
  header[4] = 0b1010_0000; // FCS field 4 bytes, single segment, no checksum, no dictionary
  header.writeUInt32LE(data.length, 5);
  parts.push(header);
  let off = 0;
  do {
    const size = Math.min(maxBlock, data.length - off);
    const last = off + size >= data.length ? 1 : 0;
    const bh = Buffer.alloc(3);
    const v = (size << 3) | (0 << 1) | last; // block type 0 = raw
    bh[0] = v & 0xff;
    bh[1] = (v >> 8) & 0xff;
    bh[2] = (v >> 16) & 0xff;
    parts.push(bh, Buffer.from(data.buffer, data.byteOffset + off, size));
    off += size;
  } while (off < data.length);
  return Buffer.concat(parts);
}

type NativeCompress = (input: Uint8Array, options?: unknown) => Buffer;

/**
 * Compresses like OpenClaw does (level 1, checksum) with the best tool at hand: node:zlib when the
 * runtime has zstd, else the `zstd` CLI, else a raw-block frame. `how` says which, for messages.
 */
export function compressZstd(data: Uint8Array): { bytes: Buffer; how: "node:zlib" | "zstd-cli" | "raw-frame" } {
  const native = (zlib as unknown as { zstdCompressSync?: NativeCompress }).zstdCompressSync;
  if (typeof native === "function") return { bytes: native(data), how: "node:zlib" };
  try {
    return { bytes: execFileSync("zstd", ["-1", "--check", "-c", "-q"], { input: data, maxBuffer: 64 * 1024 * 1024 }), how: "zstd-cli" };
  } catch {
    return { bytes: rawZstdFrame(data), how: "raw-frame" };
  }
}
