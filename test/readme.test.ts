// The README's config table must say what the code does: every key, its env name and default.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { ArgsDef, CommandDef } from "citty";
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

test("the CLI table has a row for every command, naming each of its flags", async () => {
  const cli = readme.slice(readme.indexOf("## CLI"), readme.indexOf("### `status --json`"));
  const row = (command: string): string => {
    const line = cli.split("\n").find((l) => l.startsWith(`| \`insightsctl ${command}`));
    assert.ok(line, `README's CLI table has no row for insightsctl ${command}`);
    return line;
  };
  const flagsOf = async (file: string, sub?: string): Promise<string[]> => {
    const cmd = ((await import(`../cli/commands/${file}.js`)) as { default: CommandDef }).default;
    const def = sub ? ((cmd.subCommands as Record<string, CommandDef>)[sub] as CommandDef) : cmd;
    const names: string[] = [];
    for (const [name, arg] of Object.entries((def.args ?? {}) as ArgsDef)) {
      // A positional is a word, not a flag (`usage [daily|monthly|…]`).
      if (arg.type === "positional") continue;
      const kebab = name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
      // A switch that is on by default is documented by how to turn it off.
      names.push(arg.type === "boolean" && arg.default === true ? `--no-${kebab}` : `--${kebab}`);
      if ("alias" in arg && typeof arg.alias === "string") names.push(`-${arg.alias}`);
    }
    return names;
  };
  for (const [command, file, sub] of [["start", "start"], ["stop", "stop"], ["url", "url"], ["status", "status"], ["logs", "logs"], ["snapshot", "snapshot"], ["usage", "usage"], ["export", "export"], ["service install", "service", "install"]] as const) {
    const line = row(command);
    for (const flag of await flagsOf(file, sub)) assert.ok(new RegExp(`[[|]${flag}[\\] \\\\|]`).test(line), `insightsctl ${command}: ${flag} is not in its README row`);
  }
  // restart's row says "same flags as start": make sure they are.
  assert.match(row("restart"), /same flags as start/);
  const start = new Set(await flagsOf("start"));
  for (const flag of await flagsOf("restart")) assert.ok(start.has(flag), `restart ${flag} is not a start flag`);
  row("help");
});

test("the two set-up commands are there", () => {
  assert.match(readme, /npm install && npm start/);
  assert.match(readme, /npm test/);
});

/** Every Markdown file a user reads: the top-level ones and everything under docs/. */
function userDocs(): string[] {
  const out = readdirSync(ROOT).filter((f) => f.endsWith(".md"));
  const walk = (dir: string): void => {
    for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      if (e.isDirectory()) walk(`${dir}/${e.name}`);
      else if (e.name.endsWith(".md")) out.push(`${dir}/${e.name}`);
    }
  };
  walk("docs");
  return out;
}

test("no doc holds git merge-conflict markers", () => {
  const docs = userDocs();
  assert.ok(docs.includes("README.md") && docs.includes("docs/benchmarks.md"), docs.join(", "));
  // A marker is a whole line of its own: `<<<<<<< HEAD`, `=======`, `>>>>>>> main`.
  const marker = /^(<{7}|>{7})( .*)?$|^={7}$/;
  for (const file of docs) {
    const lines = readFileSync(join(ROOT, file), "utf8").split("\n");
    const at = lines.findIndex((l) => marker.test(l));
    assert.is(at, -1, `${file}:${at + 1}: ${lines[at] ?? ""}`);
  }
});

test.run();
