// Subscriptions and mutations through the official clients against a real daemon: graphql-sse
// (distinct connections) sees dataChanged after a transcript line is appended on disk,
// graphql-ws sees new gateway log lines and authenticates by header or by connectionParams, and
// the gateway mutations run a fake `openclaw`.
import { appendFileSync, chmodSync, existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createClient as createSseClient } from "graphql-sse";
import { createClient as createWsClient } from "graphql-ws";
import { test } from "uvu";
import * as assert from "uvu/assert";
import WebSocket from "ws";
import { pollUntil } from "../shared/base/clock.js";
import { FILES_FIXTURE, makeTempDir, removeTempDirs, SQLITE_FIXTURE } from "./helpers/openclaw-fixtures.js";
import { gql, gqlData, startDaemon, type TestDaemon } from "./helpers/daemon.js";

test.after(removeTempDirs);

/** Collects what a subscription delivers until disposed. */
function collect<T>(): { items: T[]; sink: { next: (v: { data?: T | null }) => void; error: (e: unknown) => void; complete: () => void }; errors: unknown[] } {
  const items: T[] = [];
  const errors: unknown[] = [];
  return { items, errors, sink: { next: (v) => v.data && items.push(v.data), error: (e) => errors.push(e), complete: () => undefined } };
}

function appendTurn(dir: string, text: string): { sessionId: string } {
  const sessions = join(dir, "agents", "main", "sessions");
  const file = readdirSync(sessions).find((n) => /^[0-9a-f-]{36}\.jsonl$/.test(n)) as string;
  const ts = new Date(Date.parse("2026-11-21T23:19:00.000Z")).toISOString();
  const user = { type: "message", id: "aaaa0001", parentId: null, timestamp: ts, message: { role: "user", content: text, timestamp: Date.parse(ts) } };
  const assistant = {
    type: "message",
    id: "aaaa0002",
    parentId: "aaaa0001",
    timestamp: ts,
    message: { role: "assistant", content: [{ type: "text", text: "ok" }], provider: "fakellm", model: "fake-model", usage: { input: 1000, output: 100, cacheRead: 0, cacheWrite: 0, totalTokens: 1100, cost: { total: 0.0045 } }, stopReason: "stop", timestamp: Date.parse(ts) },
  };
  appendFileSync(join(sessions, file), JSON.stringify(user) + "\n" + JSON.stringify(assistant) + "\n");
  return { sessionId: file.slice(0, -6) };
}

const lifetime = async (d: TestDaemon): Promise<{ totalTokens: number; totalUserMessages: number; isReady: boolean }> =>
  (await gqlData<{ source: { lifetimeStats: { totalTokens: number; totalUserMessages: number; isReady: boolean } } }>(d, `{ source(selector: { id: "agent:main" }) { ... on AgentNamespace { lifetimeStats { totalTokens totalUserMessages isReady } } } }`)).source.lifetimeStats;

// Distinct connections only: the single-connection mode is not served (test/graphql-limits.test.ts).
test("graphql-sse (distinct connections mode): dataChanged after a transcript event is appended", async () => {
  const d = await startDaemon({ fixture: FILES_FIXTURE });
  const client = createSseClient({ url: `${d.url}/graphql`, headers: { authorization: `Bearer ${d.token}` }, retryAttempts: 0 });
  try {
    const before = await pollUntil(async () => {
      const l = await lifetime(d);
      return l.isReady ? l : null;
    }, { what: "first scan" });
    const got = collect<{ dataChanged: { source: string; ts: number } }>();
    const dispose = client.subscribe({ query: "subscription { dataChanged { source ts } }" }, got.sink);
    // The subscription is live once the stream is open; a change made before may be missed, so keep appending until one arrives.
    await pollUntil(
      () => {
        if (got.items.some((i) => i.dataChanged.source === "agent:main")) return true;
        appendTurn(d.openclawDir, "another turn");
        return false;
      },
      { what: "dataChanged for agent:main", intervalMs: 300, timeoutMs: 15_000 },
    );
    dispose();
    const change = got.items.find((i) => i.dataChanged.source === "agent:main");
    assert.ok(change && typeof change.dataChanged.ts === "number");
    const after = await pollUntil(async () => {
      const l = await lifetime(d);
      return l.totalUserMessages > before.totalUserMessages ? l : null;
    }, { what: "new totals" });
    const turns = after.totalUserMessages - before.totalUserMessages;
    assert.is(after.totalTokens - before.totalTokens, turns * 1100, "exactly the appended usage, counted once");
    assert.equal(got.errors, []);
  } finally {
    client.dispose();
    await d.stop();
  }
});

