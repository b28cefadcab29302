// The card's fonts: the files listed in fonts/manifest.json (written by test/tools/snapshot/pick-fonts.ts).
//
// A render worker loads only what the card's text needs: the Latin files always, a CJK slice only
// once a card shows one of its characters. Parsing the ~100 CJK slices took 0.65 s and ~40 MB of
// a worker's memory, for cards that are mostly English and numbers.
//
// Each file is read (and unpacked from WOFF, woff.ts) once per process, and the array handed to satori only grows (it is replaced by
// a larger one when a card needs a slice not loaded yet), because satori caches its parsed fonts
// per file buffer and its font loaders per array: the same buffers mean nothing is parsed twice.
//
// The text renders exactly as it would with every file loaded: satori draws a character with the
// first font, in manifest order, that has it (the last font when none has), and the array holds,
// in manifest order, every family with a glyph for any of the card's characters, plus the last one.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Font } from "satori";
import { packageRoot } from "../base/package-root.js";
import { woffToSfnt } from "./woff.js";

export interface ManifestFont {
  file: string;
  family: string;
  weight: number;
  role: "latin" | "cjk";
  /** The characters the file has a glyph for (its cmap), as hex ranges: "20-7e,a0,2026". */
  codePoints: string;
}

export interface FontManifest {
  comment: string;
  /** Package name -> version the files were copied from. */
  sources: Record<string, string>;
  /** In fallback order: satori tries them in this order for a character the first lacks. */
  fonts: ManifestFont[];
}

/** The family the card names; every other bundled font is a fallback after it. */
export const PRIMARY_FAMILY = "Inter";

export function fontsDir(): string {
  return join(packageRoot(), "shared", "snapshot", "fonts");
}

export async function readManifest(dir = fontsDir()): Promise<FontManifest> {
  return JSON.parse(await readFile(join(dir, "manifest.json"), "utf8")) as FontManifest;
}

/** Code points as sorted hex ranges ("20-7e,a0"), the manifest's form. */
export function encodeCodePoints(codePoints: Iterable<number>): string {
  const sorted = [...new Set(codePoints)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && (sorted[j + 1] as number) === (sorted[j] as number) + 1) j++;
    const lo = (sorted[i] as number).toString(16);
    parts.push(j > i ? `${lo}-${(sorted[j] as number).toString(16)}` : lo);
    i = j + 1;
  }
  return parts.join(",");
}

/** The inverse of encodeCodePoints; throws on anything else (a hand-edited manifest). */
export function decodeCodePoints(text: string): Set<number> {
  const out = new Set<number>();
  if (text === "") return out;
  for (const part of text.split(",")) {
    const m = /^([0-9a-f]{1,6})(?:-([0-9a-f]{1,6}))?$/.exec(part);
    if (!m) throw new Error(`font manifest: bad code point range ${JSON.stringify(part)}`);
    const lo = parseInt(m[1] as string, 16);
    const hi = m[2] === undefined ? lo : parseInt(m[2], 16);
    if (hi < lo || hi - lo > 0x10ffff) throw new Error(`font manifest: bad code point range ${JSON.stringify(part)}`);
    for (let cp = lo; cp <= hi; cp++) out.add(cp);
  }
  return out;
}

const WEIGHTS = [100, 200, 300, 400, 500, 600, 700, 800, 900] as const;
type Weight = (typeof WEIGHTS)[number];
const asWeight = (w: number): Weight => WEIGHTS.find((x) => x === w) ?? 400;

/** Characters satori may draw that are not in the element tree's text: the ellipsis of a cut line. */
const IMPLIED_TEXT = "\u2026";

interface Family {
  name: string;
  /** Its files, in manifest order. */
  files: ManifestFont[];
  /** Loaded for every card: a Latin family, the last family, or one whose entry lacks its code points (an old manifest). */
  always: boolean;
}

/** The manifest digested: the families in order, and which of them has each character. */
interface FontCatalog {
  dir: string;
  families: Family[];
  /** Code point -> the families (other than the always-loaded ones) with a glyph for it. */
  byCodePoint: Map<number, Family[]>;
}

export class FontSet {
  private readonly buffers = new Map<string, Promise<Buffer>>();
  private readonly loaded = new Set<Family>();
  private current: Font[] | null = null;
  private pending: Promise<Font[]> | null = null;

  private constructor(private readonly catalog: FontCatalog) {}

