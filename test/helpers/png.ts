// Reads a PNG's signature and IHDR size, enough to check that an image is a real PNG of the
// expected width without a decoder.
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function pngSize(buf: Buffer): { width: number; height: number } {
  if (buf.length < 24 || !buf.subarray(0, 8).equals(SIGNATURE)) throw new Error("not a PNG (bad signature)");
  if (buf.toString("ascii", 12, 16) !== "IHDR") throw new Error("not a PNG (no IHDR first)");
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
}
