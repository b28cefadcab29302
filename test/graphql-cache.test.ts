// What the daemon keeps between changes (the read model's answers, the subscription transports'
// parsed documents), seen from a client of a real daemon:
// - a client that gets `dataChanged` and asks at once sees the change: answers kept from before
//   are dropped before the signal goes out;
// - an operation sent again over SSE or WebSocket is validated with the daemon's limits each time.
import { appendFileSync, readFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { createClient as createSseClient } from "graphql-sse";
import { createClient as createWsClient } from "graphql-ws";
import { test } from "uvu";
import * as assert from "uvu/assert";
import WebSocket from "ws";
import { pollUntil } from "../shared/base/clock.js";
import { FILES_FIXTURE, removeTempDirs } from "./helpers/openclaw-fixtures.js";
import { gqlData, startDaemon, type TestDaemon } from "./helpers/daemon.js";

test.after(removeTempDirs);

const KEY = "agent:main:main";
let turns = 0;

/** One user + assistant turn of 1,000 input and 100 output tokens appended to `agent:main:main`'s transcript. */
function appendTurn(dir: string): void {
  const sessions = join(dir, "agents", "main", "sessions");
  const index = JSON.parse(readFileSync(join(sessions, "sessions.json"), "utf8")) as Record<string, { sessionId: string }>;
  const id = index[KEY]?.sessionId as string;
  turns++;
  const ts = "2026-11-21T23:19:00.000Z";
  const user = { type: "message", id: `gc-u${turns}`, parentId: null, timestamp: ts, message: { role: "user", content: `turn ${turns}` } };
  const assistant = {
    type: "message",
    id: `gc-a${turns}`,
    parentId: `gc-u${turns}`,
    timestamp: ts,
    message: { role: "assistant", content: [{ type: "text", text: "ok" }], provider: "fakellm", model: "fake-model", usage: { input: 1000, output: 100, cacheRead: 0, cacheWrite: 0, totalTokens: 1100, cost: { total: 0 } } },
  };
  appendFileSync(join(sessions, `${id}.jsonl`), `${JSON.stringify(user)}\n${JSON.stringify(assistant)}\n`);
}

interface Figures {
  session: number;
  buckets: number;
  lifetime: number;
  users: number;
  days: number;
}

/** What a dashboard asks (the benchmark's query and the overview's), reduced to the figures the turn moves. */
async function figures(d: TestDaemon): Promise<Figures> {
  const r = await gqlData<{
    source: { sessions: Array<{ key: string; totalTokens: number }>; metrics: { buckets: Array<{ tokens: number }> }; lifetimeStats: { totalTokens: number; totalUserMessages: number }; usageCost: { byDay: Array<{ totalTokens: number }> } };
  }>(
    d,
    `{ source(selector: { id: "agent:main" }) { ... on AgentNamespace {
        sessions { key totalTokens } metrics(range: TWENTY_FOUR_HOUR) { buckets { tokens } }
        lifetimeStats { totalTokens totalUserMessages } usageCost { byDay { totalTokens } } } } }`,
  );
  const s = r.source;
  return {
    session: s.sessions.find((x) => x.key === KEY)?.totalTokens ?? -1,
    buckets: s.metrics.buckets.reduce((a, b) => a + b.tokens, 0),
    lifetime: s.lifetimeStats.totalTokens,
    users: s.lifetimeStats.totalUserMessages,
    days: s.usageCost.byDay.reduce((a, b) => a + b.totalTokens, 0),
  };
}

const plus = (f: Figures, n: number): Figures => ({ session: f.session + 1100 * n, buckets: f.buckets + 1100 * n, lifetime: f.lifetime + 1100 * n, users: f.users + n, days: f.days + 1100 * n });

test("a client that gets dataChanged and asks at once sees the change", async () => {
  const d = await startDaemon({ fixture: FILES_FIXTURE });
  const client = createSseClient({ url: `${d.url}/graphql`, headers: { authorization: `Bearer ${d.token}` }, retryAttempts: 0 });
  const signals: string[] = [];
  try {
    const start = await pollUntil(async () => ((await gqlData<{ source: { lifetimeStats: { isReady: boolean } } }>(d, `{ source(selector: { id: "agent:main" }) { ... on AgentNamespace { lifetimeStats { isReady } } } }`)).source.lifetimeStats.isReady ? figures(d) : null), {
      what: "the first scan",
    });
    const dispose = client.subscribe<{ dataChanged: { source: string } }>(
      { query: "subscription { dataChanged { source } }" },
      { next: (v) => v.data && signals.push(v.data.dataChanged.source), error: () => undefined, complete: () => undefined },
    );
    // The subscription is live once a change reaches it: append until one does, then until every
    // appended turn is counted.
    await pollUntil(
      () => {
        if (signals.includes("agent:main")) return true;
        appendTurn(d.openclawDir);
        return false;
      },
      { what: "a first dataChanged for agent:main", intervalMs: 300, timeoutMs: 15_000 },
    );
    const settled = await pollUntil(async () => {
      const f = await figures(d);
      return f.users === start.users + turns ? f : null;
    }, { what: "every appended turn counted" });
    assert.equal(settled, plus(start, turns));
    // Asked twice: the daemon now holds these answers.
    assert.equal(await figures(d), settled);

    appendTurn(d.openclawDir);
    // Each signal for agent:main from here on is answered by one query, sent as soon as it
    // arrives. A signal coalesced from the earlier turns may come first; the one for this turn
    // must show it (no other change follows to hide a late one).
    const mainSignals = (): number => signals.filter((s) => s === "agent:main").length;
    let seen = mainSignals();
    const after = await pollUntil(
      async () => {
        if (mainSignals() === seen) return null;
        seen = mainSignals();
        const f = await figures(d);
        return f.users === settled.users + 1 ? f : null;
      },
      { what: "a dataChanged whose immediate answer has the new turn", intervalMs: 5, timeoutMs: 15_000 },
    );
    assert.equal(after, plus(settled, 1));
    dispose();
  } finally {
    client.dispose();
    await d.stop();
  }
});

/** The error message of one SSE operation (the stream's first `next` event), or null when it had none. */
function sseFirstError(d: TestDaemon, query: string): Promise<string | null> {
  const u = new URL(d.url);
  const body = JSON.stringify({ query });
  return new Promise((resolve, reject) => {
    const req = request(
      { host: u.hostname, port: u.port, path: "/graphql", method: "POST", headers: { authorization: `Bearer ${d.token}`, "content-type": "application/json", accept: "text/event-stream", "content-length": Buffer.byteLength(body) } },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => {
          text += c;
          const data = /event: next\ndata: (.*)\n\n/.exec(text)?.[1];
          if (!data) return;
          const parsed = JSON.parse(data) as { errors?: Array<{ message: string }> };
          resolve(parsed.errors?.[0]?.message ?? null);
          req.destroy();
        });
        res.on("end", () => resolve(null));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

test("an operation sent again over SSE or WebSocket is validated with the limits each time", async () => {
  const d = await startDaemon({ fixture: FILES_FIXTURE });
  const AuthedWebSocket = class extends WebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols, { headers: { authorization: `Bearer ${d.token}` } });
    }
  };
  const ws = createWsClient({ url: `${d.url.replace("http", "ws")}/graphql`, webSocketImpl: AuthedWebSocket, retryAttempts: 0 });
  try {
    const nest = (n: number): string => (n === 0 ? "key" : `subAgents { ${nest(n - 1)} }`);
    // source > sessions > key is 3 levels; each subAgents adds one.
    const deep = `{ source(selector: { id: "agent:main" }) { ... on AgentNamespace { sessions { ${nest(10)} } } } }`;
    const fine = `{ source(selector: { id: "agent:main" }) { ... on AgentNamespace { sessions { ${nest(9)} } } } }`;
    for (let round = 1; round <= 2; round++) {
      assert.match((await sseFirstError(d, deep)) ?? "", /13 levels deep; at most 12/, `SSE, round ${round}`);
      assert.is(await sseFirstError(d, fine), null, `SSE, a query within the limits, round ${round}`);
      const wsErrors = await new Promise<unknown>((resolve) => {
        ws.subscribe({ query: deep }, { next: () => undefined, error: resolve, complete: () => resolve(null) });
      });
      assert.match(JSON.stringify(wsErrors), /13 levels deep; at most 12/, `WebSocket, round ${round}`);
      const wsFine = await new Promise<unknown>((resolve) => {
        let data: unknown = null;
        ws.subscribe({ query: fine }, { next: (v) => (data = v), error: resolve, complete: () => resolve(data) });
      });
      assert.ok(wsFine && typeof wsFine === "object" && "data" in wsFine, `WebSocket, a query within the limits, round ${round}: ${JSON.stringify(wsFine)}`);
    }
  } finally {
    await ws.dispose();
    await d.stop();
  }
});

test.run();
