// The README's config table must say what the code does: every key, its env name and default.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { OPTIONS } from "../shared/config/options.js";
import { ROOT } from "./helpers/cli.js";

const readme = readFileSync(join(ROOT, "README.md"), "utf8");

test("every config key is documented with its env variable and default", () => {
  for (const [key, def] of Object.entries(OPTIONS)) {
    const row = readme.split("\n").find((l) => l.startsWith(`| \`${key}\` |`));
    assert.ok(row, `README has no row for ${key}`);
    assert.ok(row.includes(`\`${def.env}\``), `${key}: env ${def.env}`);
    if (def.default !== null) assert.ok(row.includes(`\`${String(def.default)}\``), `${key}: default ${String(def.default)}`);
    assert.ok(row.includes(def.reloadable ? "SIGHUP" : "restart"), `${key}: reload column`);
  }
});

test("the two set-up commands are there", () => {
  assert.match(readme, /npm install && npm start/);
  assert.match(readme, /npm test/);
});

test.run();
