// End to end: the built insightsctl and insightsd against a real daemon in a throwaway HOME.
import { existsSync, readFileSync, statSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { pollUntil } from "../shared/base/clock.js";
import { ctl, ctlSpawn, exitOf, sandbox, type Sandbox } from "./helpers/cli.js";

let box: Sandbox;

test.before(async () => {
  box = await sandbox();
});

test.after(async () => {
  await box.cleanup();
});

test("start prints the dashboard URL with its token and serves the demo state", async () => {
  const r = await ctl(box, ["start"]);
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stdout, /started \(pid \d+\), serving the bundled demo state/);
  const token = readFileSync(join(box.stateDir, "token"), "utf8").trim();
  assert.ok(token.length >= 32);
  assert.ok(r.stdout.includes(`Dashboard: http://127.0.0.1:${box.port}/?token=${token}`), r.stdout);
  assert.is(statSync(join(box.stateDir, "token")).mode & 0o777, 0o600);
  assert.is(statSync(join(box.runtimeDir, "control.sock")).mode & 0o777, 0o600);

  const res = await fetch(`http://127.0.0.1:${box.port}/health`);
  assert.is(res.status, 200);
  const body = (await res.json()) as Record<string, unknown>;
  assert.equal(Object.keys(body).sort(), ["demo", "gateway", "lookedAt", "providers", "status", "store", "uptimeSeconds", "version"]);
  assert.is(body.version, "0.1.0");
  assert.is(body.demo, true);
  assert.is(body.store, "ok");
  assert.is(body.gateway, "demo", "the demo's gateway is demo, never down");
  assert.ok(["starting", "ok", "degraded"].includes(String(body.status)), `no check fails in the demo: ${String(body.status)}`);
  // The demo serves its own gateway on loopback: once it has been probed, nothing warns either.
  await pollUntil(async () => ((await (await fetch(`http://127.0.0.1:${box.port}/health`)).json()) as { status: string }).status === "ok", { what: "the demo healthy in /health" });
});

test("url prints the sign-in link of the running daemon; status never shows the token", async () => {
  const token = readFileSync(join(box.stateDir, "token"), "utf8").trim();
  const r = await ctl(box, ["url"]);
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stdout.trim(), `http://127.0.0.1:${box.port}/?token=${encodeURIComponent(token)}`);
  const s = await ctl(box, ["status", "--json"]);
  assert.not.ok(s.stdout.includes(token));
});

test("status in text and JSON", async () => {
  // Once nothing is starting, /health and `status` state the one verdict (and the checks behind it).
  const verdict = await pollUntil(
    async () => {
      const b = (await (await fetch(`http://127.0.0.1:${box.port}/health`)).json()) as { status: string };
      return b.status === "starting" ? null : b.status;
    },
    { what: "the first probe, scan and disk reading", timeoutMs: 30_000 },
  );
  const text = await ctl(box, ["status"]);
  assert.is(text.code, 0);
  assert.match(text.stdout, /running \(pid \d+\)/);
  assert.match(text.stdout, /demo state/);
  assert.match(text.stdout, new RegExp(`^  health +${verdict}( \\(.+\\))?$`, "m"));
  // Every line under the first is a label, a space, then its value (claude-code is the longest label).
  for (const line of text.stdout.trimEnd().split("\n").slice(1)) assert.match(line, /^  [a-z-]+ +\S/, line);
  for (const p of ["openclaw", "claude-code", "codex"]) assert.match(text.stdout, new RegExp(`^  ${p} +ok, `, "m"), `a line for ${p}`);
  assert.not.match(text.stdout, /gateway checks:/, "no second verdict beside the first");
  const json = await ctl(box, ["status", "--json"]);
  assert.is(json.code, 0);
  const s = JSON.parse(json.stdout) as Record<string, unknown>;
  assert.is(s.running, true);
  assert.is(s.demo, true);
  assert.is(s.health, verdict);
  assert.is((s.gateway as { state: string }).state, "demo");
  assert.is(s.url, `http://127.0.0.1:${box.port}`);
  assert.is(typeof s.pid, "number");
  assert.is((s.store as { ok: boolean }).ok, true);
  assert.is((s.store as { schemaVersion: number }).schemaVersion >= 1, true);
  assert.not.ok(json.stdout.includes(readFileSync(join(box.stateDir, "token"), "utf8").trim()), "status must not print the token");
});

