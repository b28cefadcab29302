// The MCP project's conformance suite (@modelcontextprotocol/conformance) against a real daemon's
// /mcp: the server scenarios that apply to a server with one tool and no resources, prompts,
// logging or sampling (the others ask for their own test tools by name). Each scenario runs the
// suite's own client and prints "Passed: N/N, 0 failed"; the suite's process is ended once it has.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { startDaemon, type TestDaemon } from "./helpers/daemon.js";
import { makeTempDir, removeTempDirs, SQLITE_FIXTURE } from "./helpers/openclaw-fixtures.js";

const CLI = createRequire(import.meta.url).resolve("@modelcontextprotocol/conformance/dist/index.js");
const SCENARIOS = ["server-initialize", "ping", "tools-list", "dns-rebinding-protection"];

let d: TestDaemon;
test.before(async () => {
  d = await startDaemon({ fixture: SQLITE_FIXTURE });
});
test.after(async () => {
  await d.stop();
  removeTempDirs();
});

/** Runs one scenario; resolves with its result line. The suite's process can stay open after it, so it is ended then. */
function scenario(name: string): Promise<string> {
  return new Promise((resolve, reject) => {
    // It writes its results under its working directory.
    const p = spawn(process.execPath, [CLI, "server", "--url", `${d.url}/mcp`, "--scenario", name], { cwd: makeTempDir("gi-conformance-"), stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    const done = (line: string | null): void => {
      p.kill();
      if (line) resolve(line);
      else reject(new Error(`${name}: no result line\n${out.slice(-3000)}`));
    };
    const onData = (c: Buffer): void => {
      out += c.toString();
      const m = /Passed: \d+\/\d+, \d+ failed, \d+ warnings/.exec(out);
      if (m) done(m[0]);
    };
    p.stdout.on("data", onData);
    p.stderr.on("data", onData);
    p.on("exit", () => done(/Passed: \d+\/\d+, \d+ failed, \d+ warnings/.exec(out)?.[0] ?? null));
  });
}

for (const name of SCENARIOS) {
  test(`conformance: ${name}`, async () => {
    const line = await scenario(name);
    const m = /Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/.exec(line) as RegExpExecArray;
    assert.ok(Number(m[2]) > 0, `${name}: no checks ran`);
    assert.is(m[1], m[2], `${name}: ${line}`);
    assert.is(m[3], "0", `${name}: ${line}`);
  });
}

test.run();
