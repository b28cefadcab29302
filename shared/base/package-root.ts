// The installed package's root, found from this file whether it runs from source (tsx) or from
// dist/ (built), so bundled data such as the demo state can be located.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { PRODUCT } from "./version.js";

let cached: string | undefined;

export function packageRoot(): string {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, "package.json");
    if (existsSync(pkg)) {
      try {
        if ((JSON.parse(readFileSync(pkg, "utf8")) as { name?: string }).name === PRODUCT) return (cached = dir);
      } catch {
        // keep looking
      }
    }
    const up = dirname(dir);
    if (up === dir) throw new Error(`cannot find the ${PRODUCT} package root above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
}
