// What a hostile or broken client must not do to a running daemon: a WebSocket upgrade reset while
// it is being answered, an oversized chunked body. After each, the daemon still serves; refused
// upgrades are in the access log and the request counters like any request. Errors over SSE carry
// the same extensions.code as over POST.
import { request } from "node:http";
import { connect } from "node:net";
import { createClient } from "graphql-sse";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { pollUntil } from "../shared/base/clock.js";
import { removeTempDirs } from "./helpers/openclaw-fixtures.js";
import { startDaemon, type TestDaemon } from "./helpers/daemon.js";

test.after(removeTempDirs);

let d: TestDaemon;
test.before(async () => {
  d = await startDaemon();
});
test.after(async () => d.stop());

const port = (): number => Number(new URL(d.url).port);
const alive = async (): Promise<void> => assert.is((await fetch(`${d.url}/health`)).status, 200);

/** Sends an upgrade request for `path` and resets the connection as soon as the answer starts. */
function resetUpgrade(path: string): Promise<void> {
  return new Promise((resolve) => {
    const s = connect(port(), "127.0.0.1", () => {
      s.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port()}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`);
      s.resetAndDestroy();
    });
    s.on("error", () => undefined);
    s.on("close", () => resolve());
  });
}

test("a WebSocket upgrade reset mid-answer (refused or unknown path) leaves the daemon serving", async () => {
  for (let i = 0; i < 20; i++) {
    await resetUpgrade("/graphql");
    await resetUpgrade("/nope");
  }
  await alive();
});

test("an oversized chunked body is refused and leaves the daemon serving", async () => {
  for (const path of ["/mcp", "/graphql"]) {
    const status = await new Promise<number>((resolve) => {
      const req = request({ host: "127.0.0.1", port: port(), path, method: "POST", headers: { "transfer-encoding": "chunked", "content-type": "application/json", authorization: `Bearer ${d.token}` } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", () => resolve(0));
      for (let i = 0; i < 50; i++) req.write("x".repeat(4096));
      req.end();
    });
    assert.ok(status === 413 || status === 0, `${path}: ${status}`);
  }
  await alive();
});

test("refused upgrades are logged and counted like requests", async () => {
  const status = await new Promise<number>((resolve) => {
    const req = request({ host: "127.0.0.1", port: port(), path: "/graphql", headers: { connection: "Upgrade", upgrade: "websocket", "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==", "sec-websocket-version": "13" } });
    req.on("response", (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", () => resolve(0));
    req.end();
  });
  assert.is(status, 401);
  const metrics = await (await fetch(`${d.url}/metrics`, { headers: { authorization: `Bearer ${d.token}` } })).text();
  assert.match(metrics, /insights_http_requests_total\{route="\/graphql",method="GET",status="401"\} \d+/);
});

test("errors over SSE carry extensions.code like the POST path (NOT_FOUND, masked internals)", async () => {
  const client = createClient({ url: `${d.url}/graphql`, headers: { authorization: `Bearer ${d.token}` }, retryAttempts: 0 });
  try {
    const results: Array<{ errors?: Array<{ extensions?: { code?: string } }> }> = [];
    client.subscribe({ query: `{ source(selector: { id: "agent:nope" }) { __typename } }` }, { next: (r) => void results.push(r as (typeof results)[number]), error: () => undefined, complete: () => undefined });
    const r = await pollUntil(() => results[0], { what: "the SSE result" });
    assert.is(r.errors?.[0]?.extensions?.code, "NOT_FOUND");
  } finally {
    client.dispose();
  }
});

test.run();