test("graphql-ws: logs streams new gateway log lines, filtered by level and module", async () => {
  const d = await startDaemon({ fixture: SQLITE_FIXTURE });
  const AuthedWebSocket = class extends WebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols, { headers: { authorization: `Bearer ${d.token}` } });
    }
  };
  const client = createWsClient({ url: `${d.url.replace("http", "ws")}/graphql`, webSocketImpl: AuthedWebSocket, retryAttempts: 0, lazy: false });
  try {
    const warnings = collect<{ logs: { level: string; module: string; message: string; time: string } }>();
    const everything = collect<{ logs: { level: string; module: string; message: string } }>();
    const d1 = client.subscribe({ query: `subscription { logs(filter: { level: WARN, module: "diagnostic" }) { level module message time } }` }, warnings.sink);
    const d2 = client.subscribe({ query: `subscription { logs(filter: { level: DEBUG }) { level module message } }` }, everything.sink);
    const logFile = join(d.openclawDir, "logs", "openclaw-2026-11-21.log");
    const line = (level: string, subsystem: string, message: string, i: number): string =>
      JSON.stringify({ "0": JSON.stringify({ subsystem }), "1": message, _meta: { logLevelName: level, date: `2026-11-21T23:19:${String(i % 60).padStart(2, "0")}.000Z` }, time: `2026-11-21T23:19:${String(i % 60).padStart(2, "0")}.000+00:00`, message }) + "\n";
    let i = 0;
    await pollUntil(
      () => {
        if (warnings.items.length) return true;
        i++;
        appendFileSync(logFile, line("WARN", "diagnostic", `disk getting full ${i}`, i) + line("INFO", "gateway/ws", `hello ${i}`, i) + line("WARN", "gateway/ws", `slow ${i}`, i));
        return false;
      },
      { what: "a WARN diagnostic line", intervalMs: 300, timeoutMs: 15_000 },
    );
    await pollUntil(() => everything.items.some((x) => x.logs.message.startsWith("hello")), { what: "the INFO line on the DEBUG subscription" });
    d1();
    d2();
    assert.ok(warnings.items.every((x) => x.logs.level === "WARN" && x.logs.module === "diagnostic"), "the filter holds");
    assert.match(warnings.items[0]?.logs.message ?? "", /^disk getting full/);
    assert.ok(everything.items.some((x) => x.logs.module === "gateway/ws" && x.logs.level === "WARN"));
  } finally {
    await client.dispose();
    await d.stop();
  }
});

test("a WebSocket upgrade without credentials (and not asking for graphql-transport-ws) is refused with 401", async () => {
  const d = await startDaemon({ fixture: SQLITE_FIXTURE });
  try {
    const status = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`${d.url.replace("http", "ws")}/graphql`);
      ws.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
      ws.on("open", () => resolve(101));
      ws.on("error", () => undefined);
    });
    assert.is(status, 401);
  } finally {
    await d.stop();
  }
});

/** A graphql-ws client with no headers at all (as a browser's WebSocket), authenticating through connectionParams. */
function paramsClient(d: TestDaemon, connectionParams: Record<string, unknown> | undefined, closes: number[]) {
  return createWsClient({
    url: `${d.url.replace("http", "ws")}/graphql`,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    lazy: false,
    ...(connectionParams ? { connectionParams } : {}),
    on: { closed: (e) => void closes.push((e as { code: number }).code) },
    // The closes are what these tests look at; the default prints each one.
    onNonLazyError: () => undefined,
  });
}

test("graphql-ws: the token in connectionParams ({authorization: 'Bearer …'}) authenticates a subscription", async () => {
  const d = await startDaemon({ fixture: FILES_FIXTURE });
  const closes: number[] = [];
  const client = paramsClient(d, { authorization: `Bearer ${d.token}` }, closes);
  try {
    const got = collect<{ sources: Array<{ id: string }> }>();
    client.subscribe({ query: "{ sources { id } }" }, got.sink);
    await pollUntil(() => got.items.length > 0 || got.errors.length > 0, { what: "the query result over the WebSocket" });
    assert.equal(got.errors, []);
    assert.equal(got.items[0]?.sources.map((s) => s.id), ["agent:main", "dashboard:self"]);
    const changes = collect<{ dataChanged: { source: string } }>();
    client.subscribe({ query: "subscription { dataChanged { source ts } }" }, changes.sink);
    await pollUntil(
      () => {
        if (changes.items.length) return true;
        appendTurn(d.openclawDir, "a turn while subscribed");
        return false;
      },
      { what: "dataChanged over a connectionParams-authenticated socket", intervalMs: 300, timeoutMs: 15_000 },
    );
    assert.equal(changes.errors, []);
    assert.equal(closes, [], "the socket stays open");
  } finally {
    await client.dispose();
    await d.stop();
  }
});

