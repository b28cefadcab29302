// Types for the part of @shuding/opentype.js the font tests use: satori's own font parser
// (a dependency of satori), so the tests see a font's cmap the way satori does.
declare module "@shuding/opentype.js" {
  interface ParsedFont {
    tables: { cmap: { glyphIndexMap: Record<number, number> } };
    charToGlyphIndex(ch: string): number;
  }
  const opentype: { parse(buffer: ArrayBuffer): ParsedFont };
  export default opentype;
}
