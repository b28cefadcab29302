// The card's fonts: the files listed in fonts/manifest.json (written by scripts/pick-fonts.ts),
// read once per process and handed to satori as the same array every time, because satori
// caches its parsed fonts per array and parsing ~100 font files takes most of a second.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Font } from "satori";
import { packageRoot } from "../package-root.js";

export interface ManifestFont {
  file: string;
  family: string;
  weight: number;
  role: "latin" | "cjk";
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

const WEIGHTS = [100, 200, 300, 400, 500, 600, 700, 800, 900] as const;
type Weight = (typeof WEIGHTS)[number];
const asWeight = (w: number): Weight => WEIGHTS.find((x) => x === w) ?? 400;

let loading: Promise<Font[]> | undefined;

/** The bundled fonts, loaded on the first call; later calls return the same array. */
export function cardFonts(): Promise<Font[]> {
  loading ??= (async () => {
    const dir = fontsDir();
    const manifest = await readManifest(dir);
    return Promise.all(
      manifest.fonts.map(async (f): Promise<Font> => ({ name: f.family, data: await readFile(join(dir, f.file)), weight: asWeight(f.weight), style: "normal" })),
    );
  })();
  // A failed read (a missing file) must not stick: the next render tries again.
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}
