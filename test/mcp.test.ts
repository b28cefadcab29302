// POST /mcp through the MCP SDK's own client (Client + StreamableHTTPClientTransport) against a
// real daemon: initialize, list tools, call the snapshot tool in each format, a bad argument as
// an isError result, and the DNS-rebinding defence (forged Host, foreign Origin: 403).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { request } from "node:http";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { pollUntil } from "../shared/base/clock.js";
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

test("call snapshot: the summary first, then PNG pages no taller than 1,600 px; SVG as a text resource, never an image; JSON as one object; structured content only for JSON", async () => {
  const client = await connect();
  try {
    const png = await client.callTool({ name: "snapshot", arguments: {} });
    const pc = png.content as Content;
    assert.is(png.isError ?? false, false);
    assert.is(pc[0]?.type, "text");
    assert.match(pc[0]?.text ?? "", /snapshot \(standard, last 6h\); health \w+; OpenClaw: /);
    const images = pc.slice(1);
    assert.ok(images.length >= 1 && images.every((c) => c.type === "image" && c.mimeType === "image/png"));
    for (const c of images) {
      const size = pngSize(Buffer.from(c.data ?? "", "base64"));
      assert.is(size.width, 780);
      assert.ok(size.height <= 1600, `a page of ${size.height} px`);
    }
    // The full card is taller than one page: it comes as pages, in order, and the summary says how many.
    const full = (await client.callTool({ name: "snapshot", arguments: { detail: "full" } })).content as Content;
    const pages = full.slice(1);
    assert.ok(pages.length >= 2, `${pages.length} pages`);
    assert.match(full[0]?.text ?? "", new RegExp(`follows as ${pages.length} images, top to bottom`));
    for (const c of pages) assert.ok(pngSize(Buffer.from(c.data ?? "", "base64")).height <= 1600);

    const svg = await client.callTool({ name: "snapshot", arguments: { format: "svg", detail: "compact", theme: "light", lang: "zh" } });
    const sc = svg.content as Array<{ type: string; text?: string; resource?: { uri: string; mimeType?: string; text?: string } }>;
    assert.ok(sc.every((c) => c.type !== "image"), "no image block for SVG");
    assert.is(sc[0]?.type, "text");
    assert.is(sc[1]?.type, "resource");
    assert.is(sc[1]?.resource?.mimeType, "image/svg+xml");
    assert.match(sc[1]?.resource?.text ?? "", /^<svg/);

    const json = await client.callTool({ name: "snapshot", arguments: { format: "json", range: "24h", detail: "full" } });
    const jc = json.content as Content;
    assert.is(jc[0]?.type, "text");
    // Codex hands its model the structured content instead of the content when there is any: the
    // JSON answer is one object, structured and as text alike, short enough for Codex's default
    // limit (the card's least useful parts left out first), valid JSON either way.
    const structured = json.structuredContent as { summary: string; format: string; detail: string; card: { omitted?: string[] } };
    const text = jc[0]?.text ?? "";
    assert.ok(text.length <= 10_000, `${text.length} characters`);
    assert.equal(JSON.parse(text), structured, "the text is the structured content");
    const card = cardModelSchema.parse(structured.card);
    assert.equal([card.range, card.detail, card.schemaVersion, structured.format, structured.detail], ["24h", "full", 2, "json", "full"]);
    assert.equal(card.providers.map((b) => b.provider), ["openclaw"]);
    assert.match(structured.summary, /snapshot \(full, last 24h\); health \w+; OpenClaw: /);
    if (structured.card.omitted) assert.is(structured.card.omitted[0], "providers[].events", "what was left out, the event log first");
    // PNG, SVG and errors have none: Codex would hand the model that instead of the images.
    for (const args of [{ format: "png", detail: "compact" }, { format: "svg", detail: "compact" }, { detail: "huge" }]) {
      const r = await client.callTool({ name: "snapshot", arguments: args });
      assert.is(r.structuredContent, undefined, JSON.stringify(args));
    }
  } finally {
    await client.close();
  }
});

