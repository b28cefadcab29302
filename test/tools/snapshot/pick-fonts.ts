// Picks the font files the card ships with from the @fontsource dev dependencies and copies them
// into shared/snapshot/fonts/ with a manifest.json that fonts.ts loads. Run by hand after the
// catalog gains new characters or the fonts are updated, then commit the result:
//
//   node --import tsx test/tools/snapshot/pick-fonts.ts
//
// Noto Sans SC comes as ~100 unicode-range slices per weight (4.7 MB per weight). Google orders
// the slices by character frequency, so the card takes, at the regular weight (session names,
// job names, messages: text the card does not control), every slice holding a character of
// GB2312 level 1, the 3,755 common hanzi, plus the slices with the symbols log lines use
// (LOG_SYMBOLS: "⇄", "✓"); at the bold weight (its own headings) only the slices
// its catalog needs. A character in none of them is drawn as the font's empty box (.notdef).
//
// Each file's entry carries the characters it has a glyph for (its cmap, as hex ranges), so the
// renderer loads only the CJK slices a card's text needs (fonts.ts).
import opentype from "@shuding/opentype.js";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { CATALOG, LANGS } from "../../../shared/snapshot/messages.js";
import { daemonCatalogText, LOG_SYMBOLS } from "../../../shared/i18n/font-text.js";
import { encodeCodePoints, type FontManifest, type ManifestFont } from "../../../shared/snapshot/fonts.js";

const require = createRequire(import.meta.url);
const outDir = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "shared", "snapshot", "fonts");

const INTER_WEIGHTS = [400, 600, 700] as const;
const CJK_BODY_WEIGHT = 400;
const CJK_BOLD_WEIGHT = 700;

interface Slice {
  name: string;
  ranges: Array<[number, number]>;
}

function pkgDir(name: string): string {
  // LICENSE is in every @fontsource package's exports, so it resolves wherever npm hoisted it.
  return dirname(require.resolve(`${name}/LICENSE`));
}

function readSlices(dir: string): Slice[] {
  const json = JSON.parse(readFileSync(join(dir, "unicode.json"), "utf8")) as Record<string, string>;
  return Object.entries(json).map(([key, value]) => ({
    name: key.replace(/^\[(\d+)\]$/, "$1"),
    ranges: value.split(",").map((r) => {
      const [a, b] = r.trim().replace(/^U\+/i, "").split("-");
      const lo = parseInt(a ?? "", 16);
      return [lo, b === undefined ? lo : parseInt(b, 16)];
    }),
  }));
}

