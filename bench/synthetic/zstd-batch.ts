// Compresses transcript rows the way OpenClaw does (zstd level 1 with checksum) with what this
// machine has. Node 20 has no zstd compressor, and one `zstd` process per row would take hours at
// a GB, so rows go to the CLI in batches: one call compresses many files and writes their frames
// back to back on stdout, which are then split at the frame boundaries.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as zlib from "node:zlib";
import { compressZstd, rawZstdFrame } from "../../test/helpers/openclaw-fixtures.js";
import { decodeZstd } from "../../shared/providers/openclaw/zstd.js";

export type ZstdHow = "node:zlib" | "zstd-cli" | "raw-frame";

export interface Compressed {
  frame: Buffer;
  /** Bytes the keep-or-not decision is made on: the frame's size, or an estimate for raw frames. */
  decisionBytes: number;
}

export interface Compressor {
  how: ZstdHow;
  /** One line for the output: which tool, and what that means for the data. */
  describe: string;
  compress(inputs: readonly Buffer[]): Compressed[];
  close(): void;
}

const FILES_PER_CALL = 2000;

/** Splits concatenated zstd frames (RFC 8878 §3.1.1) without decoding them. */
export function splitFrames(buf: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let off = 0;
  while (off < buf.length) {
    const start = off;
    if (buf.readUInt32LE(off) !== 0xfd2fb528) throw new Error(`no zstd magic at offset ${off}`);
    const fhd = buf[off + 4] as number;
    off += 5;
    const singleSegment = (fhd >> 5) & 1;
    const checksum = (fhd >> 2) & 1;
    const dictBytes = [0, 1, 2, 4][fhd & 3] as number;
    const fcsFlag = fhd >> 6;
    const fcsBytes = fcsFlag === 0 ? singleSegment : ([0, 2, 4, 8][fcsFlag] as number);
    off += (singleSegment ? 0 : 1) + dictBytes + fcsBytes;
    for (;;) {
      const header = (buf[off] as number) | ((buf[off + 1] as number) << 8) | ((buf[off + 2] as number) << 16);
      const last = header & 1;
      const type = (header >> 1) & 3;
      const size = header >> 3;
      off += 3 + (type === 1 ? 1 : size);
      if (last) break;
    }
    off += checksum ? 4 : 0;
    out.push(buf.subarray(start, off));
  }
  return out;
}

/** A scratch dir in RAM when there is one: the files live for milliseconds. */
function scratchDir(): string {
  const base = fs.existsSync("/dev/shm") ? "/dev/shm" : os.tmpdir();
  return fs.mkdtempSync(path.join(base, "gi-bench-zstd-"));
}

function cliCompressor(): Compressor {
  const dir = scratchDir();
  let checked = false;
  return {
    how: "zstd-cli",
    describe: "zstd CLI (real level-1 frames with checksum, compressed in batches)",
    compress(inputs) {
      const out: Compressed[] = [];
      for (let i = 0; i < inputs.length; i += FILES_PER_CALL) {
        const chunk = inputs.slice(i, i + FILES_PER_CALL);
        const names = chunk.map((data, j) => {
          const name = `r${j}`;
          fs.writeFileSync(path.join(dir, name), data);
          return name;
        });
        const total = chunk.reduce((a, b) => a + b.length, 0);
        const stdout = execFileSync("zstd", ["-1", "--check", "-q", "-c", "--", ...names], { cwd: dir, maxBuffer: total * 2 + (1 << 20) });
        const frames = splitFrames(stdout);
        if (frames.length !== chunk.length) throw new Error(`zstd returned ${frames.length} frames for ${chunk.length} inputs`);
        if (!checked) {
          // Once: the frames must decode back with the decoder the daemon uses.
          if (!decodeZstd(frames[0] as Buffer).equals(chunk[0] as Buffer)) throw new Error("zstd CLI frame does not decode back to its input");
          checked = true;
        }
        for (const frame of frames) out.push({ frame: Buffer.from(frame), decisionBytes: frame.length });
      }
      return out;
    },
    close() {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

type NativeCompress = (input: Uint8Array, options?: unknown) => Buffer;

/** The best compressor here; `compressZstd` of the test helpers tells which tools exist. */
export function createCompressor(): Compressor {
  const probe = compressZstd(Buffer.from("which zstd compressor does this machine have? ".repeat(4)));
  if (probe.how === "node:zlib") {
    const native = (zlib as unknown as { zstdCompressSync: NativeCompress }).zstdCompressSync;
    // ZSTD_c_compressionLevel = 100 and ZSTD_c_checksumFlag = 201 in zstd's parameter enum.
    const params = { 100: 1, 201: 1 };
    return {
      how: "node:zlib",
      describe: "node:zlib zstdCompressSync (real level-1 frames with checksum)",
      compress: (inputs) =>
        inputs.map((data) => {
          const frame = native(data, { params });
          return { frame, decisionBytes: frame.length };
        }),
      close() {},
    };
  }
  if (probe.how === "zstd-cli") return cliCompressor();
  // No compressor: rows chosen as zstd would choose them (estimated with deflate level 1, which
  // lands close to zstd -1 on text) but stored as raw-block frames. Decoding those is cheaper than
  // real frames, so decode costs are understated; the output says so.
  return {
    how: "raw-frame",
    describe: "raw-block frames (no zstd compressor here; which rows are compressed is estimated with deflate; decoding is cheaper than real)",
    compress: (inputs) => inputs.map((data) => ({ frame: rawZstdFrame(data), decisionBytes: zlib.deflateRawSync(data, { level: 1 }).length + 12 })),
    close() {},
  };
}