test("stop --force is refused (exit 2) and stops nothing; insightsd refuses unknown flags too", async () => {
  const r = await ctl(box, ["stop", "--force"]);
  assert.is(r.code, 2);
  assert.match(r.stderr, /^insightsctl: unknown flag --force for insightsctl stop/);
  assert.is((await ctl(box, ["status"])).code, 0, "the daemon still runs");
  const { DAEMON } = await import("./helpers/cli.js");
  const { execFile } = await import("node:child_process");
  const d = await new Promise<{ code: number; stderr: string }>((resolve) =>
    execFile(process.execPath, [DAEMON, "--prot", "1"], { env: box.env }, (err, _o, stderr) => resolve({ code: err ? Number(err.code) : 0, stderr })),
  );
  assert.is(d.code, 2);
  assert.match(d.stderr, /^insightsd: unknown flag --prot for insightsd \(did you mean --port\?\)/);
});

test("a closed stdout ends status quietly with exit 0 (no EPIPE stack trace)", async () => {
  const { spawn } = await import("node:child_process");
  const { CTL } = await import("./helpers/cli.js");
  const r = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [CTL, "status"], { env: box.env, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.destroy();
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code) => resolve({ code, stderr }));
  });
  assert.is(r.stderr, "");
  assert.is(r.code, 0);
});

test("a second start is refused", async () => {
  const r = await ctl(box, ["start"]);
  assert.is(r.code, 1);
  assert.match(r.stderr, /already running \(pid \d+\)/);
});

test("a second insightsd on the same state dir is refused", async () => {
  const { DAEMON } = await import("./helpers/cli.js");
  const { execFile } = await import("node:child_process");
  const r = await new Promise<{ code: number; stderr: string }>((resolve) =>
    execFile(process.execPath, [DAEMON, "--port", "1"], { env: box.env }, (err, _o, stderr) => resolve({ code: err ? Number(err.code) : 0, stderr })),
  );
  assert.is(r.code, 1);
  assert.match(r.stderr, /already running/);
});

test("logs -f receives a new line", async () => {
  const follower = ctlSpawn(box, ["logs", "-f", "-n", "0"]);
  try {
    // The follower is live once the daemon has it subscribed; make requests until one shows up.
    await pollUntil(
      async () => {
        await fetch(`http://127.0.0.1:${box.port}/no-such-page-for-logs-test`);
        return follower.output().includes("/no-such-page-for-logs-test");
      },
      { timeoutMs: 10_000, intervalMs: 100, what: "the follower to print the request line" },
    );
    assert.match(follower.output(), /INFO {2}\[http\] request .*status=404/);
  } finally {
    follower.child.kill("SIGINT");
  }
});

test("logs without -f reads the file, with --level and --json", async () => {
  const r = await ctl(box, ["logs", "-n", "200", "--json"]);
  assert.is(r.code, 0);
  const records = r.stdout.trim().split("\n").map((l) => JSON.parse(l) as { msg: string; level: string });
  assert.ok(records.some((x) => x.msg === "started"));
  const warn = await ctl(box, ["logs", "--level", "warn", "--json"]);
  for (const line of warn.stdout.trim().split("\n").filter(Boolean)) {
    assert.ok(["warn", "error", "fatal"].includes((JSON.parse(line) as { level: string }).level));
  }
  const bad = await ctl(box, ["logs", "--level", "loud"]);
  assert.is(bad.code, 2);
  assert.match(bad.stderr, /level/);
});

test("SIGHUP reloads the config from config.json", async () => {
  const s = JSON.parse((await ctl(box, ["status", "--json"])).stdout) as { pid: number };
  mkdirSync(join(box.dir, "config", "gateway-insights"), { recursive: true });
  writeFileSync(join(box.dir, "config", "gateway-insights", "config.json"), JSON.stringify({ logLevel: "debug", port: 1 }));
  process.kill(s.pid, "SIGHUP");
  await pollUntil(
    async () => (await ctl(box, ["logs", "-n", "20"])).stdout.includes("config reloaded"),
    { timeoutMs: 10_000, what: "the reload log line" },
  );
  const logs = (await ctl(box, ["logs", "-n", "20", "--json"])).stdout;
  const reload = logs.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>).find((r) => r.msg === "config reloaded");
  assert.equal(reload?.applied, ["logLevel"]);
  // env INSIGHTS_PORT beats the file, so port did not change
  assert.equal(reload?.needsRestart, []);
});

