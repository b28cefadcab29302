// WOFF 1 -> the plain font (TrueType / OpenType) it wraps, with Node's zlib.
//
// The bundled fonts are WOFF 1 (small to ship), and satori's font parser unpacks a WOFF with a
// zlib inflater written in JavaScript. In a render worker that has just started, that code runs
// cold: unpacking the Latin fonts was ~60 ms of the first card's CPU (and each Chinese slice a
// card loads later costs the same again). Node's native inflate does it in a fraction of that,
// and the tables satori then reads are the same bytes, so the card is drawn identically.
//
// Format (W3C WOFF 1.0): a 44-byte header, then one 20-byte entry per table (tag, offset,
// compressed length, original length, original checksum), then the tables, each zlib-compressed
// unless its compressed length equals its original length. The plain font is a 12-byte offset
// table, 16-byte table records (tag, checksum, offset, length), then the tables, each padded to
// a multiple of 4 bytes.
import { inflateSync } from "node:zlib";

const WOFF_SIGNATURE = 0x774f4646; // "wOFF"
const WOFF_HEADER = 44;
const WOFF_ENTRY = 20;
const SFNT_HEADER = 12;
const SFNT_RECORD = 16;

/** True when the bytes start with the WOFF 1 signature. */
export function isWoff(data: Uint8Array): boolean {
  return data.length >= 4 && data[0] === 0x77 && data[1] === 0x4f && data[2] === 0x46 && data[3] === 0x46;
}

const pad4 = (n: number): number => (n + 3) & ~3;

/**
 * The plain font a WOFF 1 file wraps; any other bytes (a TTF, an OTF, WOFF 2) are returned as
 * they are, for satori to read itself. Throws on a WOFF whose header or tables do not add up
 * (a damaged or hostile file), naming what is wrong.
 */
export function woffToSfnt(data: Buffer): Buffer {
  if (!isWoff(data)) return data;
  const bad = (why: string): Error => new Error(`not a valid WOFF font: ${why}`);
  if (data.length < WOFF_HEADER) throw bad("shorter than its header");
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (view.getUint32(0) !== WOFF_SIGNATURE) throw bad("bad signature");
  const flavor = view.getUint32(4);
  const numTables = view.getUint16(12);
  if (numTables === 0) throw bad("no tables");
  if (WOFF_HEADER + numTables * WOFF_ENTRY > data.length) throw bad("table directory runs past the end");

  const tables: Array<{ tag: number; checksum: number; body: Buffer }> = [];
  let size = SFNT_HEADER + numTables * SFNT_RECORD;
  for (let i = 0; i < numTables; i++) {
    const e = WOFF_HEADER + i * WOFF_ENTRY;
    const tag = view.getUint32(e);
    const offset = view.getUint32(e + 4);
    const compLength = view.getUint32(e + 8);
    const origLength = view.getUint32(e + 12);
    const checksum = view.getUint32(e + 16);
    if (offset + compLength > data.length) throw bad(`table ${i} runs past the end`);
    if (compLength > origLength) throw bad(`table ${i} is larger compressed than its original`);
    const stored = data.subarray(offset, offset + compLength);
    let body: Buffer;
    if (compLength === origLength) body = stored;
    else {
      // maxOutputLength bounds what a hostile file can make us allocate to its declared size.
      try {
        body = inflateSync(stored, { maxOutputLength: Math.max(1, origLength) });
      } catch (err) {
        throw bad(`table ${i} does not inflate (${err instanceof Error ? err.message : String(err)})`);
      }
      if (body.length !== origLength) throw bad(`table ${i} inflates to ${body.length} bytes, not ${origLength}`);
    }
    tables.push({ tag, checksum, body });
    size += pad4(origLength);
  }

  const out = Buffer.alloc(size);
  // Offset table: the search fields are derived from the table count (OpenType spec).
  let pow = 1;
  let log = 0;
  while (pow * 2 <= numTables) {
    pow *= 2;
    log++;
  }
  out.writeUInt32BE(flavor, 0);
  out.writeUInt16BE(numTables, 4);
  out.writeUInt16BE(pow * 16, 6);
  out.writeUInt16BE(log, 8);
  out.writeUInt16BE(numTables * 16 - pow * 16, 10);
  let at = SFNT_HEADER + numTables * SFNT_RECORD;
  tables.forEach((t, i) => {
    const r = SFNT_HEADER + i * SFNT_RECORD;
    out.writeUInt32BE(t.tag, r);
    out.writeUInt32BE(t.checksum, r + 4);
    out.writeUInt32BE(at, r + 8);
    out.writeUInt32BE(t.body.length, r + 12);
    t.body.copy(out, at);
    at += pad4(t.body.length);
  });
  return out;
}
