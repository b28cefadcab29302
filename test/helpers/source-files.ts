// The product's source files (not tests), for the tests that read the code itself: the provider
// name rule (provider-names.test.ts) and the import rules (architecture.test.ts).
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** `.ts`/`.tsx` files under `dir` (repo-relative, `/`-separated), tests and build output left out. */
export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (abs: string): void => {
    for (const e of readdirSync(abs, { withFileTypes: true })) {
      if (e.name === "node_modules" || e.name === "dist" || e.name.startsWith(".")) continue;
      const p = join(abs, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.tsx?$/.test(e.name) && !e.name.endsWith(".test.ts")) out.push(relative(ROOT, p).split("\\").join("/"));
    }
  };
  walk(resolve(ROOT, dir));
  return out.sort();
}

/** The repo files a source file imports by a relative path (`.js` specifiers resolved to `.ts`). */
export function relativeImports(file: string): string[] {
  const text = readFileSync(resolve(ROOT, file), "utf8");
  const specs = [...text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g)].map((m) => m[1] as string);
  return [...new Set(specs.map((s) => relative(ROOT, resolve(ROOT, dirname(file), s)).split("\\").join("/").replace(/\.js$/, ".ts")))].sort();
}