test("stop, then status exits 3", async () => {
  const r = await ctl(box, ["stop"]);
  assert.is(r.code, 0);
  assert.match(r.stdout, /stopped gateway-insights \(pid \d+\) via control socket/);
  assert.not.ok(existsSync(join(box.runtimeDir, "control.sock")));
  assert.not.ok(existsSync(join(box.runtimeDir, "daemon.pid")));
  const s = await ctl(box, ["status"]);
  assert.is(s.code, 3);
  assert.match(s.stdout, /not running/);
  const j = await ctl(box, ["status", "--json"]);
  assert.is(j.code, 3);
  assert.is((JSON.parse(j.stdout) as { running: boolean }).running, false);
  const url = await ctl(box, ["url"]);
  assert.is(url.code, 3);
  assert.match(url.stderr, /not running/);
  const again = await ctl(box, ["stop"]);
  assert.is(again.code, 0);
  assert.match(again.stdout, /not running/);
});

test("logs -f with no daemon shows the file and goes on following it", async () => {
  const follower = ctlSpawn(box, ["logs", "-f", "-n", "5"]);
  try {
    await pollUntil(() => /following/.test(follower.output()), { timeoutMs: 15_000, what: "the follower to say it follows the file" });
    assert.match(follower.output(), /not running; following/);
    assert.match(follower.output(), /stopped/);
  } finally {
    follower.child.kill("SIGINT");
  }
});

test("restart starts a new daemon", async () => {
  const a = await ctl(box, ["restart"]);
  assert.is(a.code, 0, a.stderr);
  const pid1 = (JSON.parse((await ctl(box, ["status", "--json"])).stdout) as { pid: number }).pid;
  const b = await ctl(box, ["restart"]);
  assert.is(b.code, 0, b.stderr);
  assert.match(b.stdout, /stopped gateway-insights/);
  const pid2 = (JSON.parse((await ctl(box, ["status", "--json"])).stdout) as { pid: number }).pid;
  assert.is.not(pid1, pid2);
});

test("start after kill -9 cleans the stale pid file and socket", async () => {
  const pid = (JSON.parse((await ctl(box, ["status", "--json"])).stdout) as { pid: number }).pid;
  process.kill(pid, "SIGKILL");
  await pollUntil(() => {
    try {
      process.kill(pid, 0);
      return false;
    } catch {
      return true;
    }
  }, { what: "the daemon to die" });
  assert.ok(existsSync(join(box.runtimeDir, "daemon.pid")), "kill -9 leaves the pid file");
  assert.ok(existsSync(join(box.runtimeDir, "control.sock")), "kill -9 leaves the socket");
  assert.is((await ctl(box, ["status"])).code, 3);
  const r = await ctl(box, ["start"]);
  assert.is(r.code, 0, r.stderr);
  const logs = (await ctl(box, ["logs", "-n", "30"])).stdout;
  assert.match(logs, /removed a stale pid file/);
  assert.match(logs, /removed a stale control socket/);
  assert.is((await ctl(box, ["status"])).code, 0);
});

test("stop escalates to SIGTERM when the control socket is gone", async () => {
  const { rmSync } = await import("node:fs");
  // Without its socket file the daemon can only be reached by signal.
  rmSync(join(box.runtimeDir, "control.sock"));
  const r = await ctl(box, ["stop"]);
  assert.is(r.code, 0);
  assert.match(r.stdout, /via SIGTERM/);
});

