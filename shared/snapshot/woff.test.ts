// WOFF 1 unpacking: the bundled fonts come out as the plain fonts they wrap (each table's bytes
// match the checksum the WOFF file itself records), other bytes pass through, and a damaged file
// is a clear error rather than a crash or a huge allocation.
import opentype from "@shuding/opentype.js";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { FontSet, fontsDir, type FontManifest } from "./fonts.js";
import { isWoff, woffToSfnt } from "./woff.js";

const dir = fontsDir();
const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as FontManifest;
const read = (file: string): Buffer => readFileSync(join(dir, file));

/** The OpenType table checksum: the sum of the table's big-endian 32-bit words, zero-padded. */
function checksum(b: Buffer): number {
  const padded = Buffer.alloc((b.length + 3) & ~3);
  b.copy(padded);
  let sum = 0;
  for (let i = 0; i < padded.length; i += 4) sum = (sum + padded.readUInt32BE(i)) >>> 0;
  return sum;
}

/** The WOFF header's and table directory's own figures, read straight from the file. */
function woffDirectory(w: Buffer): { flavor: number; tables: Array<{ tag: string; origLength: number; origChecksum: number }> } {
  const n = w.readUInt16BE(12);
  const tables = [];
  for (let i = 0; i < n; i++) {
    const e = 44 + i * 20;
    tables.push({ tag: w.toString("latin1", e, e + 4), origLength: w.readUInt32BE(e + 12), origChecksum: w.readUInt32BE(e + 16) });
  }
  return { flavor: w.readUInt32BE(4), tables };
}

const toArrayBuffer = (b: Buffer): ArrayBuffer => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;

test("every bundled WOFF unpacks to the font it wraps: same flavor, tables, lengths and checksums", () => {
  const files = [manifest.fonts[0], manifest.fonts.find((f) => f.role === "cjk")].map((f) => f?.file as string);
  for (const file of files) {
    const w = read(file);
    assert.ok(isWoff(w), `${file} is WOFF`);
    const d = woffDirectory(w);
    const s = woffToSfnt(w);
    assert.not.ok(isWoff(s));
    assert.is(s.readUInt32BE(0), d.flavor, `${file}: sfnt version is the WOFF flavor`);
    assert.is(s.readUInt16BE(4), d.tables.length);
    d.tables.forEach((t, i) => {
      const r = 12 + i * 16;
      assert.is(s.toString("latin1", r, r + 4), t.tag);
      const offset = s.readUInt32BE(r + 8);
      const length = s.readUInt32BE(r + 12);
      assert.is(length, t.origLength, `${file} ${t.tag} length`);
      assert.is(offset % 4, 0, `${file} ${t.tag} is 4-byte aligned`);
      // The head table's checksum field is zeroed before summing (checkSumAdjustment).
      const body = Buffer.from(s.subarray(offset, offset + length));
      if (t.tag === "head") body.writeUInt32BE(0, 8);
      assert.is(checksum(body), t.origChecksum, `${file} ${t.tag} checksum`);
    });
  }
});

test("the unpacked font parses to the same character map as the WOFF (render.test: the same images)", () => {
  const w = read(manifest.fonts[0]?.file as string);
  const a = opentype.parse(toArrayBuffer(w));
  const b = opentype.parse(toArrayBuffer(woffToSfnt(w)));
  assert.equal(b.tables.cmap.glyphIndexMap, a.tables.cmap.glyphIndexMap);
  for (const ch of "Insights 0123") assert.is(b.charToGlyphIndex(ch), a.charToGlyphIndex(ch));
});

test("the font set hands satori unpacked fonts, not WOFF", async () => {
  const set = await FontSet.open(dir);
  const fonts = await set.fontsFor("你好");
  assert.ok(fonts.length > 0);
  for (const f of fonts) assert.not.ok(isWoff(new Uint8Array(f.data as ArrayBuffer)), `${f.name} ${f.weight} is unpacked`);
});

test("bytes that are not WOFF pass through unchanged", () => {
  const ttf = woffToSfnt(read(manifest.fonts[0]?.file as string));
  assert.is(woffToSfnt(ttf), ttf);
  const empty = Buffer.alloc(0);
  assert.is(woffToSfnt(empty), empty);
});

test("a damaged WOFF is a clear error, and its declared sizes bound what is allocated", () => {
  const w = read(manifest.fonts[0]?.file as string);
  assert.throws(() => woffToSfnt(w.subarray(0, 30)), /not a valid WOFF font: shorter than its header/);
  assert.throws(() => woffToSfnt(w.subarray(0, 60)), /not a valid WOFF font: table directory runs past the end/);
  assert.throws(() => woffToSfnt(w.subarray(0, w.length - 100)), /not a valid WOFF font: table \d+ runs past the end/);
  // One table claiming an original a few bytes longer than its compressed form, that inflates to
  // 1 MB: refused, not allocated.
  const bomb = deflateSync(Buffer.alloc(1 << 20));
  const h = Buffer.alloc(44 + 20);
  h.write("wOFF", 0, "latin1");
  h.writeUInt32BE(0x00010000, 4);
  h.writeUInt16BE(1, 12);
  h.write("glyf", 44, "latin1");
  h.writeUInt32BE(64, 48);
  h.writeUInt32BE(bomb.length, 52);
  h.writeUInt32BE(bomb.length + 10, 56);
  assert.throws(() => woffToSfnt(Buffer.concat([h, bomb])), /not a valid WOFF font: table 0 (does not inflate|inflates to)/);
});

test.run();
