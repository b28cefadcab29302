// The optional OTLP push (otlpEndpoint) against a local OTLP/HTTP receiver that decodes what the
// OpenTelemetry SDK sends as JSON: the same figures as a GET /metrics scrape (counters as
// cumulative monotonic sums named without `_total`, gauges as gauges, labels as attributes), a
// resource naming the daemon, a last push on stop, and a Collector that is down costs only a
// warning in the log.
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { removeTempDirs } from "./helpers/openclaw-fixtures.js";
import { freePort } from "./helpers/cli.js";
import { startDaemon } from "./helpers/daemon.js";
import { scrape, type PromSample } from "./helpers/prometheus.js";

test.after(removeTempDirs);

interface KeyValue {
  key: string;
  value: { stringValue?: string; intValue?: string | number; doubleValue?: number };
}
interface DataPoint {
  attributes?: KeyValue[];
  asDouble?: number;
  asInt?: string | number;
}
interface OtlpMetric {
  name: string;
  description?: string;
  sum?: { dataPoints: DataPoint[]; aggregationTemporality: number; isMonotonic: boolean };
  gauge?: { dataPoints: DataPoint[] };
}
interface OtlpBody {
  resourceMetrics: Array<{ resource: { attributes: KeyValue[] }; scopeMetrics: Array<{ scope: { name: string }; metrics: OtlpMetric[] }> }>;
}

