import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { callViaCli, extractJson, probeChannelsViaCli, probeChannelsWithFallback, spawnRunner } from "./cli-fallback.js";
import type { CommandRunner, RunResult } from "./cli-fallback.js";
import { GatewayRpcClient } from "./rpc-client.js";
import { GATEWAY_FIXTURES_DIR } from "../../../../test/helpers/stub-gateway.js";

const fixtureText = (f: string) => fs.readFileSync(path.join(GATEWAY_FIXTURES_DIR, f), "utf8");
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "gi-"));

// Error envelopes exactly as `openclaw gateway call ... --json` 2026.9.6 printed them.
const TRANSPORT_ERROR = JSON.stringify({
  ok: false,
  error: { type: "gateway_transport_error", kind: "closed", message: "Gateway not reachable at ws://127.0.0.1:18777 (ECONNREFUSED).", reason: "connect ECONNREFUSED 127.0.0.1:18777" },
  gateway: { url: "ws://127.0.0.1:18777", urlSource: "local loopback", bindDetail: "Bind: loopback" },
});
const REQUEST_ERROR = JSON.stringify({ ok: false, error: { type: "gateway_request_error", code: "INVALID_REQUEST", message: "unknown method: nope.nope", retryable: false } });
const CLI_ERROR = JSON.stringify({ ok: false, error: { type: "cli_error", message: "JSON5: invalid end of input at 1:1" } });

interface Call {
  file: string;
  args: readonly string[];
  timeoutMs: number;
  env: NodeJS.ProcessEnv | undefined;
}

/** A runner that answers per method from a table and records how it was called. */
function fakeRunner(answers: Record<string, Partial<RunResult>>): { runner: CommandRunner; calls: Call[] } {
  const calls: Call[] = [];
  const runner: CommandRunner = async (file, args, opts) => {
    calls.push({ file, args, timeoutMs: opts.timeoutMs, env: opts.env });
    const method = args[args.indexOf("call") + 1] ?? "";
    return { exitCode: 0, stdout: "", stderr: "", timedOut: false, ...answers[method] };
  };
  return { runner, calls };
}

test("channels probe through the CLI parses the recorded answers", async () => {
  const { runner, calls } = fakeRunner({
    "channels.status": { stdout: fixtureText("call-channels.status.json") },
    health: { stdout: fixtureText("health.json") },
  });
  const env = { OPENCLAW_STATE_DIR: "/x/state", OPENCLAW_GATEWAY_TOKEN: "secret-in-env" };
  const r = await probeChannelsViaCli({ runner, timeoutMs: 8000, port: 18889, env });
  assert.ok(r.ok, r.ok ? "" : r.error.message);
  if (!r.ok) return;
  const health = JSON.parse(fixtureText("health.json")) as { plugins: { loaded: unknown[] } };
  assert.is(r.value.source, "cli");
  assert.equal(r.value.channels, []);
  assert.is(r.value.health?.pluginsLoaded, health.plugins.loaded.length);
  assert.is(r.value.rpcLatencyMs, null);
  const status = calls.find((c) => c.args.includes("channels.status"));
  // Regression: the port went as `--port`, which the 2026.7.1 CLI rejects; it goes in the env now.
  assert.equal(status?.args, ["gateway", "call", "channels.status", "--json", "--params", "{}", "--timeout", "5000"]);
  assert.is(status?.file, "openclaw");
  assert.is(status?.timeoutMs, 8000);
  assert.equal(status?.env, { ...env, OPENCLAW_GATEWAY_PORT: "18889" });
  // Secrets travel in the environment, never in argv (visible in ps).
  assert.not.ok(calls.some((c) => c.args.join(" ").includes("secret-in-env")));
});

