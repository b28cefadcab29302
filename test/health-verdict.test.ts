// One health verdict for one state: GET /health, the control socket's `status` (what `insightsctl
// status` prints) and GraphQL `system.health` / `system.gateway.state` must say the same thing,
// whatever the gateway does: down, up, or the demo's.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Daemon } from "../daemon/daemon.js";
import { pollUntil, shiftedClock, systemClock } from "../shared/base/clock.js";
import { resolvePaths } from "../shared/base/paths.js";
import { fail, ok, SourceError } from "../shared/providers/result.js";
import { freePort } from "./helpers/cli.js";
import { FIXTURE_NOW, gqlData, startDaemon, type TestDaemon } from "./helpers/daemon.js";

interface Seen {
  health: { status: string; gateway: string; store: string; demo: boolean };
  gql: { status: string; verdict: string; checks: Array<{ name: string; status: string }>; gateway: string };
  control: { health: string; healthLevel: string; gateway: { state: string }; healthReasons: Array<{ name: string; status: string }> };
}

const SYSTEM = `{ system { health { status verdict checks { name status } } ... on ProviderASystem { gateway { state } } } }`;

/** Waits until nothing is starting any more, then reads all three interfaces. */
async function settle(d: Pick<TestDaemon, "url" | "token" | "daemon">): Promise<Seen> {
  const health = await pollUntil(
    async () => {
      const body = (await (await fetch(`${d.url}/health`)).json()) as Seen["health"];
      return body.status === "starting" ? null : body;
    },
    { what: "the first probe, scan and disk reading", timeoutMs: 30_000 },
  );
  const g = await gqlData<{ system: { health: { status: string; verdict: string; checks: Array<{ name: string; status: string }> }; gateway: { state: string } } }>(d, SYSTEM);
  const control = d.daemon.status() as unknown as Seen["control"];
  return { health, gql: { ...g.system.health, gateway: g.system.gateway.state }, control };
}

function assertOneVerdict(s: Seen): void {
  assert.is(s.health.status, s.gql.verdict.toLowerCase(), "/health status is GraphQL's verdict");
  assert.is(s.control.health, s.health.status, "insightsctl status says the same");
  assert.is(s.control.healthLevel, s.gql.status);
  assert.is(s.health.gateway, s.gql.gateway.toLowerCase(), "/health gateway is GraphQL's gateway state");
  assert.is(s.control.gateway.state, s.health.gateway);
  assert.equal(
    s.control.healthReasons.map((c) => `${c.name}:${c.status}`).sort(),
    s.gql.checks.filter((c) => c.status !== "PASS").map((c) => `${c.name}:${c.status}`).sort(),
    "the reasons insightsctl prints are the checks GraphQL lists as not passing",
  );
}

test("gateway down: unhealthy everywhere, the gateway is down everywhere", async () => {
  const d = await startDaemon();
  try {
    const s = await settle(d);
    assertOneVerdict(s);
    assert.is(s.health.status, "unhealthy");
    assert.is(s.gql.status, "UNHEALTHY");
    assert.is(s.health.gateway, "down");
    assert.is(s.control.healthReasons[0]?.name, "gateway");
    assert.is(s.control.healthReasons[0]?.status, "FAIL");
  } finally {
    await d.stop();
  }
});

test("gateway up and every check passing: ok / HEALTHY / up everywhere", async () => {
  const d = await startDaemon({
    daemon: {
      probeHttp: async () =>
        ok({
          live: { live: true, status: "live", httpStatus: 200, roundTripMs: 3 },
          ready: { ready: true, failing: [], uptimeMs: 60_000, eventLoop: { degraded: false, delayP99Ms: 20, utilization: 0.01, reasons: [] }, httpStatus: 200, roundTripMs: 3 },
          readyError: null,
        }),
    },
  });
  try {
    const s = await settle(d);
    assertOneVerdict(s);
    assert.equal(s.gql.checks.filter((c) => c.status !== "PASS"), [], "every check passes");
    assert.is(s.health.status, "ok");
    assert.is(s.gql.verdict, "OK");
    assert.is(s.health.gateway, "up");
  } finally {
    await d.stop();
  }
});

test("demo mode with no demo gateway answering: the gateway is demo (never down) and the verdict is the same everywhere", async () => {
  const root = mkdtempSync(join(tmpdir(), "gi-demo-"));
  const env: Record<string, string> = {
    HOME: join(root, "home"),
    XDG_CONFIG_HOME: join(root, "config"),
    XDG_STATE_HOME: join(root, "state"),
    XDG_RUNTIME_DIR: join(root, "run"),
    INSIGHTS_PORT: String(await freePort()),
    PATH: process.env.PATH ?? "/usr/bin:/bin",
  };
  const daemon = await Daemon.start({
    paths: resolvePaths(env),
    env,
    flags: {},
    clock: shiftedClock(systemClock, FIXTURE_NOW),
    console: "off",
    probeHttp: async () => fail(new SourceError("unreachable", "no demo gateway in this test")),
    channels: false,
    updates: false,
    scanMs: 100,
    logMs: 100,
  });
  try {
    assert.is(daemon.status().demo, true, "no OpenClaw state dir: the bundled demo");
    const { readFileSync } = await import("node:fs");
    const token = readFileSync(resolvePaths(env).tokenFile, "utf8").trim();
    const s = await settle({ daemon, url: `http://127.0.0.1:${daemon.address.port}`, token });
    assertOneVerdict(s);
    assert.is(s.health.demo, true);
    assert.is(s.health.gateway, "demo");
    assert.is(s.gql.gateway, "DEMO");
    assert.is(s.gql.checks.find((c) => c.name === "gateway")?.status, "WARN", "a demo without a gateway is not an outage");
    assert.not.ok(s.gql.checks.some((c) => c.status === "FAIL"));
    assert.is(s.health.status, "degraded");
  } finally {
    await daemon.stop("test done");
    rmSync(root, { recursive: true, force: true });
  }
});

test.run();