test("graphql-ws: a wrong or missing token in connectionParams closes with 4403 and wrong ones count as failed attempts", async () => {
  const d = await startDaemon({ fixture: SQLITE_FIXTURE });
  try {
    const attempt = async (params: Record<string, unknown> | undefined): Promise<{ closes: number[]; errors: unknown[] }> => {
      const closes: number[] = [];
      const client = paramsClient(d, params, closes);
      const got = collect<unknown>();
      client.subscribe({ query: "{ sources { id } }" }, got.sink);
      await pollUntil(() => closes.length > 0, { what: "the socket to close" });
      await client.dispose();
      assert.equal(got.items, [], "nothing is served");
      return { closes, errors: got.errors };
    };
    assert.equal((await attempt(undefined)).closes, [4403], "no connectionParams");
    assert.equal((await attempt({ authorization: "Bearer " })).closes, [4403], "an empty bearer token");
    for (let i = 0; i < 10; i++) assert.equal((await attempt({ authorization: `Bearer wrong-${i}-0123456789012345678901234567` })).closes, [4403]);
    // Ten wrong tokens: the peer is now blocked for wrong credentials on every interface.
    const res = await fetch(`${d.url}/graphql`, { method: "POST", headers: { "content-type": "application/json", authorization: "Bearer wrong-again-0123456789012345678901234567" }, body: JSON.stringify({ query: "{ sources { id } }" }) });
    assert.is(res.status, 429);
    const closes: number[] = [];
    const good = paramsClient(d, { Authorization: `Bearer ${d.token}` }, closes);
    const got = collect<{ sources: unknown[] }>();
    good.subscribe({ query: "{ sources { id } }" }, got.sink);
    await pollUntil(() => got.items.length > 0, { what: "the right token to pass during the block" });
    await good.dispose();
  } finally {
    await d.stop();
  }
});

test("restartGateway and updateGateway run openclaw, return its output, and refuse a second operation", async () => {
  const bin = makeTempDir();
  const gate = join(bin, "gate");
  const fake = join(bin, "openclaw");
  // The fake prints its arguments, then waits until the test opens the gate.
  writeFileSync(fake, `#!/bin/sh\necho "fake openclaw $*"\necho "state dir: $OPENCLAW_STATE_DIR" >&2\nwhile [ ! -f "${gate}" ]; do sleep 0.02; done\n[ "$1" = "update" ] && exit 3\nexit 0\n`);
  chmodSync(fake, 0o755);
  const d = await startDaemon({ fixture: SQLITE_FIXTURE, env: { INSIGHTS_OPENCLAW_COMMAND: fake } });
  try {
    const first = gql<{ restartGateway: { ok: boolean; message: string; output: string; durationMs: number } }>(d, `mutation { restartGateway { ok message output durationMs } }`);
    // Wait until the first one is really running (its output exists only in the child, so ask the API).
    await pollUntil(async () => {
      const second = await gql(d, `mutation { updateGateway { ok } }`);
      return second.body.errors?.[0]?.extensions?.code === "OPERATION_IN_PROGRESS";
    }, { what: "OPERATION_IN_PROGRESS for the second operation" });
    writeFileSync(gate, "");
    const r = (await first).body.data?.restartGateway;
    assert.ok(r);
    assert.is(r.ok, true);
    assert.match(r.output, /fake openclaw gateway restart/);
    assert.match(r.output, new RegExp(`state dir: ${d.openclawDir}`));
    assert.ok(r.durationMs >= 0);
    const update = await gqlData<{ updateGateway: { ok: boolean; message: string; output: string } }>(d, `mutation { updateGateway { ok message output } }`);
    assert.is(update.updateGateway.ok, false);
    assert.match(update.updateGateway.message, /exited with code 3/);
    assert.match(update.updateGateway.output, /fake openclaw update --yes/);
  } finally {
    if (!existsSync(gate)) writeFileSync(gate, "");
    await d.stop();
  }
});

test.run();
