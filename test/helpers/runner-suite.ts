// What the real-program runner tests (test/runner-*.test.ts) share: the one check a file runs in
// place of its tests when the real CLI was not started, and the check that a runner refuses a port
// another server holds.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { CliStepError } from "./real-cli.js";

/**
 * Not uvu's skip and not an empty file (test/run.mjs counts both as failures): one check that
 * skipping happens only off CI. `bySwitch`: the file skips only for GI_SKIP_REAL_CLI=1 (Gemini CLI
 * also skips off CI when the CLI is not cached and the registry is unreachable).
 */
export function runSkippedSuite(file: string, program: string, reason: string, bySwitch: boolean): void {
  console.log(`${file}: the real ${program} was not started (${reason})`);
  const skipped = suite(`${program} runner (skipped)`);
  skipped(bySwitch ? "the skip switch is honoured only outside CI" : "the skip is honoured only outside CI", () => {
    assert.not.ok(process.env.CI);
    if (bySwitch) assert.is(process.env.GI_SKIP_REAL_CLI, "1");
  });
  skipped.run();
}

/**
 * A port held by another server that answers 200 to anything, as another test's fake API would
 * (the run script's readiness probe succeeds against it while the real fake API dies with
 * EADDRINUSE): `start` on that port must fail at its "up" step, naming EADDRINUSE.
 */
export async function assertHeldPortRefused(start: (port: number) => Promise<{ stop(): Promise<void> }>): Promise<void> {
  const other = http.createServer((_req, res) => res.end("{}"));
  await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", () => resolve()));
  const port = (other.address() as AddressInfo).port;
  try {
    const err = await start(port).then(
      async (r) => {
        await r.stop();
        return null;
      },
      (e: unknown) => e,
    );
    assert.instance(err, CliStepError);
    assert.is((err as CliStepError).step, "up");
    assert.match((err as Error).message, /EADDRINUSE/);
  } finally {
    await new Promise((resolve) => other.close(resolve));
  }
}
