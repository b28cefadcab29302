// The bundled fonts: present, WOFF (satori reads TTF/OTF/WOFF), within the size budget, and with
// a glyph for every character the card prints in its own words, in both languages.
import opentype from "@shuding/opentype.js";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { buildCardModel } from "./build-model.js";
import { EXAMPLE_NOW, exampleInputs } from "./example-inputs.js";
import { fontsDir, type FontManifest } from "./fonts.js";
import { daemonCatalogText } from "../i18n/font-text.js";
import { CATALOG, LANGS, type MessageKey } from "./messages.js";
import { renderCard } from "./render.js";

const dir = fontsDir();
const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as FontManifest;

interface Cmap {
  weight: number;
  role: string;
  has: (cp: number) => boolean;
}

const cmaps: Cmap[] = manifest.fonts.map((f) => {
  const buf = readFileSync(join(dir, f.file));
  const font = opentype.parse(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
  const map = font.tables.cmap.glyphIndexMap;
  return { weight: f.weight, role: f.role, has: (cp) => (map[cp] ?? 0) > 0 };
});

const covered = (cp: number, fonts: readonly Cmap[] = cmaps): boolean => fonts.some((c) => c.has(cp));
const isSpace = (ch: string): boolean => /\s/.test(ch);

test("manifest files exist, are WOFF 1, fit the budget, and ship with their licence", () => {
  let bytes = 0;
  for (const f of manifest.fonts) {
    const head = readFileSync(join(dir, f.file)).subarray(0, 4).toString("latin1");
    assert.is(head, "wOFF", `${f.file} is not WOFF 1`);
    bytes += statSync(join(dir, f.file)).size;
  }
  assert.ok(bytes < 6 * 1024 * 1024, `fonts take ${bytes} bytes`);
  for (const l of ["OFL-Inter.txt", "OFL-NotoSansSC.txt"]) assert.match(readFileSync(join(dir, l), "utf8"), "SIL Open Font License");
  assert.ok(manifest.fonts[0]?.family === "Inter", "Inter leads the fallback order");
});

test("every catalog string, en and zh, has a glyph for each character", () => {
  const missing: string[] = [];
  for (const lang of LANGS) {
    for (const [key, text] of Object.entries(CATALOG[lang]) as Array<[MessageKey, string]>) {
      for (const ch of text.replace(/\{\w+\}/g, "")) {
        if (!isSpace(ch) && !covered(ch.codePointAt(0) as number)) missing.push(`${lang} ${key}: ${JSON.stringify(ch)} U+${(ch.codePointAt(0) as number).toString(16)}`);
      }
    }
  }
  assert.equal(missing, []);
});

test("the daemon's own messages (health checks, units), which the card prints, have a glyph for each character", () => {
  const regular = cmaps.filter((c) => c.weight === 400);
  const missing = new Set([...daemonCatalogText()].filter((ch) => !isSpace(ch) && !covered(ch.codePointAt(0) as number, regular)));
  assert.equal([...missing], []);
});

test("catalog hanzi are in the bold CJK weight too (headings are bold)", () => {
  const bold = cmaps.filter((c) => c.role === "cjk" && c.weight === 700);
  const missing = new Set<string>();
  for (const text of Object.values(CATALOG.zh)) for (const ch of text) if ((ch.codePointAt(0) as number) >= 0x2e80 && !covered(ch.codePointAt(0) as number, bold)) missing.add(ch);
  assert.equal([...missing], []);
});

test("the regular CJK weight covers GB2312 level 1 (the 3,755 common hanzi)", () => {
  const gbk = new TextDecoder("gbk");
  const regular = cmaps.filter((c) => c.role === "cjk" && c.weight === 400);
  const missing: string[] = [];
  for (let hi = 0xb0; hi <= 0xd7; hi++) {
    for (let lo = 0xa1; lo <= 0xfe; lo++) {
      const ch = gbk.decode(new Uint8Array([hi, lo]));
      // GBK maps the five unassigned cells at the end of row 55 to the private use area.
      const cp = ch.codePointAt(0) as number;
      if (ch.length === 1 && ch !== "\ufffd" && !(cp >= 0xe000 && cp <= 0xf8ff) && !covered(ch.codePointAt(0) as number, regular)) missing.push(ch);
    }
  }
  assert.equal(missing, []);
});

test("a rendered zh card prints no character outside the fonts (formatted numbers and dates included)", async () => {
  const model = buildCardModel(exampleInputs("24h"), { detail: "full", range: "24h", theme: "dark", lang: "zh", generatedAt: EXAMPLE_NOW, demo: true, degradedSources: ["agent:ops"] });
  const svg = (await renderCard(model, "svg", { textAsText: true })).toString("utf8");
  const text = [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1] ?? "").join("");
  assert.ok(text.includes("已运行"), "the card's text is in the SVG");
  // The example data is chosen to be printable, so anything missing here is the card's own.
  const missing = new Set([...text].filter((ch) => !isSpace(ch) && !covered(ch.codePointAt(0) as number)));
  assert.equal([...missing], []);
});

test.run();
