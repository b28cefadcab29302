// What bounds the live side of the GraphQL API against a real daemon: single-connection SSE mode
// is off (nothing is reserved for a stream nobody opens), subscriptions are capped per WebSocket
// and for all clients together (SSE streams and WebSocket operations share one budget), open
// WebSockets and WebSockets still waiting for their connectionParams are capped, and an SSE
// client that stops reading is cut once its unsent backlog passes the slow-consumer bound.
import { request, type ClientRequest, type IncomingMessage } from "node:http";
import { connect } from "node:net";
import { createClient as createSseClient } from "graphql-sse";
import { createClient as createWsClient, type Client as WsClient } from "graphql-ws";
import { test } from "uvu";
import * as assert from "uvu/assert";
import WebSocket from "ws";
import { pollUntil } from "../shared/base/clock.js";
import { removeTempDirs } from "./helpers/openclaw-fixtures.js";
import { startDaemon, type StartOptions, type TestDaemon } from "./helpers/daemon.js";

test.after(removeTempDirs);

async function withDaemon(o: StartOptions, fn: (d: TestDaemon) => Promise<void>): Promise<void> {
  const d = await startDaemon(o);
  try {
    await fn(d);
  } finally {
    await d.stop();
  }
}

/** Opens a distinct-connection SSE subscription; resolves once the response head is in (the stream stays open). */
function openSse(d: TestDaemon, query = "subscription { dataChanged { source ts } }"): Promise<{ status: number; res: IncomingMessage; req: ClientRequest; text: () => Promise<string> }> {
  const u = new URL(d.url);
  const body = JSON.stringify({ query });
  return new Promise((resolve, reject) => {
    const req = request(
      { host: u.hostname, port: u.port, path: "/graphql", method: "POST", headers: { authorization: `Bearer ${d.token}`, "content-type": "application/json", accept: "text/event-stream", "content-length": Buffer.byteLength(body) } },
      (res) => {
        const text = (): Promise<string> =>
          new Promise((done) => {
            let t = "";
            res.setEncoding("utf8");
            res.on("data", (c: string) => (t += c));
            res.on("end", () => done(t));
          });
        resolve({ status: res.statusCode ?? 0, res, req, text });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

async function subscribers(d: TestDaemon): Promise<number> {
  const text = await (await fetch(`${d.url}/metrics`, { headers: { authorization: `Bearer ${d.token}` } })).text();
  const m = /insights_subscribers\{subscription="dataChanged"\} (\d+)/.exec(text);
  return Number(m?.[1] ?? -1);
}

function bearerWs(d: TestDaemon): WsClient {
  const AuthedWebSocket = class extends WebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols, { headers: { authorization: `Bearer ${d.token}` } });
    }
  };
  return createWsClient({ url: `${d.url.replace("http", "ws")}/graphql`, webSocketImpl: AuthedWebSocket, retryAttempts: 0, lazy: false });
}

/** The error codes a graphql-ws subscription ended with (pushed as they arrive). */
function codesSink(codes: string[]): { next: () => void; error: (e: unknown) => void; complete: () => void } {
  return {
    next: () => undefined,
    error: (e) => {
      const list = Array.isArray(e) ? (e as Array<{ extensions?: { code?: string } }>) : [];
      codes.push(list[0]?.extensions?.code ?? `not a GraphQL error: ${String(e)}`);
    },
    complete: () => undefined,
  };
}

/** Opens a raw WebSocket; resolves with 101 when it opened, else the HTTP status of the refusal. */
function rawWs(d: TestDaemon, opts: { protocol?: string; headers?: Record<string, string> } = {}): Promise<{ status: number; ws: WebSocket; closed: Promise<number> }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${d.url.replace("http", "ws")}/graphql`, opts.protocol ?? "graphql-transport-ws", { headers: opts.headers ?? {} });
    const closed = new Promise<number>((r) => ws.on("close", (code) => r(code)));
    ws.on("unexpected-response", (_req, res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, ws, closed });
    });
    ws.on("open", () => resolve({ status: 101, ws, closed }));
    ws.on("error", () => undefined);
  });
}

test("single-connection SSE mode is off: PUT reserves nothing (405), a stream token is refused, the client's single mode fails", async () => {
  await withDaemon({}, async (d) => {
    const auth = { authorization: `Bearer ${d.token}` };
    for (let i = 0; i < 50; i++) {
      const put = await fetch(`${d.url}/graphql`, { method: "PUT", headers: auth });
      assert.is(put.status, 405);
      assert.is(put.headers.get("allow"), "GET, POST");
      assert.match(((await put.json()) as { errors: Array<{ message: string }> }).errors[0]?.message ?? "", /single-connection mode.*not supported.*Accept: text\/event-stream/);
    }
    const del = await fetch(`${d.url}/graphql?operationId=1`, { method: "DELETE", headers: auth });
    assert.is(del.status, 405);
    const tokenPost = await fetch(`${d.url}/graphql`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json", "x-graphql-event-stream-token": "any-token" },
      body: JSON.stringify({ query: "subscription { dataChanged { source } }", extensions: { operationId: "1" } }),
    });
    assert.is(tokenPost.status, 400);
    const body = (await tokenPost.json()) as { errors: Array<{ message: string; extensions: { code: string } }> };
    assert.is(body.errors[0]?.extensions.code, "BAD_REQUEST");

    const client = createSseClient({ url: `${d.url}/graphql`, headers: auth, singleConnection: true, retryAttempts: 0 });
    const errors: unknown[] = [];
    client.subscribe({ query: "subscription { dataChanged { source } }" }, { next: () => undefined, error: (e) => void errors.push(e), complete: () => undefined });
    await pollUntil(() => errors.length > 0, { what: "the single-connection client to fail" });
    assert.match(String(errors[0]), /405/);
    client.dispose();
    // Distinct connections (what the dashboard uses) work as ever.
    const sse = await openSse(d);
    assert.is(sse.status, 200);
    sse.req.destroy();
  });
});

test("one WebSocket may run at most 100 operations at once; the rest get TOO_MANY_SUBSCRIPTIONS and the socket stays up", async () => {
  await withDaemon({}, async (d) => {
    const client = bearerWs(d);
    try {
      const codes: string[] = [];
      for (let i = 0; i < 105; i++) client.subscribe({ query: "subscription { dataChanged { source ts } }" }, codesSink(codes));
      await pollUntil(() => codes.length >= 5, { what: "the operations over the cap to be refused" });
      assert.equal(codes, Array(5).fill("TOO_MANY_SUBSCRIPTIONS"));
      await pollUntil(async () => (await subscribers(d)) === 100, { what: "100 live subscriptions" });
      // The socket is still usable for a query once a slot frees.
      const more: string[] = [];
      const results: unknown[] = [];
      client.subscribe({ query: "{ sources { id } }" }, { next: (r) => void results.push(r), error: codesSink(more).error, complete: () => undefined });
      await pollUntil(() => more.length > 0 || results.length > 0, { what: "the 106th operation's answer" });
      assert.equal(more, ["TOO_MANY_SUBSCRIPTIONS"]);
    } finally {
      await client.dispose();
    }
  });
});

test("SSE streams and WebSocket operations share one cap for all clients; a freed slot can be used again", async () => {
  await withDaemon({ daemon: { graphqlLimits: { maxOperations: 3 } } }, async (d) => {
    const a = await openSse(d);
    const b = await openSse(d);
    assert.equal([a.status, b.status], [200, 200]);
    const client = bearerWs(d);
    try {
      const codes: string[] = [];
      client.subscribe({ query: "subscription { dataChanged { source ts } }" }, codesSink(codes));
      await pollUntil(async () => (await subscribers(d)) === 3, { what: "three live subscriptions" });
      const c = await openSse(d);
      assert.is(c.status, 503);
      assert.ok(Number(c.res.headers["retry-after"]) > 0);
      const refused = JSON.parse(await c.text()) as { errors: Array<{ message: string; extensions: { code: string } }> };
      assert.is(refused.errors[0]?.extensions.code, "TOO_MANY_SUBSCRIPTIONS");
      client.subscribe({ query: "subscription { dataChanged { source ts } }" }, codesSink(codes));
      await pollUntil(() => codes.length > 0, { what: "the WebSocket operation over the cap" });
      assert.equal(codes, ["TOO_MANY_SUBSCRIPTIONS"]);
      a.req.destroy();
      const again = await pollUntil(async () => {
        const s = await openSse(d);
        if (s.status === 200) return s;
        s.req.destroy();
        return null;
      }, { what: "a stream once a slot is free" });
      again.req.destroy();
    } finally {
      b.req.destroy();
      await client.dispose();
    }
  });
});

test("open WebSockets are capped, and so are WebSockets still waiting for connectionParams; a silent one is closed with 4408", async () => {
  await withDaemon({ daemon: { graphqlLimits: { maxSockets: 3, maxPendingSockets: 2, connectionInitWaitMs: 600_000 } } }, async (d) => {
    const p1 = await rawWs(d);
    const p2 = await rawWs(d);
    assert.equal([p1.status, p2.status], [101, 101], "two sockets may wait for their connectionParams");
    const p3 = await rawWs(d);
    assert.is(p3.status, 503, "a third waiting socket is refused");
    const authed = await rawWs(d, { headers: { authorization: `Bearer ${d.token}` } });
    assert.is(authed.status, 101, "a socket with a credential does not wait");
    const full = await rawWs(d, { headers: { authorization: `Bearer ${d.token}` } });
    assert.is(full.status, 503, "three sockets open in all");
    p1.ws.close();
    await p1.closed;
    const next = await pollUntil(async () => {
      const s = await rawWs(d);
      return s.status === 101 ? s : null;
    }, { what: "a slot after one socket closed" });
    for (const s of [p2, authed, next]) s.ws.close();
  });
  await withDaemon({ daemon: { graphqlLimits: { connectionInitWaitMs: 200 } } }, async (d) => {
    const silent = await rawWs(d);
    assert.is(silent.status, 101);
    assert.is(await silent.closed, 4408, "closed for never sending ConnectionInit");
  });
});

test("a WebSocket message past 100 KB closes the socket (1009); a page from another origin must authenticate on the upgrade", async () => {
  await withDaemon({}, async (d) => {
    const authed = await rawWs(d, { headers: { authorization: `Bearer ${d.token}` } });
    assert.is(authed.status, 101);
    authed.ws.send(JSON.stringify({ type: "connection_init", payload: { pad: "x".repeat(101 * 1024) } }));
    assert.is(await authed.closed, 1009);
    const foreign = await rawWs(d, { headers: { origin: "http://evil.example" } });
    assert.is(foreign.status, 401, "no connectionParams grace for a foreign page");
    const local = await rawWs(d, { headers: { origin: `http://localhost:${new URL(d.url).port}` } });
    assert.is(local.status, 101, "a page on this machine may send its token in connectionParams");
    local.ws.close();
    const plain = await rawWs(d, { protocol: "something-else" });
    assert.is(plain.status, 401, "only a graphql-transport-ws client may authenticate in connectionParams");
  });
});

