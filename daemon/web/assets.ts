// The dashboard's built files (dist/web/, made by `npm run build` with Vite): index.html and the
// content-hashed files under assets/. They are read into memory once, with a gzip copy of each
// text file, and read again when index.html changes on disk (a rebuild while the daemon runs).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { extname, join } from "node:path";
import { gzipSync } from "node:zlib";
import { packageRoot } from "../../shared/base/package-root.js";

export interface WebAsset {
  body: Buffer;
  /** Present for compressible types when it is smaller. */
  gzip: Buffer | null;
  contentType: string;
}

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".html": "text/html; charset=utf-8",
  ".svg": "image/svg+xml",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
};
const COMPRESSIBLE = new Set([".js", ".css", ".html", ".svg", ".json", ".txt"]);

/** Only plain file names are served: no separators, no dot-files, nothing that could climb out. */
const ASSET_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/;

function webRoot(): string {
  return join(packageRoot(), "dist", "web");
}

function load(file: string): WebAsset {
  const body = readFileSync(file);
  const ext = extname(file).toLowerCase();
  const zipped = COMPRESSIBLE.has(ext) ? gzipSync(body, { level: 9 }) : null;
  return { body, gzip: zipped && zipped.length < body.length ? zipped : null, contentType: TYPES[ext] ?? "application/octet-stream" };
}

export class WebAssets {
  private index: WebAsset | null = null;
  private indexMtime = -1;
  private files = new Map<string, WebAsset>();

  constructor(private readonly root: string = webRoot()) {}

  /** index.html, or null when the dashboard was not built. */
  page(): WebAsset | null {
    const file = join(this.root, "index.html");
    let mtime: number;
    try {
      mtime = statSync(file).mtimeMs;
    } catch {
      return null;
    }
    if (mtime !== this.indexMtime || !this.index) {
      this.index = load(file);
      this.indexMtime = mtime;
      this.files = this.readAssets();
    }
    return this.index;
  }

  /** A file under assets/ by name, or null. */
  asset(name: string): WebAsset | null {
    if (!ASSET_NAME.test(name)) return null;
    if (!this.index) this.page();
    return this.files.get(name) ?? null;
  }

  private readAssets(): Map<string, WebAsset> {
    const dir = join(this.root, "assets");
    const out = new Map<string, WebAsset>();
    if (!existsSync(dir)) return out;
    for (const name of readdirSync(dir)) {
      const file = join(dir, name);
      if (ASSET_NAME.test(name) && statSync(file).isFile()) out.set(name, load(file));
    }
    return out;
  }
}
