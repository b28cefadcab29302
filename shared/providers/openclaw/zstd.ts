// zstd decoding for compressed transcript rows (`transcript_events.event_zstd`, agent schema 23).
// Node >= 22.15 / 23.8 ships a native decoder in node:zlib; on older runtimes (Node 20) the
// pure-JS `fzstd` package does the work.
import * as zlib from "node:zlib";
import { decompress as fzstdDecompress } from "fzstd";

/** Decodes one complete zstd buffer (one or more frames); throws on corrupt input. */
export type ZstdDecoder = (input: Uint8Array) => Buffer;

type ZstdBackend = "node:zlib" | "fzstd";

/** OpenClaw compresses rows of at most 4 MiB; anything that inflates past this is refused. */
const MAX_DECODED_BYTES = 4 * 1024 * 1024;

// @types/node 20 does not declare the zstd functions, so look them up structurally.
type NativeZstd = (input: Uint8Array, options?: { maxOutputLength?: number }) => Buffer;
const nativeZstd = (zlib as unknown as { zstdDecompressSync?: NativeZstd }).zstdDecompressSync;

/** The node:zlib decoder, or null when this runtime has none. */
export function nodeZstdDecoder(): ZstdDecoder | null {
  if (typeof nativeZstd !== "function") return null;
  const decode = nativeZstd;
  return (input) => decode(input, { maxOutputLength: MAX_DECODED_BYTES });
}

/** The pure-JS decoder; always available. */
export const fzstdDecoder: ZstdDecoder = (input) => {
  const out = fzstdDecompress(input);
  if (out.length > MAX_DECODED_BYTES) throw new RangeError(`zstd output of ${out.length} bytes exceeds ${MAX_DECODED_BYTES}`);
  // A view, not a copy: the Uint8Array is ours alone.
  return Buffer.from(out.buffer, out.byteOffset, out.length);
};

const defaultDecoder: ZstdDecoder = nodeZstdDecoder() ?? fzstdDecoder;

/** Which decoder `decodeZstd` uses on this runtime. */
export function zstdBackend(): ZstdBackend {
  return defaultDecoder === fzstdDecoder ? "fzstd" : "node:zlib";
}

/** Decodes with the best decoder of this runtime; throws on corrupt or oversized input. */
export function decodeZstd(input: Uint8Array): Buffer {
  return defaultDecoder(input);
}
