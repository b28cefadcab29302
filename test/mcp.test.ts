// POST /mcp through the MCP SDK's own client (Client + StreamableHTTPClientTransport) against a
// real daemon: initialize, list tools, call the snapshot tool in each format, a bad argument as
// an isError result, and the DNS-rebinding defence (forged Host, foreign Origin: 403).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { request } from "node:http";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { removeTempDirs, SQLITE_FIXTURE } from "../shared/sources/openclaw/test-fixtures.js";
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
    assert.match(pc[1]?.text ?? "", /snapshot \(standard, last 6h\)/);

    const svg = await client.callTool({ name: "snapshot", arguments: { format: "svg", detail: "compact", theme: "light", lang: "zh" } });
    const sc = svg.content as Content;
    assert.is(sc[0]?.mimeType, "image/svg+xml");
    assert.match(Buffer.from(sc[0]?.data ?? "", "base64").toString("utf8"), /^<svg/);

    const json = await client.callTool({ name: "snapshot", arguments: { format: "json", range: "24h", detail: "full" } });
    const jc = json.content as Content;
    assert.is(jc[0]?.type, "text");
    const card = cardModelSchema.parse(JSON.parse(jc[0]?.text ?? "{}"));
    assert.equal([card.range, card.detail], ["24h", "full"]);
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

test.run();
