// An InsightsError that fails a test is reported by uvu with its code, message and details, and the
// tests after it still run; what clients receive of it (toJSON, the details' fields) is unchanged.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { makeTempDir, removeTempDirs } from "../../test/helpers/openclaw-fixtures.js";
import { InsightsError } from "./errors.js";

test.after(removeTempDirs);

const UVU = import.meta.resolve("uvu");
const ERRORS = pathToFileURL(path.join(import.meta.dirname, "errors.ts")).href;

/** Runs one uvu file (source text) as `node --import tsx`, as test/run.mjs does; its output, both streams. */
function runUvuFile(source: string): Promise<string> {
  const file = path.join(makeTempDir("gi-uvu-"), "failing.test.ts");
  fs.writeFileSync(file, source);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", file], { cwd: import.meta.dirname, env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("close", () => resolve(out));
  });
}

test("a test that throws an InsightsError with details prints its code, message and details, and the next test still runs", async () => {
  const details = { param: "since", allowed: ["YYYY-MM-DD"] };
  const out = await runUvuFile(`
import { test } from ${JSON.stringify(UVU)};
import { InsightsError } from ${JSON.stringify(ERRORS)};
test("throws a typed error", () => {
  throw new InsightsError("INVALID_PARAM", "since: not a date", ${JSON.stringify(details)});
});
test("runs after it", () => {
  throw new Error("the second test ran");
});
test.run();
`);
  assert.match(out, "INVALID_PARAM: since: not a date", out);
  assert.match(out, `details: ${JSON.stringify(details)}`, out);
  assert.match(out, "the second test ran", out);
  assert.match(out, /Passed:\s+0/, out);
});

test("what clients and callers see of an InsightsError's details is unchanged: the same fields, no more", () => {
  const given = { param: "limit", max: 500 };
  const err = new InsightsError("INVALID_PARAM", "limit: at most 500", given);
  assert.equal(err.details, given);
  assert.equal({ ...err.details }, given);
  assert.is(JSON.stringify(err.details), JSON.stringify(given));
  assert.equal(Object.keys(err.details), Object.keys(given));
  assert.is(JSON.stringify(err), JSON.stringify({ code: "INVALID_PARAM", message: "limit: at most 500" }));
  assert.not.ok(Object.hasOwn(given, "split"), "the caller's object is left as it was");
});

test.run();