test("a bad argument is a tool result with isError and INVALID_PARAM; an unknown tool is a JSON-RPC error", async () => {
  const client = await connect();
  try {
    const r = await client.callTool({ name: "snapshot", arguments: { range: "30m" } });
    assert.is(r.isError, true);
    assert.match((r.content as Content)[0]?.text ?? "", /^INVALID_PARAM: .*range.*allowed: 1h, 6h, 12h, 24h/);
    // An unknown tool is a JSON-RPC error, -32602 as the MCP spec's example has it.
    const other = await client.callTool({ name: "screenshot", arguments: {} }).then(
      () => null,
      (err: unknown) => err as { code?: number; message?: string },
    );
    assert.is(other?.code, -32602);
    assert.match(other?.message ?? "", /Unknown tool: screenshot/);
  } finally {
    await client.close();
  }
});

/** A request of the stateless 2026-07-28 revision: its headers and the _meta envelope, no handshake. */
async function modern(method: string, params: Record<string, unknown> = {}, name?: string): Promise<{ status: number; body: { result?: Record<string, unknown>; error?: { code: number; message: string } } }> {
  const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "modern-probe", version: "1.0.0" }, "io.modelcontextprotocol/clientCapabilities": {} };
  const res = await fetch(`${d.url}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": method, ...(name ? { "mcp-name": name } : {}) },
    body: JSON.stringify({ jsonrpc: "2.0", id: 7, method, params: { ...params, _meta: meta } }),
  });
  return { status: res.status, body: (await res.json()) as { result?: Record<string, unknown>; error?: { code: number; message: string } } };
}

test("the stateless 2026-07-28 revision current Claude Code asks for first is served, not refused with 400; the 2025 handshake still works", async () => {
  const discover = await modern("server/discover");
  assert.is(discover.status, 200);
  assert.ok((discover.body.result?.supportedVersions as string[]).includes("2026-07-28"));
  assert.equal(discover.body.result?.capabilities, { tools: {} });
  const list = await modern("tools/list");
  assert.equal((list.body.result?.tools as Array<{ name: string }>).map((t) => t.name), ["snapshot"]);
  const call = await modern("tools/call", { name: "snapshot", arguments: { format: "json", detail: "compact" } }, "snapshot");
  assert.is(call.status, 200);
  assert.is(call.body.result?.resultType, "complete");
  assert.is((call.body.result?.structuredContent as { format: string }).format, "json");
  const unknown = await modern("tools/call", { name: "nope", arguments: {} }, "nope");
  assert.is(unknown.body.error?.code, -32602);
  // None of it was a 400 in the daemon's own request counts.
  const metrics = await (await fetch(`${d.url}/metrics`, { headers: { authorization: `Bearer ${d.token}` } })).text();
  assert.not.match(metrics, /insights_http_requests_total\{route="\/mcp",method="POST",status="400"\}/);
  // A client of the 2025 revisions (the SDK's v1 client, as older agents) negotiates as before.
  const client = await connect();
  try {
    assert.is(client.getServerVersion()?.name, "gateway-insights");
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

test("MCP has its own rate budget, shared by every local caller, half of it at most for one agent: a burst over /mcp never rate-limits the REST snapshot", async () => {
  // Any loopback address reaches /mcp, so a caller could rotate 127.0.0.x: the header stands in for that.
  const daemon = await startDaemon({ env: { INSIGHTS_SNAPSHOT_RATE_LIMIT_PER_MINUTE: "6" }, peerOf: (req) => (req.headers["x-test-peer"] as string | undefined) ?? req.socket.remoteAddress });
  const a = await connectTo(daemon, { "user-agent": "agent-a/1.0" });
  const b = await connectTo(daemon, { "x-test-peer": "127.0.0.2", "user-agent": "agent-b/1.0" });
  try {
    for (let i = 0; i < 3; i++) assert.is((await a.callTool({ name: "snapshot", arguments: { format: "json" } })).isError ?? false, false);
    const half = await a.callTool({ name: "snapshot", arguments: { format: "json" } });
    assert.is(half.isError, true);
    assert.match(firstText(half), /^RATE_LIMITED: .*this MCP client/, "one agent has half of MCP's budget");
    for (let i = 0; i < 3; i++) assert.is((await b.callTool({ name: "snapshot", arguments: { format: "json" } })).isError ?? false, false, "the other agent still has its share");
    const all = await b.callTool({ name: "snapshot", arguments: { format: "json" } });
    assert.match(firstText(all), /^RATE_LIMITED: .*all MCP callers together/, "another loopback address is the same MCP budget");
    for (let i = 0; i < 6; i++) assert.is((await restSnapshot(daemon, { format: "json" })).status, 200, "the token holder's own budget is whole");
    assert.is((await restSnapshot(daemon, { format: "json" })).status, 429, "and REST has its own limit");
  } finally {
    await a.close();
    await b.close();
    await daemon.stop();
  }
});

test("parallel MCP calls all succeed: identical ones share a card, different ones wait in MCP's own line, never in the render queue a REST client needs; a refusal spends no budget", async () => {
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  let calls = 0;
  const render = async (): Promise<Buffer> => {
    calls++;
    await gate;
    return Buffer.from("<svg xmlns=\"http://www.w3.org/2000/svg\"/>");
  };
  // 20 a minute over MCP: this one client may have 10 of them.
  const env = { INSIGHTS_RENDER_CONCURRENCY: "1", INSIGHTS_RENDER_QUEUE_MAX: "1", INSIGHTS_RENDER_QUEUE_WAIT_SECONDS: "300", INSIGHTS_TOTAL_TIMEOUT_SECONDS: "600", INSIGHTS_SNAPSHOT_RATE_LIMIT_PER_MINUTE: "20" };
  const daemon = await startDaemon({ env, daemon: { snapshotSeams: { render } } });
  const queued = async (): Promise<number> => {
    const text = await (await fetch(`${daemon.url}/metrics`, { headers: { authorization: `Bearer ${daemon.token}` } })).text();
    return Number(/insights_render_queue\{state="queued"\} (\d+)/.exec(text)?.[1] ?? -1);
  };
  const client = await connectTo(daemon);
  const call = (args: Record<string, string>): Promise<ToolResult> => {
    const p = client.callTool({ name: "snapshot", arguments: { format: "svg", ...args } });
    p.catch(() => undefined); // a failed assertion closes the client under it
    return p;
  };
  try {
    const first = call({});
    await pollUntil(() => calls === 1, { what: "the first MCP render to start" });
    // A reply's parallel calls: the same card again, and four different ones.
    const same = call({});
    const different = [call({ theme: "light" }), call({ lang: "zh" }), call({ range: "1h" }), call({ range: "12h" })];
    // Each of the four answered at once would be a refusal; they wait instead.
    await new Promise((r) => setTimeout(r, 300));
    assert.is(calls, 1, "nothing else renders while the first is drawn");
    assert.is(await queued(), 0, "MCP's waiting calls are not in the render queue");
    // The line is full now: a fifth different call is refused, and that costs no budget.
    for (let i = 0; i < 3; i++) assert.match(firstText(await call({ theme: "light", lang: "zh" })), /^QUEUE_FULL: /);
    // A token holder's REST request still finds its place in the render queue.
    const rest = restSnapshot(daemon, { format: "svg" });
    await pollUntil(async () => (await queued()) === 1, { what: "the REST request to wait in the queue" });
    open();
    assert.is((await rest).status, 200);
    for (const r of [await first, await same, ...(await Promise.all(different))]) assert.is(r.isError ?? false, false, firstText(r));
    assert.is(calls, 1 + 4 + 1, "one render for the two identical calls, one per different call, and the REST one");
    // Six calls were admitted; the three refused ones spent nothing: four more fit this client's 10.
    for (const range of ["1h", "6h", "12h", "24h"]) assert.is((await call({ format: "json", range })).isError ?? false, false, range);
    assert.match(firstText(await call({ format: "json", theme: "light" })), /^RATE_LIMITED: .*this MCP client/);
  } finally {
    open();
    await client.close();
    await daemon.stop();
  }
});

test.run();
