// The bundled fonts: present, WOFF (satori reads TTF/OTF/WOFF), within the size budget, and with
// a glyph for every character the card prints in its own words, in both languages.
import opentype from "@shuding/opentype.js";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { buildCardModel } from "./build-model.js";
import { EXAMPLE_NOW, exampleInputs } from "../../test/helpers/example-inputs.js";
import satori from "satori";
import { allCardFonts, decodeCodePoints, elementText, encodeCodePoints, FontSet, fontsDir, type FontManifest } from "./fonts.js";
import { cardElement } from "./layout/card.js";
import { CARD_WIDTH } from "./layout/primitives.js";
import { daemonCatalogText, LOG_SYMBOLS } from "../i18n/font-text.js";
import { CATALOG, LANGS, type MessageKey } from "./messages.js";
import { PNG_SCALE, renderCard } from "./render.js";

const dir = fontsDir();
const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as FontManifest;

interface Cmap {
  weight: number;
  role: string;
  has: (cp: number) => boolean;
}

const cmapOf = (file: string): Record<number, number> => {
  const buf = readFileSync(join(dir, file));
  return opentype.parse(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength)).tables.cmap.glyphIndexMap;
};

const cmaps: Cmap[] = manifest.fonts.map((f) => {
  const map = cmapOf(f.file);
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

test("the symbols runtimes' log lines use, which the event log quotes, have a glyph (⇄ was an empty box)", () => {
  const regular = cmaps.filter((c) => c.weight === 400);
  assert.equal([...LOG_SYMBOLS].filter((ch) => !covered(ch.codePointAt(0) as number, regular)), []);
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

const model = (lang: "en" | "zh", detail: "compact" | "standard" | "full" = "full") =>
  buildCardModel(exampleInputs("24h"), { detail, range: "24h", theme: "dark", lang, generatedAt: EXAMPLE_NOW, demo: true, degradedSources: [] });
const textOf = (lang: "en" | "zh"): string => elementText(cardElement(model(lang))).join("");

test("the manifest lists, for each file, exactly the characters its cmap has (what picks the CJK slices)", () => {
  for (const f of manifest.fonts) {
    const cmap = Object.entries(cmapOf(f.file))
      .filter(([, glyph]) => glyph > 0)
      .map(([cp]) => Number(cp));
    assert.equal([...decodeCodePoints(f.codePoints)].sort((a, b) => a - b), cmap.sort((a, b) => a - b), f.file);
  }
});

test("code point ranges: encoded sorted and merged, decoded back; a malformed range is refused", () => {
  assert.is(encodeCodePoints([0x4e01, 0x20, 0x21, 0x22, 0x4e00, 0x7e]), "20-22,7e,4e00-4e01");
  assert.equal([...decodeCodePoints("20-22,7e")], [0x20, 0x21, 0x22, 0x7e]);
  assert.equal([...decodeCodePoints("")], []);
  for (const bad of ["20-", "zz", "22-20", "20,,21", "1234567"]) assert.throws(() => decodeCodePoints(bad), /bad code point range/, bad);
});

test("Latin text loads no CJK slice; a card with hanzi loads only the slices its characters are in; the set only grows", async () => {
  const set = await FontSet.open();
  const lastFamily = manifest.fonts[manifest.fonts.length - 1]?.family as string;
  const latin = [...new Set(manifest.fonts.filter((f) => f.role === "latin").map((f) => f.family))];
  const plain = await set.fontsFor("Gateway up 3d 4h · 12,345 tokens · $1.23 — 45 % «ok» … ");
  assert.equal(set.loadedFamilies(), [...latin, lastFamily], "Latin, and the last font (satori's pick for a character no font has)");
  assert.is(plain.length, manifest.fonts.filter((f) => f.role === "latin" || f.family === lastFamily).length);
  assert.is(await set.fontsFor("more text"), plain, "the same array again: satori keeps its parsed fonts per array");

  const primary = cmaps.filter((_, i) => manifest.fonts[i]?.family === "Inter");
  const families = new Set(manifest.fonts.map((f) => f.family));
  let before = set.loadedFamilies();
  for (const lang of ["en", "zh"] as const) {
    // The example's session names are Chinese in both languages; the zh card adds its own words.
    const text = textOf(lang);
    await set.fontsFor(text);
    const loaded = set.loadedFamilies();
    assert.ok(before.every((f) => loaded.includes(f)), "slices loaded before stay");
    const added = loaded.filter((f) => !before.includes(f));
    assert.ok(added.length > 0, `${lang}: the card's hanzi load slices`);
    assert.ok(loaded.length < families.size, `${lang}: not all of them: ${loaded.length} of ${families.size}`);
    // Each slice added has a glyph for one of the card's characters that Inter lacks.
    const chars = [...new Set(text)].map((ch) => ch.codePointAt(0) as number).filter((cp) => !primary.every((c) => c.has(cp)));
    for (const fam of added) {
      const files = manifest.fonts.filter((f) => f.family === fam).map((f) => decodeCodePoints(f.codePoints));
      assert.ok(chars.some((cp) => files.some((s) => s.has(cp))), `${lang}: ${fam} has none of the card's characters`);
    }
    before = loaded;
  }
});

test("a card draws the same bytes with the fonts its text needs as with every bundled font", async () => {
  const all = await allCardFonts();
  for (const lang of LANGS) {
    for (const detail of ["compact", "full"] as const) {
      const m = model(lang, detail);
      const ours = (await renderCard(m, "svg")).toString("utf8");
      const tree = cardElement(m) as unknown as Parameters<typeof satori>[0];
      const everything = await satori(tree, { width: CARD_WIDTH, fonts: all, embedFont: true, pointScaleFactor: PNG_SCALE });
      assert.ok(ours === everything, `${lang} ${detail}: the SVGs differ`);
    }
  }
});

test.run();
