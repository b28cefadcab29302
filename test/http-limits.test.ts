// Request size limits on every route of a real daemon: each body goes through one bounded reader
// (413 past the route's limit, whether the size is announced or the body is chunked), and the
// header block is bounded too. After every refusal the daemon still serves.
import { request } from "node:http";
import { connect } from "node:net";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { removeTempDirs } from "./helpers/openclaw-fixtures.js";
import { startDaemon, type TestDaemon } from "./helpers/daemon.js";

test.after(removeTempDirs);

let d: TestDaemon;
test.before(async () => {
  d = await startDaemon();
});
test.after(async () => d.stop());

interface Sent {
  method: string;
  path: string;
  headers?: Record<string, string>;
  /** Sent as one chunked body (no Content-Length) unless `declare` is set. */
  body?: string;
  declare?: boolean;
}

/** One request over node:http; resolves with the status and body text, or status 0 when the connection was cut first. */
function send(s: Sent): Promise<{ status: number; text: string }> {
  const u = new URL(d.url);
  const headers: Record<string, string | number> = { host: `127.0.0.1:${u.port}`, ...s.headers };
  if (s.body !== undefined) {
    if (s.declare) headers["content-length"] = Buffer.byteLength(s.body);
    else headers["transfer-encoding"] = "chunked";
  }
  return new Promise((resolve) => {
    const req = request({ host: u.hostname, port: u.port, path: s.path, method: s.method, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      res.on("error", () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on("error", () => resolve({ status: 0, text: "" }));
    if (s.body !== undefined && !s.declare) {
      // Several chunks, as a streaming client would send them.
      for (let i = 0; i < s.body.length; i += 16 * 1024) req.write(s.body.slice(i, i + 16 * 1024));
      req.end();
    } else req.end(s.body);
  });
}

const alive = async (): Promise<void> => assert.is((await fetch(`${d.url}/health`)).status, 200, "the daemon still serves");
const bearer = (): Record<string, string> => ({ authorization: `Bearer ${d.token}` });
const json = { "content-type": "application/json" };

test("GraphQL over SSE (POST with Accept: text/event-stream): a chunked body past 100 KB is 413, not read whole", async () => {
  // The body is valid JSON, so only a limit can refuse it (graphql-sse's own reader has none).
  const body = JSON.stringify({ query: "{ sources { id } }", variables: { pad: "x".repeat(300 * 1024) } });
  const r = await send({ method: "POST", path: "/graphql", headers: { ...bearer(), ...json, accept: "text/event-stream" }, body });
  assert.is(r.status, 413, r.text.slice(0, 200));
  assert.is((JSON.parse(r.text) as { errors: Array<{ extensions: { code: string } }> }).errors[0]?.extensions.code, "PAYLOAD_TOO_LARGE");
  // Just under the limit still works over SSE.
  const ok = await send({ method: "POST", path: "/graphql", headers: { ...bearer(), ...json, accept: "text/event-stream" }, body: JSON.stringify({ query: "{ sources { id } }", variables: { pad: "x".repeat(90 * 1024) } }) });
  assert.is(ok.status, 200);
  assert.match(ok.text, /event: next/);
  await alive();
});

test("every route refuses a body past its limit with 413 (chunked and announced), in its own error format", async () => {
  const big = (kb: number): string => JSON.stringify({ pad: "x".repeat(kb * 1024) });
  const cases: Array<Sent & { code: RegExp }> = [
    { method: "POST", path: "/graphql", headers: { ...bearer(), ...json }, body: big(120), code: /PAYLOAD_TOO_LARGE/ },
    { method: "PUT", path: "/graphql", headers: { ...bearer(), ...json }, body: big(120), code: /PAYLOAD_TOO_LARGE/ },
    { method: "GET", path: "/graphql?query=%7B__typename%7D", headers: bearer(), body: big(120), code: /PAYLOAD_TOO_LARGE/ },
    { method: "POST", path: "/api/snapshot", headers: { ...bearer(), ...json }, body: big(20), code: /"code":"PAYLOAD_TOO_LARGE"/ },
    { method: "POST", path: "/mcp", headers: { ...json, accept: "application/json, text/event-stream" }, body: big(80), code: /"jsonrpc":"2.0"/ },
    { method: "POST", path: "/api/logout", headers: bearer(), body: big(8), code: /"code":"PAYLOAD_TOO_LARGE"/ },
    { method: "GET", path: "/api/session", headers: bearer(), body: big(8), code: /"code":"PAYLOAD_TOO_LARGE"/ },
    { method: "GET", path: "/metrics", headers: bearer(), body: big(8), code: /"code":"PAYLOAD_TOO_LARGE"/ },
    { method: "GET", path: "/health", body: big(8), code: /"code":"PAYLOAD_TOO_LARGE"/ },
  ];
  for (const c of cases) {
    for (const declare of [false, true]) {
      const r = await send({ ...c, declare });
      assert.is(r.status, 413, `${c.method} ${c.path} (${declare ? "Content-Length" : "chunked"}): ${r.status} ${r.text.slice(0, 120)}`);
      assert.match(r.text, c.code, `${c.method} ${c.path}`);
    }
  }
  await alive();
});

test("a request without credentials is refused before its body is read; a small body on a body-less route is fine", async () => {
  const r = await send({ method: "POST", path: "/api/logout", headers: json, body: "{}" });
  assert.is(r.status, 401);
  const ok = await send({ method: "POST", path: "/api/logout", headers: { ...bearer(), ...json }, body: "{}", declare: true });
  assert.is(ok.status, 204);
});

test("a client that goes on streaming a body after its answer (401, 413) is disconnected, not read for minutes", async () => {
  const u = new URL(d.url);
  for (const auth of ["", `Authorization: Bearer ${d.token}\r\n`]) {
    const sock = connect(Number(u.port), "127.0.0.1");
    sock.on("error", () => undefined);
    let answer = "";
    sock.on("data", (c: Buffer) => (answer += c.toString("utf8")));
    const closed = new Promise<void>((r) => sock.once("close", () => r()));
    let open = true;
    void closed.then(() => (open = false));
    sock.write(`POST /graphql HTTP/1.1\r\nHost: 127.0.0.1:${u.port}\r\n${auth}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`);
    const chunk = "x".repeat(8 * 1024);
    // An endless upload at a gentle pace, until the daemon hangs up (the deadline is far above its
    // grace; without one, Node would read for its 300 s request timeout).
    const deadline = Date.now() + 30_000;
    while (open && Date.now() < deadline) {
      const flushed = sock.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
      if (!flushed) await Promise.race([new Promise((r) => sock.once("drain", r)), closed]);
      await new Promise((r) => setTimeout(r, 5));
    }
    assert.is(open, false, "the daemon closed the connection");
    assert.match(answer, auth ? /^HTTP\/1\.1 413 / : /^HTTP\/1\.1 401 /, "after answering");
  }
  await alive();
});

test("a header block past 16 KB is refused with 431 and the daemon goes on", async () => {
  const r = await send({ method: "GET", path: "/health", headers: { "x-pad": "y".repeat(20 * 1024) } });
  assert.is(r.status, 431);
  const url = await send({ method: "GET", path: `/health?${"q".repeat(20 * 1024)}` });
  assert.is(url.status, 431, "the request line counts against the same limit");
  await alive();
});

test.run();
