// Runs a real daemon in this process over a copy of a fixture state dir, on a free loopback port,
// with its own HOME/XDG dirs; plus small HTTP and GraphQL helpers for the tests that talk to it.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import type { IncomingMessage } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { shiftedClock, systemClock, type Clock } from "../../shared/base/clock.js";
import { resolvePaths, type Paths } from "../../shared/base/paths.js";
import { copyFixture, SQLITE_FIXTURE } from "./openclaw-fixtures.js";
import { fail, SourceError } from "../../shared/providers/result.js";
import { Daemon, type DaemonOptions } from "../../daemon/daemon.js";
import { freePort } from "./cli.js";

import { FIXTURE_NOW } from "./fixture-expectations.js";

export { FIXTURE_NOW };

export interface TestDaemon {
  daemon: Daemon;
  url: string;
  token: string;
  /** The fixture copy the daemon reads (write into it to make new data). */
  openclawDir: string;
  /** The HOME/XDG tree of this daemon. */
  root: string;
  paths: Paths;
  env: Record<string, string>;
  /** Stops the daemon; removes its HOME/XDG dirs unless `keep` (to start another daemon on them with `again`). */
  stop(opts?: { keep?: boolean }): Promise<void>;
}

export interface StartOptions {
  fixture?: string;
  /** Read this state dir as it is (a live gateway's) instead of a fixture copy; the gateway is probed for real. */
  openclawDir?: string;
  /** INSIGHTS_* and other env for the daemon's config. */
  env?: Record<string, string>;
  clock?: Clock;
  peerOf?: (req: IncomingMessage) => string | undefined;
  /** Passed through (probe seams, paces). */
  daemon?: Partial<DaemonOptions>;
  /** Start on the dirs, store and state dir of a daemon stopped with `stop({ keep: true })`. */
  again?: TestDaemon;
  /** Listen on this port (a restart that a scraper must find at the same address); default a free one. */
  port?: number;
}

export async function startDaemon(o: StartOptions = {}): Promise<TestDaemon> {
  const root = o.again ? o.again.root : mkdtempSync(join(tmpdir(), "gi-d-"));
  const openclawDir = o.again?.openclawDir ?? o.openclawDir ?? copyFixture(o.fixture ?? SQLITE_FIXTURE);
  const stubbed = o.openclawDir === undefined;
  const port = o.port ?? (await freePort());
  const env: Record<string, string> = o.again ? { ...o.again.env, INSIGHTS_PORT: String(port) } : {
    HOME: join(root, "home"),
    XDG_CONFIG_HOME: join(root, "config"),
    XDG_STATE_HOME: join(root, "state"),
    XDG_RUNTIME_DIR: join(root, "run"),
    INSIGHTS_PORT: String(port),
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    ...o.env,
  };
  const paths = resolvePaths(env);
  const daemon = await Daemon.start({
    paths,
    env,
    flags: { openclawDir },
    clock: o.clock ?? (stubbed ? shiftedClock(systemClock, FIXTURE_NOW) : systemClock),
    console: "off",
    // No gateway runs beside the fixtures: the probe says so at once.
    ...(stubbed ? { probeHttp: async () => fail(new SourceError("unreachable", "connect ECONNREFUSED (no gateway in this test)")), channels: false } : {}),
    updates: false,
    scanMs: 100,
    logMs: 100,
    cronMs: 200,
    ...(o.peerOf ? { peerOf: o.peerOf } : {}),
    ...o.daemon,
  });
  return {
    daemon,
    url: `http://127.0.0.1:${daemon.address.port}`,
    token: env.INSIGHTS_TOKEN ?? readFileSync(paths.tokenFile, "utf8").trim(),
    openclawDir,
    paths,
    env,
    root,
    stop: async ({ keep = false } = {}) => {
      await daemon.stop("test done");
      if (!keep) rmSync(root, { recursive: true, force: true });
    },
  };
}

export interface GqlResult<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: { data?: T | null; errors?: Array<{ message: string; extensions?: Record<string, unknown>; path?: unknown[] }> };
}

/** POSTs one GraphQL operation with the daemon's bearer token (or the given headers). */
export async function gql<T = Record<string, unknown>>(d: Pick<TestDaemon, "url" | "token">, query: string, variables?: Record<string, unknown>, headers?: Record<string, string>): Promise<GqlResult<T>> {
  const res = await fetch(`${d.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${d.token}`, ...headers },
    body: JSON.stringify({ query, variables }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: JSON.parse(text) as GqlResult<T>["body"] };
}

/** The data of a query that must succeed. */
export async function gqlData<T = Record<string, unknown>>(d: Pick<TestDaemon, "url" | "token">, query: string, variables?: Record<string, unknown>): Promise<T> {
  const r = await gql<T>(d, query, variables);
  if (r.status !== 200 || r.body.errors?.length || !r.body.data) throw new Error(`GraphQL failed (${r.status}): ${JSON.stringify(r.body)}`);
  return r.body.data;
}