test("the CLI's error envelopes map to source errors", async () => {
  const cases: [Partial<RunResult>, string, RegExp][] = [
    [{ exitCode: 1, stdout: TRANSPORT_ERROR }, "unreachable", /ECONNREFUSED/],
    [{ exitCode: 1, stdout: REQUEST_ERROR }, "unsupported", /unknown method/],
    // cli_error comes with exit code 0: the envelope decides, not the exit code.
    [{ exitCode: 0, stdout: CLI_ERROR }, "corrupt", /JSON5/],
    [{ exitCode: null, timedOut: true }, "timeout", /no answer within/],
    [{ exitCode: 1, stdout: "Segmentation fault", stderr: "boom\nmore" }, "corrupt", /boom/],
    [{ exitCode: null, spawnError: Object.assign(new Error("spawn openclaw ENOENT"), { code: "ENOENT" }) }, "missing", /not found/],
    [{ exitCode: 3, stdout: "{}" }, "corrupt", /exit 3/],
    // Both real CLIs on an option their version lacks: 2026.7.1 on stderr only, 2026.9.6 in a cli_error envelope.
    [{ exitCode: 1, stdout: "", stderr: 'OpenClaw does not recognize option "--port".\nTry: openclaw gateway call --help\n' }, "unsupported", /does not recognize option "--port"/],
    [{ exitCode: 1, stdout: JSON.stringify({ ok: false, error: { type: "cli_error", message: 'OpenClaw does not recognize option "--bogus".\nTry: openclaw gateway call --help' } }) }, "unsupported", /--bogus/],
    // The real launcher's answer when Node 20 is first on PATH: nothing on stdout, this on stderr.
    [{ exitCode: 1, stdout: "", stderr: "openclaw: Node 20.20.2: node:sqlite is unavailable; use 24.16+/26.1+ or a build with the fix.\nIf you use nvm, run:\n" }, "unsupported", /node:sqlite is unavailable/],
  ];
  for (const [answer, kind, message] of cases) {
    const { runner } = fakeRunner({ health: answer });
    const r = await callViaCli("health", {}, { runner });
    assert.not.ok(r.ok);
    if (r.ok) continue;
    assert.is(r.error.kind, kind, JSON.stringify(answer));
    assert.match(r.error.message, message);
  }
});

test("a banner before the JSON is tolerated", () => {
  assert.equal(extractJson('OpenClaw config warning\nsomething\n{\n  "a": 1\n}\n'), { a: 1 });
  assert.equal(extractJson("[1,2]"), [1, 2]);
  assert.throws(() => extractJson("  "), /empty/);
  assert.throws(() => extractJson("no json here"), /no JSON/);
});

test("health with ok:true is a payload, not an error envelope", async () => {
  const { runner } = fakeRunner({ health: { stdout: fixtureText("health.json") } });
  const r = await callViaCli("health", {}, { runner });
  assert.ok(r.ok);
  if (r.ok) assert.equal(r.value.payload, JSON.parse(fixtureText("health.json")));
});

test("spawnRunner runs a real program, captures stdout, kills at the timeout, reports ENOENT", async () => {
  const okRun = await spawnRunner(process.execPath, ["-e", "process.stdout.write(JSON.stringify({hi:1})); process.stderr.write('e')"], { timeoutMs: 10_000 });
  assert.is(okRun.exitCode, 0);
  assert.is(okRun.stdout, '{"hi":1}');
  assert.is(okRun.stderr, "e");
  assert.not.ok(okRun.timedOut);
  const started = Date.now();
  const slow = await spawnRunner(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { timeoutMs: 300 });
  assert.ok(slow.timedOut);
  assert.ok(Date.now() - started < 10_000);
  const missing = await spawnRunner(path.join(tmp(), "no-such-openclaw"), [], { timeoutMs: 1000 });
  assert.is(missing.spawnError?.code, "ENOENT");
});

async function deadClient(): Promise<GatewayRpcClient> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", () => r()));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return new GatewayRpcClient({ url: `ws://127.0.0.1:${port}`, stateDir: tmp() });
}

test("fallback: a dead socket hands over to the CLI", async () => {
  const { runner, calls } = fakeRunner({
    "channels.status": { stdout: fixtureText("call-channels.status.json") },
    health: { stdout: fixtureText("health.json") },
  });
  const r = await probeChannelsWithFallback(await deadClient(), { cli: { runner } });
  assert.ok(r.ok);
  if (r.ok) assert.is(r.value.source, "cli");
  assert.is(calls.length, 2);
});

test("fallback: when both fail, the socket's error leads and the CLI's is appended", async () => {
  const { runner } = fakeRunner({ "channels.status": { exitCode: 1, stdout: TRANSPORT_ERROR }, health: { exitCode: 1, stdout: TRANSPORT_ERROR } });
  const r = await probeChannelsWithFallback(await deadClient(), { cli: { runner } });
  assert.not.ok(r.ok);
  if (r.ok) return;
  assert.is(r.error.kind, "unreachable");
  assert.match(r.error.message, /ECONNREFUSED.*CLI fallback also failed: .*Gateway not reachable/);
  assert.is(r.error.details.cliErrorKind, "unreachable");
});

test("fallback can be switched off", async () => {
  const { runner, calls } = fakeRunner({});
  const r = await probeChannelsWithFallback(await deadClient(), { cli: { runner }, useCli: false });
  assert.not.ok(r.ok);
  assert.is(calls.length, 0);
});

test.run();
