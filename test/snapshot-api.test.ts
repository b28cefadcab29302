// POST /api/snapshot against a real daemon: formats, defaults and headers, and every error code
// of the spec produced by a real condition (a bad parameter, a burst, a queue filled by renders
// held open, a source that hangs past the collect timeout, a render that fails, the size ladder).
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { pollUntil } from "../shared/base/clock.js";
import { FILES_FIXTURE, removeTempDirs, SQLITE_FIXTURE } from "./helpers/openclaw-fixtures.js";
import { cardModelSchema } from "../shared/snapshot/card-model.js";
import type { CardModel } from "../shared/snapshot/card-model.js";
import { renderCard } from "../shared/snapshot/render.js";
import { expectedTotals, fixtureTranscripts } from "./helpers/fixture-expectations.js";
import { startDaemon, type StartOptions, type TestDaemon } from "./helpers/daemon.js";
import { pngSize } from "./helpers/png.js";

test.after(removeTempDirs);

async function snap(d: Pick<TestDaemon, "url" | "token">, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${d.url}/api/snapshot`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${d.token}`, ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function errorOf(res: Response): Promise<{ status: number; code: string; message: string; param?: string; retryAfterSeconds?: number; retryAfter: string | null }> {
  const b = (await res.json()) as { code: string; message: string; param?: string; retryAfterSeconds?: number };
  return { status: res.status, retryAfter: res.headers.get("retry-after"), ...b };
}

/** A renderer that waits until released: renders stay "in progress" for as long as a test needs. */
function heldRenderer(): { render: (m: CardModel, f: "png" | "svg") => Promise<Buffer>; release: () => void; calls: () => number } {
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  let n = 0;
  return {
    render: async (m, f) => {
      n++;
      await gate;
      return renderCard(m, f);
    },
    release: () => open(),
    calls: () => n,
  };
}

async function withDaemon(o: StartOptions, fn: (d: TestDaemon) => Promise<void>): Promise<void> {
  const d = await startDaemon(o);
  try {
    await fn(d);
  } finally {
    await d.stop();
  }
}

test("defaults (standard, png, 24h, dark, en), headers, and the JSON format's numbers", async () => {
  await withDaemon({ fixture: SQLITE_FIXTURE }, async (d) => {
    const res = await snap(d, {});
    assert.is(res.status, 200);
    assert.is(res.headers.get("content-type"), "image/png");
    assert.match(res.headers.get("content-disposition") ?? "", /^attachment; filename="insights-standard-24h-dark-en-\d{8}-\d{6}\.png"$/);
    assert.match(res.headers.get("x-snapshot-duration") ?? "", /^\d+$/);
    assert.is(res.headers.get("x-snapshot-degraded"), null);
    const png = Buffer.from(await res.arrayBuffer());
    assert.is(pngSize(png).width, 780);

    const svg = await snap(d, { format: "svg", detail: "compact" });
    assert.is(svg.headers.get("content-type"), "image/svg+xml");
    assert.match(await svg.text(), /^<svg[^>]* width="390"/);

    const json = await snap(d, { format: "json", range: "24h" });
    assert.match(json.headers.get("content-type") ?? "", /^application\/json/);
    const card = cardModelSchema.parse(await json.json());
    assert.is(card.schemaVersion, 2);
    assert.equal(card.providers.map((b) => b.provider), ["openclaw"], "one block: only OpenClaw is read here");
    assert.is(card.allProviders, undefined);
    const oc = card.providers[0] as CardModel["providers"][number];
    const from = Date.parse(card.window.from);
    const to = Date.parse(card.window.to);
    const e = expectedTotals(fixtureTranscripts(d.openclawDir), (ts) => ts >= from && ts < to);
    assert.is(oc.summary.tokens, e.total);
    assert.is(oc.summary.turns, e.userMessages);
    assert.ok(Math.abs((oc.summary.costUsd ?? 0) - e.costUsd) < 1e-6);
    assert.equal(card.degradedSources, []);
  });
});

test("INVALID_PARAM: bad values, unknown names and a body that is not JSON, each 400 naming the parameter", async () => {
  await withDaemon({}, async (d) => {
    const range = await errorOf(await snap(d, { range: "2h" }));
    assert.equal([range.status, range.code, range.param], [400, "INVALID_PARAM", "range"]);
    assert.match(range.message, /30m, 1h, 6h, 12h, 24h/);
    const unknown = await errorOf(await snap(d, { colour: "red" }));
    assert.equal([unknown.status, unknown.code, unknown.param], [400, "INVALID_PARAM", "colour"]);
    const notJson = await errorOf(await snap(d, "{detail"));
    assert.equal([notJson.status, notJson.code], [400, "INVALID_PARAM"]);
    const wrongType = await errorOf(await snap(d, { detail: 3 }));
    assert.equal([wrongType.status, wrongType.param], [400, "detail"]);
  });
});

test("RATE_LIMITED after a burst from one client, with Retry-After", async () => {
  await withDaemon({ env: { INSIGHTS_SNAPSHOT_RATE_LIMIT_PER_MINUTE: "3" } }, async (d) => {
    for (let i = 0; i < 3; i++) assert.is((await snap(d, { format: "json" })).status, 200);
    const limited = await errorOf(await snap(d, { format: "json" }));
    assert.equal([limited.status, limited.code], [429, "RATE_LIMITED"]);
    assert.ok(Number(limited.retryAfter) > 0 && limited.retryAfterSeconds === Number(limited.retryAfter));
  });
});

/** Gauges from GET /metrics: renders running and waiting, HTTP requests being served (this one included). */
async function gauges(d: Pick<TestDaemon, "url" | "token">): Promise<{ active: number; queued: number; inFlight: number }> {
  const text = await (await fetch(`${d.url}/metrics`, { headers: { authorization: `Bearer ${d.token}` } })).text();
  const gauge = (state: string): number => Number(new RegExp(`insights_render_queue\\{state="${state}"\\} (\\d+)`).exec(text)?.[1] ?? -1);
  return { active: gauge("active"), queued: gauge("queued"), inFlight: Number(/insights_http_requests_in_flight (\d+)/.exec(text)?.[1] ?? -1) };
}

test("QUEUE_FULL when renders hold every slot and the queue; identical requests share one render", async () => {
  const held = heldRenderer();
  // The queue wait is the longest allowed: a loaded machine may take seconds between the steps
  // below, and a queued request must not time out (QUEUE_TIMEOUT, also 503) while the test waits.
  const env = { INSIGHTS_RENDER_CONCURRENCY: "1", INSIGHTS_RENDER_QUEUE_MAX: "1", INSIGHTS_RENDER_QUEUE_WAIT_SECONDS: "300", INSIGHTS_TOTAL_TIMEOUT_SECONDS: "600" };
  await withDaemon({ env, daemon: { snapshotSeams: { render: held.render } } }, async (d) => {
    const first = snap(d, { theme: "dark" });
    await pollUntil(() => held.calls() === 1, { what: "the first render to start" });
    const twin = snap(d, { theme: "dark" });
    // first, twin and the /metrics request itself: the twin has reached the daemon while the first is held.
    await pollUntil(async () => (await gauges(d)).inFlight === 3, { what: "the twin to be in flight" });
    const second = snap(d, { theme: "light" });
    // Only once `second` holds the one queue place is the next request sure to find the queue full.
    await pollUntil(async () => (await gauges(d)).queued === 1, { what: "the second request to be queued" });
    const full = await errorOf(await snap(d, { lang: "zh" }));
    assert.equal([full.code, full.status], ["QUEUE_FULL", 503]);
    assert.ok(Number(full.retryAfter) >= 1);
    held.release();
    const [a, b, c] = await Promise.all([first, twin, second]);
    assert.equal([a.status, b.status, c.status], [200, 200, 200]);
    assert.ok(Buffer.from(await a.arrayBuffer()).equals(Buffer.from(await b.arrayBuffer())), "the twin got the same card");
    assert.is(held.calls(), 2, "two renders for three requests");
  });
});

test("QUEUE_TIMEOUT when the wait for a renderer runs out", async () => {
  const held = heldRenderer();
  await withDaemon({ env: { INSIGHTS_RENDER_CONCURRENCY: "1", INSIGHTS_RENDER_QUEUE_WAIT_SECONDS: "1" }, daemon: { snapshotSeams: { render: held.render } } }, async (d) => {
    const first = snap(d, {});
    await pollUntil(() => held.calls() === 1, { what: "the first render to start" });
    const waited = await errorOf(await snap(d, { theme: "light" }));
    assert.equal([waited.status, waited.code], [503, "QUEUE_TIMEOUT"]);
    assert.ok(waited.retryAfter !== null);
    held.release();
    assert.is((await first).status, 200);
  });
});

test("TOTAL_TIMEOUT when a snapshot outlives the total budget", async () => {
  const held = heldRenderer();
  await withDaemon({ env: { INSIGHTS_TOTAL_TIMEOUT_SECONDS: "1" }, daemon: { snapshotSeams: { render: held.render } } }, async (d) => {
    const r = await errorOf(await snap(d, {}));
    assert.equal([r.status, r.code], [504, "TOTAL_TIMEOUT"]);
    held.release();
  });
});

test("a source that hangs past the collect timeout is skipped and named; all hanging is COLLECT_TIMEOUT", async () => {
  const hang = new Promise<void>(() => undefined);
  await withDaemon({ env: { INSIGHTS_COLLECT_TIMEOUT_SECONDS: "1" }, daemon: { snapshotSeams: { refresh: (job) => (job === "gateway" ? hang : Promise.resolve()) } } }, async (d) => {
    const res = await snap(d, { format: "json", detail: "full" });
    assert.is(res.status, 200);
    assert.is(res.headers.get("x-snapshot-degraded-sources"), "gateway");
    const card = (await res.json()) as CardModel;
    assert.equal(card.degradedSources, ["gateway"]);
    const oc = card.providers.find((b) => b.provider === "openclaw");
    assert.equal([oc?.provider === "openclaw" && oc.gateway.state, oc?.provider === "openclaw" && oc.gateway.running], ["UNKNOWN", null], "the skipped source is unknown on the card, not stopped");
    assert.is(card.verdict, null, "no verdict without the gateway's state");
    assert.ok((oc?.summary.tokens ?? 0) > 0, "the other sources still fill the card");
  });
  await withDaemon({ env: { INSIGHTS_COLLECT_TIMEOUT_SECONDS: "1" }, daemon: { snapshotSeams: { refresh: () => hang } } }, async (d) => {
    const r = await errorOf(await snap(d, {}));
    assert.equal([r.status, r.code], [504, "COLLECT_TIMEOUT"]);
  });
});

test("RENDER_FAILED when the renderer fails; JSON needs no renderer", async () => {
  const render = async (): Promise<Buffer> => {
    throw new Error("resvg: out of memory");
  };
  await withDaemon({ daemon: { snapshotSeams: { render } } }, async (d) => {
    const r = await errorOf(await snap(d, { format: "svg" }));
    assert.equal([r.status, r.code], [500, "RENDER_FAILED"]);
    assert.match(r.message, /out of memory/);
    assert.is((await snap(d, { format: "json" })).status, 200);
  });
});

test("an oversized card steps down the detail (X-Snapshot-Degraded); too large at every level is 413", async () => {
  // An oversized fixture: the full card lists the event log, and these lines are long and full of
  // CJK text, whose glyph outlines make the full SVG far larger than the standard one.
  const grow = (dir: string): void => {
    const lines: string[] = [];
    for (let i = 0; i < 40; i++) {
      const msg = `网关错误 ${i}: 渠道连接失败，重试队列已满，会话写入缓慢，磁盘空间不足，模型响应超时，请检查配置与网络连接状态 ${"数据".repeat(20)}`;
      lines.push(JSON.stringify({ "0": '{"subsystem":"gateway/health-monitor"}', "1": msg, _meta: { logLevelName: i % 2 ? "WARN" : "ERROR" }, time: `2026-11-21T23:1${i % 10}:00.000+00:00`, message: msg }));
    }
    appendFileSync(join(dir, "logs", "openclaw-2026-11-21.log"), lines.join("\n") + "\n");
  };
  // Three renders of a large CJK card in a row: on a loaded machine they outlast the default 15 s
  // total budget (504), which is not what this test is about.
  const slow = { INSIGHTS_TOTAL_TIMEOUT_SECONDS: "300" };
  let sizes = { full: 0, standard: 0, compact: 0 };
  await withDaemon({ env: slow }, async (d) => {
    grow(d.openclawDir);
    await pollUntil(async () => {
      const r = (await (await snap(d, { format: "json" })).json()) as CardModel;
      return (r.providers[0]?.summary.errors ?? 0) >= 20;
    }, { what: "the added log lines" });
    for (const detail of ["full", "standard", "compact"] as const) {
      const res = await snap(d, { detail, format: "svg", lang: "zh" });
      sizes = { ...sizes, [detail]: Buffer.from(await res.arrayBuffer()).length };
    }
  });
  assert.ok(sizes.full > sizes.standard && sizes.standard > sizes.compact, JSON.stringify(sizes));
  const between = Math.floor((sizes.full + sizes.standard) / 2);
  await withDaemon({ env: { ...slow, INSIGHTS_SNAPSHOT_MAX_BYTES: String(between) } }, async (d) => {
    grow(d.openclawDir);
    await pollUntil(async () => (((await (await snap(d, { format: "json" })).json()) as CardModel).providers[0]?.summary.errors ?? 0) >= 20, { what: "the added log lines" });
    const res = await snap(d, { detail: "full", format: "svg", lang: "zh" });
    assert.is(res.status, 200);
    assert.is(res.headers.get("x-snapshot-degraded"), "full->standard");
    assert.match(res.headers.get("content-disposition") ?? "", /insights-standard-/);
    assert.ok(Buffer.from(await res.arrayBuffer()).length <= between);
  });
  await withDaemon({ env: { ...slow, INSIGHTS_SNAPSHOT_MAX_BYTES: "1024" } }, async (d) => {
    const r = await errorOf(await snap(d, { detail: "full" }));
    assert.equal([r.status, r.code], [413, "PAYLOAD_TOO_LARGE"]);
  });
});

test("GATEWAY_UNREACHABLE when neither the gateway nor its state dir can be read", async () => {
  const d = await startDaemon({ fixture: FILES_FIXTURE });
  try {
    const { rmSync } = await import("node:fs");
    rmSync(d.openclawDir, { recursive: true, force: true });
    await pollUntil(async () => {
      const res = await snap(d, { format: "json" });
      return res.status === 502 ? errorOf(res) : null;
    }, { what: "GATEWAY_UNREACHABLE" }).then((r) => assert.is(r.code, "GATEWAY_UNREACHABLE"));
  } finally {
    await d.stop();
  }
});

test("auth: a bearer token is required; in no-auth mode only loopback peers", async () => {
  await withDaemon({}, async (d) => {
    const res = await fetch(`${d.url}/api/snapshot`, { method: "POST", body: "{}" });
    assert.is(res.status, 401);
  });
  await withDaemon({ env: { INSIGHTS_NO_AUTH: "true" }, peerOf: (req) => (req.headers["x-test-peer"] as string | undefined) ?? req.socket.remoteAddress }, async (d) => {
    assert.is((await fetch(`${d.url}/api/snapshot`, { method: "POST", body: JSON.stringify({ format: "json" }) })).status, 200);
    const remote = await fetch(`${d.url}/api/snapshot`, { method: "POST", body: "{}", headers: { "x-test-peer": "192.0.2.10" } });
    assert.is(remote.status, 403);
    assert.is(((await remote.json()) as { code: string }).code, "FORBIDDEN_REMOTE");
  });
});

test.run();
