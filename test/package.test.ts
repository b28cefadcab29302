// What `npm pack` (and so `npm publish` and an install from the tarball) ships: the built bins and
// the unit template. A clean clone has no dist/, so packing must build it first (prepack).
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ROOT } from "./helpers/cli.js";
import { sourceFiles } from "./helpers/source-files.js";

const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string>; bin: Record<string, string> };

test("packing builds dist/ first", () => {
  assert.is(pkg.scripts.prepack, "npm run build");
});

test("the packed file list holds both bins, the dashboard, the unit template, and no tests", () => {
  // --ignore-scripts: the test run has built dist/ already; this checks what `files` selects.
  // npm's cache and logs go to a temp dir: by default npm writes them into ~/.npm.
  const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts", "--cache", mkdtempSync(join(tmpdir(), "gi-npm-"))], { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  const files = new Set((JSON.parse(out) as Array<{ files: Array<{ path: string }> }>)[0]?.files.map((f) => f.path));
  for (const bin of Object.values(pkg.bin)) assert.ok(files.has(bin), `${bin} is not packed`);
  assert.ok([...files].some((f) => f.startsWith("dist/web/")), "the dashboard's assets are not packed");
  assert.ok(files.has("systemd/gateway-insights.service"));
  assert.equal([...files].filter((f) => /\.test\.|(^|\/)test\//.test(f)), []);
});

test("the build compiles no hand-run scripts and no test-only examples (they live under test/tools/ and test/helpers/)", () => {
  // tsconfig.build.json compiles every non-test .ts file of these dirs into dist/, which is packed.
  const built = ["shared", "daemon", "cli"].flatMap(sourceFiles).filter((f) => !f.endsWith(".test.ts"));
  assert.ok(built.length > 100, `${built.length} files read`);
  assert.equal(built.filter((f) => /(^|\/)scripts\/|example-inputs/.test(f)), []);
});

test.run();