test("an SSE client that stops reading is cut once its backlog passes the bound; memory does not follow the stream", async () => {
  await withDaemon({}, async (d) => {
    const u = new URL(d.url);
    const body = JSON.stringify({ query: "subscription { logs(filter: { level: DEBUG }) { message } }" });
    const sock = connect(Number(u.port), "127.0.0.1");
    await new Promise<void>((r) => sock.once("connect", () => r()));
    sock.on("error", () => undefined);
    sock.write(`POST /graphql HTTP/1.1\r\nHost: 127.0.0.1:${u.port}\r\nAuthorization: Bearer ${d.token}\r\nContent-Type: application/json\r\nAccept: text/event-stream\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    sock.pause(); // never read: the client has stopped
    const live = d.daemon.live;
    await pollUntil(() => live.subscribers.logs === 1, { what: "the logs subscription" });
    const message = "m".repeat(4096);
    const entry = (i: number) => ({ time: "2026-11-21T23:19:00.000+00:00", timeMs: 0, level: "INFO" as const, module: "gateway/ws", message: `${i} ${message}`, agentId: null, sessionKey: null, channel: null, traceId: null, type: null });
    // Up to 64 MB in batches the stream could keep up with (a batch never fills the 1000-entry channel).
    let sent = 0;
    for (let i = 0; i < 16_384 && live.subscribers.logs > 0; i++) {
      live.log(entry(i));
      sent++;
      if (i % 100 === 99) await new Promise((r) => setImmediate(r));
    }
    assert.is(live.subscribers.logs, 0, `the stream was not cut after ${sent} entries (${Math.round((sent * 4) / 1024)} MB)`);
    assert.is(live.dropped, 0, "cut by the response bound, not by the channel");
    sock.destroy();
  });
});

test.run();