/** The code points a font file maps to a glyph, as satori's parser (opentype.js) reads them. */
function cmapOf(file: string): number[] {
  const buf = readFileSync(file);
  const font = opentype.parse(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
  return Object.entries(font.tables.cmap.glyphIndexMap)
    .filter(([, glyph]) => glyph > 0)
    .map(([cp]) => Number(cp));
}

const covers = (s: Slice, cp: number): boolean => s.ranges.some(([a, b]) => cp >= a && cp <= b);

/** GB2312 level 1 (rows 16-55) plus its punctuation and full-width forms (rows 1 and 3). */
function gb2312Common(): number[] {
  const gbk = new TextDecoder("gbk");
  const out: number[] = [];
  const rows = [0xa1, 0xa3];
  for (let hi = 0xb0; hi <= 0xd7; hi++) rows.push(hi);
  for (const hi of rows) {
    for (let lo = 0xa1; lo <= 0xfe; lo++) {
      const ch = gbk.decode(new Uint8Array([hi, lo]));
      const cp = ch.codePointAt(0) as number;
      // GBK maps GB2312's unassigned cells to the private use area: not characters.
      if (ch.length === 1 && ch !== "\ufffd" && !(cp >= 0xe000 && cp <= 0xf8ff)) out.push(cp);
    }
  }
  return out;
}

function catalogCodePoints(): number[] {
  const set = new Set<number>();
  for (const lang of LANGS) for (const text of Object.values(CATALOG[lang])) for (const ch of text) set.add(ch.codePointAt(0) as number);
  return [...set];
}

/** The daemon's own messages (health checks) and units: printed at the regular weight only. */
function daemonCodePoints(): number[] {
  return [...new Set([...daemonCatalogText()].map((ch) => ch.codePointAt(0) as number))];
}

/** Every numbered slice that holds at least one of `cps`, most frequent (highest number) first. */
function slicesFor(slices: Slice[], cps: readonly number[]): Slice[] {
  return slices.filter((s) => /^\d+$/.test(s.name) && cps.some((cp) => covers(s, cp))).sort((a, b) => Number(b.name) - Number(a.name));
}

function main(): void {
  const interDir = pkgDir("@fontsource/inter");
  const scDir = pkgDir("@fontsource/noto-sans-sc");
  const scSlices = readSlices(scDir);
  const isHan = (cp: number): boolean => cp >= 0x2e80;
  const catalog = catalogCodePoints().filter(isHan);
  const symbols = [...LOG_SYMBOLS].map((ch) => ch.codePointAt(0) as number);
  const body = slicesFor(scSlices, [...gb2312Common().filter(isHan), ...catalog, ...daemonCodePoints().filter(isHan), ...symbols]);
  const bold = slicesFor(scSlices, catalog);

  mkdirSync(outDir, { recursive: true });
  for (const f of readdirSync(outDir)) if (f.endsWith(".woff")) rmSync(join(outDir, f));

  const fonts: ManifestFont[] = [];
  const add = (srcDir: string, file: string, family: string, weight: number, role: ManifestFont["role"]): void => {
    copyFileSync(join(srcDir, "files", file), join(outDir, file));
    fonts.push({ file, family, weight, role, codePoints: encodeCodePoints(cmapOf(join(outDir, file))) });
  };
  // Satori falls back through the fonts in the order given: Latin first, then the CJK slices
  // from the most to the least frequent characters.
  for (const subset of ["latin", "latin-ext"]) {
    for (const w of INTER_WEIGHTS) add(interDir, `inter-${subset}-${w}-normal.woff`, subset === "latin" ? "Inter" : "Inter Ext", w, "latin");
  }
  // Each slice is its own family (satori keys fonts by family and weight, so same-named slices
  // would replace each other); the bold file of a slice joins its regular one in that family.
  const boldNames = new Set(bold.map((s) => s.name));
  for (const s of body) {
    const family = `Noto Sans SC ${s.name}`;
    add(scDir, `noto-sans-sc-${s.name}-${CJK_BODY_WEIGHT}-normal.woff`, family, CJK_BODY_WEIGHT, "cjk");
    if (boldNames.has(s.name)) add(scDir, `noto-sans-sc-${s.name}-${CJK_BOLD_WEIGHT}-normal.woff`, family, CJK_BOLD_WEIGHT, "cjk");
  }
  for (const s of bold) {
    if (!body.includes(s)) add(scDir, `noto-sans-sc-${s.name}-${CJK_BOLD_WEIGHT}-normal.woff`, `Noto Sans SC ${s.name}`, CJK_BOLD_WEIGHT, "cjk");
  }

  copyFileSync(join(interDir, "LICENSE"), join(outDir, "OFL-Inter.txt"));
  copyFileSync(join(scDir, "LICENSE"), join(outDir, "OFL-NotoSansSC.txt"));
  const version = (dir: string): string => (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version: string }).version;
  const manifest: FontManifest = {
    comment: "Written by test/tools/snapshot/pick-fonts.ts; do not edit by hand.",
    sources: { "@fontsource/inter": version(interDir), "@fontsource/noto-sans-sc": version(scDir) },
    fonts,
  };
  writeFileSync(join(outDir, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);

  const bytes = fonts.reduce((n, f) => n + statSync(join(outDir, f.file)).size, 0);
  console.log(`${fonts.length} font files, ${(bytes / 1024 / 1024).toFixed(2)} MB: ${body.length} CJK slices at ${CJK_BODY_WEIGHT}, ${bold.length} at ${CJK_BOLD_WEIGHT}`);
}

main();
