import type { ArgsDef } from "citty";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { checkArgv, editDistance, nearest, UsageError } from "./argv.js";
import { serverArgs } from "./flags.js";

const snapshot = {
  output: { type: "string", alias: "o" },
  format: { type: "string" },
  quick: { type: "boolean" },
} as const satisfies ArgsDef;
const logs = {
  follow: { type: "boolean", alias: "f" },
  lines: { type: "string", alias: "n" },
} as const satisfies ArgsDef;

function rejects(argv: string[], def: ArgsDef, pattern: RegExp): UsageError {
  try {
    checkArgv(argv, def, "insightsctl x");
  } catch (err) {
    assert.instance(err, UsageError);
    assert.is((err as UsageError).code, "INVALID_PARAM");
    assert.match((err as Error).message, pattern);
    assert.match((err as UsageError).hint, /insightsctl x --help/);
    return err as UsageError;
  }
  throw new Error(`expected ${JSON.stringify(argv)} to be refused`);
}

test("what citty understands passes: long, =value, short, grouped short, -n5, --no-switch, camelCase, -- ", () => {
  checkArgv(["--format", "json", "-o", "x.json", "--quick"], snapshot, "p");
  checkArgv(["--format=json", "--output=-", "--quick=false"], snapshot, "p");
  checkArgv(["-o", "-"], snapshot, "p"); // `-` is the value, not a flag
  checkArgv(["-fn", "20"], logs, "p");
  checkArgv(["-n5", "-f"], logs, "p");
  checkArgv(["--no-follow"], logs, "p");
  checkArgv(["--port", "1", "--no-auth", "--openclaw-dir", "/x", "--openclawDir", "/y", "--log-level", "warn"], serverArgs, "p");
  checkArgv([], {}, "p");
});

test("an unknown flag names the nearest valid one", () => {
  const e = rejects(["--formt", "json", "-o", "x.json"], snapshot, /^unknown flag --formt for insightsctl x \(did you mean --format\?\)$/);
  assert.equal(e.details, { param: "--formt", suggestion: "--format" });
  rejects(["--out", "x"], snapshot, /did you mean --output\?/); // a unique prefix
  rejects(["--prot", "1"], serverArgs, /did you mean --port\?/);
  rejects(["--log-levle", "warn"], serverArgs, /did you mean --log-level\?/);
  const far = rejects(["--colour"], snapshot, /^unknown flag --colour for insightsctl x$/);
  assert.equal(far.details, { param: "--colour" });
  rejects(["-x"], logs, /^unknown flag -x for insightsctl x$/);
  rejects(["-fx"], logs, /unknown flag -x/);
});

test("a command without flags says so", () => {
  rejects(["--force"], {}, /^unknown flag --force for insightsctl x \(insightsctl x takes no flags\)$/);
});

test("--no- only turns a switch off", () => {
  rejects(["--no-format"], snapshot, /unknown flag --no-format/);
  rejects(["--no-port"], serverArgs, /unknown flag --no-port/);
  rejects(["--no-auth=1"], serverArgs, /--no-auth takes no value/);
});

test("a value on a switch, a flag missing its value, an extra argument", () => {
  rejects(["--quick=yes"], snapshot, /--quick is a switch and takes no value \(got "yes"\)/);
  rejects(["--format"], snapshot, /^--format needs a value$/);
  rejects(["-n"], logs, /^-n needs a value$/);
  rejects(["-fn"], logs, /^-n needs a value$/);
  rejects(["now"], {}, /^unexpected argument "now" for insightsctl x$/);
  rejects(["--quick", "card.png"], snapshot, /unexpected argument "card.png"/);
  rejects(["--", "--quick"], snapshot, /unexpected argument "--quick"/);
});

test("positionals a command declares are accepted, one each", () => {
  const def = { name: { type: "positional" } } as const satisfies ArgsDef;
  checkArgv(["x"], def, "p");
  rejects(["x", "y"], def, /unexpected argument "y"/);
});

test("nearest: close typos and unique prefixes only", () => {
  const commands = ["start", "stop", "restart", "status", "logs", "snapshot", "url", "service", "help"];
  assert.is(nearest("stats", commands), "status");
  assert.is(nearest("snapshto", commands), "snapshot"); // a swap is one edit
  assert.is(nearest("sta", commands), null); // start, stop, status: no single guess
  assert.is(nearest("servi", commands), "service");
  assert.is(nearest("deploy", commands), null);
  assert.is(nearest("-x", ["-o", "-f"]), null); // one letter is too short to guess from
  assert.is(editDistance("formt", "format"), 1);
  assert.is(editDistance("ab", "ba"), 1);
  assert.is(editDistance("", "abc"), 3);
});

test.run();