test("config errors: bad port flag and bad env value give a clear message and exit 2", async () => {
  const flag = await ctl(box, ["start", "--port", "70000"]);
  assert.is(flag.code, 2);
  assert.match(flag.stderr, /invalid config port = "70000" \(from flag --port\): expected an integer from 1 to 65535/);
  const env = await ctl(box, ["start"], { INSIGHTS_SAMPLE_INTERVAL_SECONDS: "often" });
  assert.is(env.code, 2);
  assert.match(env.stderr, /sampleIntervalSeconds = "often" \(from env INSIGHTS_SAMPLE_INTERVAL_SECONDS\)/);
  const token = await ctl(box, ["start"], { INSIGHTS_TOKEN: "short" });
  assert.is(token.code, 2);
  assert.match(token.stderr, /token = "<5 characters>" .*at least 32 characters/);
  assert.not.ok(token.stderr.includes("short"));
  const dir = await ctl(box, ["start", "--openclaw-dir", "/nonexistent"]);
  assert.is(dir.code, 2);
  assert.match(dir.stderr, /^insightsctl: invalid config openclawDir = "\/nonexistent" \(from flag --openclaw-dir\): expected an existing OpenClaw state directory \(it does not exist\)\n/);
  const dirEnv = await ctl(box, ["start"], { INSIGHTS_OPENCLAW_DIR: join(box.dir, "no-such-state") });
  assert.is(dirEnv.code, 2);
  assert.match(dirEnv.stderr, /openclawDir = .*no-such-state" \(from env INSIGHTS_OPENCLAW_DIR\)/);
  mkdirSync(join(box.dir, "config", "gateway-insights"), { recursive: true });
  const configFile = join(box.dir, "config", "gateway-insights", "config.json");
  const before = readFileSync(configFile, "utf8");
  writeFileSync(configFile, JSON.stringify({ openclawDir: join(box.dir, "typo") }));
  const dirFile = await ctl(box, ["restart"]);
  writeFileSync(configFile, before);
  assert.is(dirFile.code, 2);
  assert.match(dirFile.stderr, /openclawDir = .*typo" \(from .*config\.json\)/);
  const noAuthRemote = await ctl(box, ["start", "--no-auth", "--host", "0.0.0.0"]);
  assert.is(noAuthRemote.code, 2);
  assert.match(noAuthRemote.stderr, /loopback/);
  assert.is((await ctl(box, ["status"])).code, 3, "nothing was started");
});

test("a port already in use is a clear start failure", async () => {
  const { createServer } = await import("node:net");
  const blocker = createServer();
  await new Promise<void>((r) => blocker.listen(box.port, "127.0.0.1", () => r()));
  try {
    const r = await ctl(box, ["start"]);
    assert.is(r.code, 1);
    // The daemon's reason in one line and what to do: not the JSON log lines it wrote while starting.
    const lines = r.stderr.trimEnd().split("\n");
    assert.match(lines[0] ?? "", new RegExp(`^insightsctl: 127.0.0.1:${box.port} is already in use; stop what listens there or choose another port`));
    assert.is(lines.length, 2, r.stderr);
    assert.not.match(r.stderr, /\{"time"/);
    assert.is((await ctl(box, ["status"])).code, 3);
  } finally {
    blocker.close();
  }
});

test("start --foreground prints the sign-in link; stop ends it with exit 0", async () => {
  const fg = ctlSpawn(box, ["start", "--foreground"]);
  try {
    await pollUntil(() => /Dashboard: http/.test(fg.output()), { timeoutMs: 30_000, what: "the sign-in link" });
    const token = readFileSync(join(box.stateDir, "token"), "utf8").trim();
    assert.ok(fg.output().includes(`Dashboard: http://127.0.0.1:${box.port}/?token=${token}`), fg.output());
    const stop = await ctl(box, ["stop"]);
    assert.is(stop.code, 0, stop.stderr);
    assert.is(await exitOf(fg.child), 0);
  } finally {
    fg.child.kill("SIGKILL");
  }
});

test("start --foreground with its output closed stops cleanly instead of spinning on EPIPE", async () => {
  const { spawn } = await import("node:child_process");
  const { CTL } = await import("./helpers/cli.js");
  const child = spawn(process.execPath, [CTL, "start", "--foreground"], { env: box.env, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout.destroy();
  child.stderr.destroy();
  try {
    assert.is(await exitOf(child), 0);
    // Sources still finishing their first scan may log after "stopping" (the demo has three): look further back than the last few lines.
    const logs = (await ctl(box, ["logs", "-n", "40", "--json"])).stdout;
    assert.match(logs, /"msg":"stopping","reason":"SIGTERM"/);
    assert.not.match(logs, /uncaught exception/);
    assert.is((await ctl(box, ["status"])).code, 3);
  } finally {
    child.kill("SIGKILL");
  }
});

test.run();