/** A receiver of OTLP/HTTP JSON: every body it was sent, decoded. */
async function receiver(): Promise<{ url: string; bodies: OtlpBody[]; contentTypes: string[]; server: Server }> {
  const bodies: OtlpBody[] = [];
  const contentTypes: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      contentTypes.push(String(req.headers["content-type"]));
      bodies.push(JSON.parse(Buffer.concat(chunks).toString("utf8")) as OtlpBody);
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{}");
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${port}/v1/metrics`, bodies, contentTypes, server };
}

async function until<T>(what: string, fn: () => T | undefined, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const attrs = (kvs: KeyValue[] | undefined): Record<string, string> => Object.fromEntries((kvs ?? []).map((kv) => [kv.key, String(kv.value.stringValue ?? kv.value.intValue ?? kv.value.doubleValue)]));
const valueOf = (p: DataPoint): number => Number(p.asDouble ?? p.asInt);
const metricsOf = (b: OtlpBody): OtlpMetric[] => b.resourceMetrics.flatMap((r) => r.scopeMetrics.flatMap((s) => s.metrics));
/** A series key: name plus sorted labels, empty label values dropped (Prometheus treats them as absent). */
const seriesKey = (name: string, labels: Record<string, string>): string =>
  `${name}${JSON.stringify(Object.entries(labels).filter(([, v]) => v !== "").sort(([a], [b]) => (a < b ? -1 : 1)))}`;

test("the push carries the scrape's figures: counters as cumulative monotonic sums, gauges as gauges", async () => {
  const r = await receiver();
  const d = await startDaemon({ env: { INSIGHTS_OTLP_ENDPOINT: r.url, INSIGHTS_HOST_NAME: "otlp-box" }, daemon: { otlpIntervalMs: 200 } });
  try {
    // Wait until the first scan is in the store (the tokens counter has its figures).
    let samples: PromSample[] = [];
    const deadline = Date.now() + 30_000;
    for (;;) {
      samples = await scrape(d);
      if (samples.some((s) => s.name === "insights_tokens_total" && s.value > 0) && d.daemon.model.ready) break;
      assert.ok(Date.now() < deadline, "the fixture's usage shows in /metrics");
      await new Promise((res) => setTimeout(res, 50));
    }
    samples = await scrape(d);
    const pushed = await until("a push with the same token figures", () => {
      for (const b of [...r.bodies].reverse()) {
        const m = metricsOf(b).find((x) => x.name === "insights_tokens");
        const sum = m?.sum?.dataPoints.reduce((n, p) => n + valueOf(p), 0);
        const want = samples.filter((s) => s.name === "insights_tokens_total").reduce((n, s) => n + s.value, 0);
        if (sum === want) return b;
      }
      return undefined;
    });
    assert.ok(r.contentTypes.every((t) => t.startsWith("application/json")), "OTLP/HTTP with JSON");
    const res = attrs(pushed.resourceMetrics[0]?.resource.attributes);
    assert.is(res["service.name"], "gateway-insights");
    assert.is(res["host.name"], "otlp-box");
    assert.is(res["service.instance.id"], "otlp-box");
    assert.ok(res["service.version"]);

    const metrics = new Map(metricsOf(pushed).map((m) => [m.name, m]));
    // Figures that do not move while the test runs, series by series.
    for (const family of ["insights_tokens_total", "insights_cost_usd_total", "insights_responses_total", "openclaw_tokens_total", "openclaw_cost_usd_total", "insights_sessions", "insights_build_info", "openclaw_health_check_status"]) {
      const counter = family.endsWith("_total");
      const m = metrics.get(counter ? family.slice(0, -"_total".length) : family);
      assert.ok(m, `${family} is pushed`);
      if (counter) {
        assert.ok(m.sum, `${family}: a sum`);
        assert.is(m.sum.isMonotonic, true, family);
        assert.is(m.sum.aggregationTemporality, 2, `${family}: cumulative`);
      } else assert.ok(m.gauge, `${family}: a gauge`);
      const points = new Map((m.sum ?? m.gauge)?.dataPoints.map((p) => [seriesKey(family, attrs(p.attributes)), valueOf(p)]));
      const want = samples.filter((s) => s.name === family);
      assert.ok(want.length > 0, `${family} has samples`);
      assert.is(points.size, want.length, `${family}: one point per series`);
      for (const s of want) assert.is(points.get(seriesKey(family, s.labels)), s.value, seriesKey(family, s.labels));
    }
    // Every family of the scrape is pushed (those with samples).
    for (const name of new Set(samples.map((s) => s.name))) {
      const counter = name.endsWith("_total");
      assert.ok(metrics.has(counter ? name.slice(0, -"_total".length) : name) || name.startsWith("insights_render"), `${name} is pushed`);
    }
    assert.match(metrics.get("insights_tokens")?.description ?? "", /Tokens used/);
  } finally {
    const before = r.bodies.length;
    await d.stop();
    assert.ok(r.bodies.length > before, "a last push on stop");
    r.server.close();
  }
});

test("a Collector that is down: the daemon serves on and says so in its log", async () => {
  const port = await freePort();
  const d = await startDaemon({ env: { INSIGHTS_OTLP_ENDPOINT: `http://127.0.0.1:${port}/v1/metrics` }, daemon: { otlpIntervalMs: 200 } });
  try {
    await until("a warning in the log", () => (readFileSync(d.paths.logFile, "utf8").includes("OTLP push failed") ? true : undefined));
    assert.is((await fetch(`${d.url}/health`)).status, 200);
    assert.ok((await scrape(d)).length > 0);
  } finally {
    await d.stop();
  }
});

test("a Collector that is down: the last push on stop ends with the grace period, not the SDK's 10 s of retries", async () => {
  const port = await freePort();
  // A long interval: the SDK's export timeout is then its cap (10 s), and no periodic push runs.
  const d = await startDaemon({ env: { INSIGHTS_OTLP_ENDPOINT: `http://127.0.0.1:${port}/v1/metrics`, INSIGHTS_SHUTDOWN_GRACE_SECONDS: "1" }, daemon: { otlpIntervalMs: 60_000 } });
  const started = Date.now();
  await d.stop({ keep: true });
  const took = Date.now() - started;
  const log = readFileSync(d.paths.logFile, "utf8");
  assert.match(log, /the last OTLP push did not finish within the grace period and was abandoned/);
  // The SDK alone retries a refused Collector for 10 s; the stop is bounded by the 1 s grace
  // (plus closing the rest), far below that even on a loaded machine.
  assert.ok(took < 8000, `the stop took ${took} ms`);
});

test.run();
