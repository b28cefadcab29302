// Moves a copy of OpenClaw's recorded state dir in time (the demo kit's time shift,
// shared/providers/demo-kit/time-shift.ts), with what only OpenClaw stores: transcript rows
// compressed with zstd (agent schema 23), moved inside and written back as zstd.
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { shiftSqliteFile, shiftText, type TimeShift } from "../../demo-kit/time-shift.js";
import { decodeZstd } from "../zstd.js";

// zstd frame magic (RFC 8878 §3.1.1), little-endian on disk.
const ZSTD_MAGIC = 0xfd2fb528;

/**
 * A valid zstd frame that stores `data` in raw (uncompressed) blocks, per RFC 8878 §3.1: every
 * decoder reads it. Node 20 has no zstd encoder, and a moved transcript row must stay a zstd row.
 */
export function rawZstdFrame(data: Uint8Array): Buffer {
  const maxBlock = 128 * 1024;
  const header = Buffer.alloc(9);
  header.writeUInt32LE(ZSTD_MAGIC, 0);
  header[4] = 0b1010_0000; // 4-byte content size, single segment, no checksum, no dictionary
  header.writeUInt32LE(data.length, 5);
  const parts: Buffer[] = [header];
  let off = 0;
  do {
    const size = Math.min(maxBlock, data.length - off);
    const last = off + size >= data.length ? 1 : 0;
    const blockHeader = (size << 3) | (0 << 1) | last; // block type 0 = raw
    parts.push(Buffer.from([blockHeader & 0xff, (blockHeader >> 8) & 0xff, (blockHeader >> 16) & 0xff]), Buffer.from(data.subarray(off, off + size)));
    off += size;
  } while (off < data.length);
  return Buffer.concat(parts);
}

/** A zstd row with its times moved (re-framed raw); any other BLOB as it is. */
export function shiftZstdBlob(blob: Buffer, s: TimeShift): Buffer {
  if (blob.length < 4 || blob.readUInt32LE(0) !== ZSTD_MAGIC) return blob;
  let text: string;
  try {
    text = decodeZstd(blob).toString("utf8");
  } catch {
    return blob; // not ours to repair
  }
  const moved = shiftText(text, s);
  return moved === text ? blob : rawZstdFrame(Buffer.from(moved, "utf8"));
}

const TEXT_FILE = /\.(log|lock|json|jsonl|json5)$/;
const SQLITE_FILE = /\.sqlite$/;

/** Moves the timestamps of every SQLite database and text file under `dir`. */
export function shiftStateTree(dir: string, s: TimeShift): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) shiftStateTree(path, s);
    else if (!entry.isFile()) continue;
    else if (SQLITE_FILE.test(entry.name)) shiftSqliteFile(path, s, { blob: shiftZstdBlob });
    else if (TEXT_FILE.test(entry.name) && statSync(path).size < 64 * 1024 * 1024) {
      const text = readFileSync(path, "utf8");
      const moved = shiftText(text, s);
      if (moved !== text) writeFileSync(path, moved);
    }
  }
}