  static async open(dir = fontsDir()): Promise<FontSet> {
    const manifest = await readManifest(dir);
    if (manifest.fonts.length === 0) throw new Error("font manifest lists no fonts");
    const byName = new Map<string, Family>();
    for (const f of manifest.fonts) {
      let fam = byName.get(f.family);
      if (!fam) byName.set(f.family, (fam = { name: f.family, files: [], always: false }));
      fam.files.push(f);
      if (f.role === "latin" || typeof f.codePoints !== "string") fam.always = true;
    }
    const families = [...byName.values()];
    (families[families.length - 1] as Family).always = true;
    // A character every file of the card's family (Inter) has is drawn from it, whatever the
    // weight, before any fallback is tried: it asks for no CJK slice.
    const primary = manifest.fonts.filter((f) => f.family === PRIMARY_FAMILY).map((f) => decodeCodePoints(f.codePoints ?? ""));
    const byCodePoint = new Map<number, Family[]>();
    for (const fam of families) {
      if (fam.always) continue;
      for (const f of fam.files) {
        for (const cp of decodeCodePoints(f.codePoints)) {
          if (primary.length > 0 && primary.every((s) => s.has(cp))) continue;
          const list = byCodePoint.get(cp);
          if (!list) byCodePoint.set(cp, [fam]);
          else if (!list.includes(fam)) list.push(fam);
        }
      }
    }
    return new FontSet({ dir, families, byCodePoint });
  }

  /** Families loaded so far (tests, and the bench's notes). */
  loadedFamilies(): string[] {
    return this.catalog.families.filter((f) => this.loaded.has(f)).map((f) => f.name);
  }

  /** The fonts for a card showing `text`: the same array as last time unless it needs a new family. */
  fontsFor(text: string): Promise<Font[]> {
    const { families, byCodePoint } = this.catalog;
    const needed = new Set<Family>(families.filter((f) => f.always));
    for (const ch of new Set(text + IMPLIED_TEXT)) for (const f of byCodePoint.get(ch.codePointAt(0) as number) ?? []) needed.add(f);
    return this.load(needed);
  }

  /** Every bundled font, as the renderer loaded them before (the bench's bare baseline, tests). */
  all(): Promise<Font[]> {
    return this.load(new Set(this.catalog.families));
  }

  private load(needed: Set<Family>): Promise<Font[]> {
    const { families } = this.catalog;
    const missing = [...needed].some((f) => !this.loaded.has(f));
    if (!missing && this.current) return Promise.resolve(this.current);
    // Loads one at a time, so two cards needing different slices both end up in the array.
    const prev = this.pending ?? Promise.resolve(this.current ?? []);
    const next = prev
      .catch(() => [])
      .then(async () => {
        const want = families.filter((f) => this.loaded.has(f) || needed.has(f));
        const fonts = await Promise.all(
          want.flatMap((fam) => fam.files).map(async (f): Promise<Font> => ({ name: f.family, data: await this.read(f.file), weight: asWeight(f.weight), style: "normal" })),
        );
        for (const f of want) this.loaded.add(f);
        this.current = fonts;
        return fonts;
      });
    this.pending = next;
    // A failed read (a missing file) must not stick: the next card tries again.
    next.then(
      () => {
        if (this.pending === next) this.pending = null;
      },
      () => {
        if (this.pending === next) this.pending = null;
      },
    );
    return next;
  }

  private read(file: string): Promise<Buffer> {
    let p = this.buffers.get(file);
    if (!p) {
      // Unpacked here with Node's zlib, not by satori's JavaScript inflater (woff.ts says why).
      p = readFile(join(this.catalog.dir, file)).then(woffToSfnt);
      this.buffers.set(file, p);
      p.catch(() => this.buffers.delete(file));
    }
    return p;
  }
}

let fontSet: Promise<FontSet> | undefined;

function openFontSet(): Promise<FontSet> {
  fontSet ??= FontSet.open();
  fontSet.catch(() => {
    fontSet = undefined;
  });
  return fontSet;
}

/** The bundled fonts a card showing `text` needs (the Latin ones, and the CJK slices for its characters). */
export async function cardFonts(text = ""): Promise<Font[]> {
  return (await openFontSet()).fontsFor(text);
}

/** Every bundled font in manifest order (all CJK slices too): the bench's bare baseline. */
export async function allCardFonts(): Promise<Font[]> {
  return (await openFontSet()).all();
}

/** Every character of an element tree's text (satori's `{type, props: {children}}` nodes). */
export function elementText(node: unknown, out: string[] = []): string[] {
  if (typeof node === "string") out.push(node);
  else if (typeof node === "number") out.push(String(node));
  else if (Array.isArray(node)) for (const n of node) elementText(n, out);
  else if (node !== null && typeof node === "object") {
    const props = (node as { props?: { children?: unknown } }).props;
    if (props && props.children !== undefined) elementText(props.children, out);
  }
  return out;
}
