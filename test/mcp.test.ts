// POST /mcp through the MCP SDK's own client (Client + StreamableHTTPClientTransport) against a
// real daemon: initialize, list tools, call the snapshot tool in each format, a bad argument as
// an isError result, and the DNS-rebinding defence (forged Host, foreign Origin: 403).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { request } from "node:http";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { pollUntil } from "../shared/clock.js";
import { removeTempDirs, SQLITE_FIXTURE } from "./helpers/openclaw-fixtures.js";
import { cardModelSchema } from "../shared/snapshot/card-model.js";
import { startDaemon, type TestDaemon } from "./helpers/daemon.js";
import { pngSize } from "./helpers/png.js";

test.after(removeTempDirs);

let d: TestDaemon;
test.before(async () => {
  d = await startDaemon({ fixture: SQLITE_FIXTURE });
});
test.after(async () => d.stop());

async function connect(): Promise<Client> {
  const client = new Client({ name: "gateway-insights-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${d.url}/mcp`)));
  return client;
}

type Content = Array<{ type: string; data?: string; mimeType?: string; text?: string }>;

test("initialize and list tools: one tool, snapshot, with a documented schema and the MCP defaults", async () => {
  const client = await connect();
  try {
    assert.is(client.getServerVersion()?.name, "gateway-insights");
    const { tools } = await client.listTools();
    assert.equal(tools.map((t) => t.name), ["snapshot"]);
    const props = tools[0]?.inputSchema.properties as Record<string, { enum: string[]; default: string; description: string }>;
    assert.equal(props.range?.enum, ["1h", "6h", "12h", "24h"], "no 30m over MCP");
    assert.is(props.range?.default, "6h");
    assert.equal([props.detail?.default, props.format?.default, props.theme?.default, props.lang?.default], ["standard", "png", "dark", "en"]);
    for (const p of Object.values(props)) assert.ok(p.description.length > 10);
  } finally {
    await client.close();
  }
});

test("call snapshot: PNG and SVG as image content with a summary, JSON as text", async () => {
  const client = await connect();
  try {
    const png = await client.callTool({ name: "snapshot", arguments: {} });
    const pc = png.content as Content;
    assert.is(png.isError ?? false, false);
    assert.is(pc[0]?.type, "image");
    assert.is(pc[0]?.mimeType, "image/png");
    assert.is(pngSize(Buffer.from(pc[0]?.data ?? "", "base64")).width, 780);
    assert.match(pc[1]?.text ?? "", /snapshot \(standard, last 6h\); health \w+; OpenClaw: /);

    const svg = await client.callTool({ name: "snapshot", arguments: { format: "svg", detail: "compact", theme: "light", lang: "zh" } });
    const sc = svg.content as Content;
    assert.is(sc[0]?.mimeType, "image/svg+xml");
    assert.match(Buffer.from(sc[0]?.data ?? "", "base64").toString("utf8"), /^<svg/);

    const json = await client.callTool({ name: "snapshot", arguments: { format: "json", range: "24h", detail: "full" } });
    const jc = json.content as Content;
    assert.is(jc[0]?.type, "text");
    const card = cardModelSchema.parse(JSON.parse(jc[0]?.text ?? "{}"));
    assert.equal([card.range, card.detail, card.schemaVersion], ["24h", "full", 2]);
    assert.equal(card.providers.map((b) => b.provider), ["openclaw"]);
  } finally {
    await client.close();
  }
});

test("a bad argument is a tool result with isError and INVALID_PARAM, not a protocol error", async () => {
  const client = await connect();
  try {
    const r = await client.callTool({ name: "snapshot", arguments: { range: "30m" } });
    assert.is(r.isError, true);
    assert.match((r.content as Content)[0]?.text ?? "", /^INVALID_PARAM: .*range.*allowed: 1h, 6h, 12h, 24h/);
    const other = await client.callTool({ name: "screenshot", arguments: {} });
    assert.is(other.isError, true);
  } finally {
    await client.close();
  }
});

function rawPost(headers: Record<string, string>): Promise<number> {
  const u = new URL(d.url);
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
  return new Promise((resolve, reject) => {
    const req = request(
      { host: u.hostname, port: u.port, path: "/mcp", method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "content-length": Buffer.byteLength(body), ...headers } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

test("DNS-rebinding defence: a forged Host or a foreign Origin gets 403; local ones pass", async () => {
  assert.is(await rawPost({ host: "attacker.example:41080" }), 403);
  assert.is(await rawPost({ host: `localhost:${new URL(d.url).port}`, origin: "http://attacker.example" }), 403);
  assert.is(await rawPost({ host: `localhost:${new URL(d.url).port}`, origin: `http://localhost:${new URL(d.url).port}` }), 200);
  assert.is(await rawPost({ host: `127.0.0.1:${new URL(d.url).port}` }), 200);
  const get = await fetch(`${d.url}/mcp`);
  assert.is(get.status, 405, "stateless: no GET stream");
});

/** A client of `daemon`'s /mcp with extra request headers (the tests' peer override). */
async function connectTo(daemon: TestDaemon, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: "gateway-insights-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${daemon.url}/mcp`), { requestInit: { headers } }));
  return client;
}

function restSnapshot(daemon: TestDaemon, body: Record<string, string>): Promise<Response> {
  return fetch(`${daemon.url}/api/snapshot`, { method: "POST", headers: { authorization: `Bearer ${daemon.token}`, "content-type": "application/json" }, body: JSON.stringify(body) });
}

type ToolResult = Awaited<ReturnType<Client["callTool"]>>;
const firstText = (r: ToolResult): string => (("content" in r ? r.content : []) as Content)[0]?.text ?? "";

test("MCP has its own rate budget, shared by every local caller: a burst over /mcp never rate-limits the REST snapshot", async () => {
  // Any loopback address reaches /mcp, so a caller could rotate 127.0.0.x: the header stands in for that.
  const daemon = await startDaemon({ env: { INSIGHTS_SNAPSHOT_RATE_LIMIT_PER_MINUTE: "3" }, peerOf: (req) => (req.headers["x-test-peer"] as string | undefined) ?? req.socket.remoteAddress });
  const a = await connectTo(daemon);
  const b = await connectTo(daemon, { "x-test-peer": "127.0.0.2" });
  try {
    for (let i = 0; i < 3; i++) assert.is((await a.callTool({ name: "snapshot", arguments: { format: "json" } })).isError ?? false, false);
    const limited = await a.callTool({ name: "snapshot", arguments: { format: "json" } });
    assert.is(limited.isError, true);
    assert.match(firstText(limited), /^RATE_LIMITED: /);
    const other = await b.callTool({ name: "snapshot", arguments: { format: "json" } });
    assert.match(firstText(other), /^RATE_LIMITED: /, "another loopback address is the same MCP budget");
    for (let i = 0; i < 3; i++) assert.is((await restSnapshot(daemon, { format: "json" })).status, 200, "the token holder's own budget is whole");
    assert.is((await restSnapshot(daemon, { format: "json" })).status, 429, "and REST has its own limit");
  } finally {
    await a.close();
    await b.close();
    await daemon.stop();
  }
});

test("MCP holds at most one render at a time, so it cannot fill the render queue a REST client needs", async () => {
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  let calls = 0;
  const render = async (): Promise<Buffer> => {
    calls++;
    await gate;
    return Buffer.from("<svg xmlns=\"http://www.w3.org/2000/svg\"/>");
  };
  const env = { INSIGHTS_RENDER_CONCURRENCY: "1", INSIGHTS_RENDER_QUEUE_MAX: "1", INSIGHTS_RENDER_QUEUE_WAIT_SECONDS: "300", INSIGHTS_TOTAL_TIMEOUT_SECONDS: "600" };
  const daemon = await startDaemon({ env, daemon: { snapshotSeams: { render } } });
  const queued = async (): Promise<number> => {
    const text = await (await fetch(`${daemon.url}/metrics`, { headers: { authorization: `Bearer ${daemon.token}` } })).text();
    return Number(/insights_render_queue\{state="queued"\} (\d+)/.exec(text)?.[1] ?? -1);
  };
  const client = await connectTo(daemon);
  try {
    const first = client.callTool({ name: "snapshot", arguments: { format: "svg" } });
    first.catch(() => undefined); // a failed assertion closes the client under it
    await pollUntil(() => calls === 1, { what: "the MCP render to start" });
    let second: ToolResult | null = null;
    void client.callTool({ name: "snapshot", arguments: { format: "svg", theme: "light" } }).then((r) => (second = r), () => undefined);
    // Either the second MCP call is answered at once, or it sits in the queue (the bug).
    await pollUntil(async () => second !== null || (await queued()) > 0, { what: "the second MCP call to be answered or queued" });
    assert.ok(second, "the second MCP call was queued behind the first");
    assert.match(firstText(second), /^QUEUE_FULL: /);
    const rest = restSnapshot(daemon, { format: "svg" });
    await pollUntil(async () => (await queued()) === 1, { what: "the REST request to wait in the queue" });
    open();
    assert.is((await rest).status, 200);
    assert.is((await first).isError ?? false, false);
  } finally {
    open();
    await client.close();
    await daemon.stop();
  }
});

test.run();
