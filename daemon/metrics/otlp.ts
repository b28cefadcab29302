// The optional OTLP push (config otlpEndpoint, docs/fleet.md "OTLP push"): the families of GET
// /metrics, sent every otlpIntervalSeconds to an OpenTelemetry Collector over OTLP/HTTP (JSON),
// through the maintained OpenTelemetry JS SDK. Every family becomes an observable instrument whose
// callback reports the figures of the latest exposition, so the push and a scrape never disagree:
// gauges as gauges, counters (read from the store's lifetime totals) as cumulative monotonic sums,
// named without `_total` (OTel's Prometheus exporters add it back).
//
// The daemon imports this module, and through it the SDK, only when otlpEndpoint is set: nobody
// else pays for loading it (the CLI never does).
import { OTLPMetricExporter } from "@opentelemetry/exporter-metrics-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { AggregationTemporality, MeterProvider, PeriodicExportingMetricReader, type PushMetricExporter, type ResourceMetrics } from "@opentelemetry/sdk-metrics";
import type { ObservableResult } from "@opentelemetry/api";
import type { Logger } from "../../shared/base/log/logger.js";
import type { Family } from "./exposition.js";

interface OtlpPushOptions {
  /** The Collector's OTLP/HTTP metrics URL (`http://127.0.0.1:4318/v1/metrics`). */
  endpoint: string;
  intervalMs: number;
  /** host.name and service.instance.id of the resource. */
  hostName: string;
  version: string;
  /** The families of one exposition, built when the SDK collects. */
  families: () => readonly Family[];
  logger: Pick<Logger, "warn" | "info" | "debug">;
}

export interface OtlpPush {
  /** Sends what is collected now (tests, and the last push on stop). */
  flush(): Promise<void>;
  /**
   * A last push, then stops; never throws. Resolves true once done, or false after `withinMs` with
   * the push still out (it is abandoned: nothing waits for it, and it holds nothing open).
   */
  stop(withinMs?: number): Promise<boolean>;
}

/** An exposition is built at most once per collection: every instrument's callback asks within a few ms. */
const SNAPSHOT_MS = 1000;

/** The OTLP name of a family: a counter without Prometheus' `_total`. */
function otlpName(f: Pick<Family, "name" | "type">): string {
  return f.type === "counter" && f.name.endsWith("_total") ? f.name.slice(0, -"_total".length) : f.name;
}

export function startOtlpPush(o: OtlpPushOptions): OtlpPush {
  const exporter = new LoggingExporter(
    new OTLPMetricExporter({ url: o.endpoint, temporalityPreference: AggregationTemporality.CUMULATIVE, timeoutMillis: Math.min(10_000, o.intervalMs) }),
    o.logger,
    o.endpoint,
  );
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: o.intervalMs, exportTimeoutMillis: Math.min(10_000, o.intervalMs) });
  const provider = new MeterProvider({
    resource: resourceFromAttributes({ "service.name": "gateway-insights", "service.version": o.version, "service.instance.id": o.hostName, "host.name": o.hostName }),
    readers: [reader],
  });
  const meter = provider.getMeter("gateway-insights", o.version);

  let snapshot: { at: number; byName: Map<string, Family> } | null = null;
  const current = (): Map<string, Family> => {
    const now = Date.now();
    if (snapshot && now - snapshot.at < SNAPSHOT_MS) return snapshot.byName;
    const byName = new Map<string, Family>();
    try {
      for (const f of o.families()) byName.set(f.name, f);
    } catch (err) {
      // A store that cannot be read now: this push is empty, the next one tries again.
      o.logger.warn("OTLP push: reading the figures failed", { error: err instanceof Error ? err.message : String(err) });
    }
    snapshot = { at: now, byName };
    // A family that appeared since (render figures, a provider's first source) gets its instrument now; it is sent from the next push on.
    for (const f of byName.values()) instrument(f);
    return byName;
  };
  const made = new Set<string>();
  const instrument = (f: Family): void => {
    if (made.has(f.name)) return;
    made.add(f.name);
    const options = { description: f.help };
    const observable = f.type === "counter" ? meter.createObservableCounter(otlpName(f), options) : meter.createObservableGauge(otlpName(f), options);
    observable.addCallback((result: ObservableResult) => {
      const family = current().get(f.name);
      for (const s of family?.samples ?? []) result.observe(s.value, s.labels);
    });
  };
  current();
  o.logger.info("OTLP push on", { endpoint: o.endpoint, intervalSeconds: o.intervalMs / 1000 });

  let stopped: Promise<boolean> | null = null;
  return {
    flush: () => provider.forceFlush(),
    stop(withinMs = Infinity) {
      stopped ??= provider.shutdown().then(
        () => true,
        (err: unknown) => {
          o.logger.warn("OTLP push: the last push failed", { error: err instanceof Error ? err.message : String(err) });
          return true;
        },
      );
      if (!Number.isFinite(withinMs)) return stopped;
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), withinMs);
        // The timer must not keep a stopping daemon alive by itself.
        timer.unref();
      });
      return Promise.race([stopped, late]).finally(() => clearTimeout(timer));
    },
  };
}

/** The SDK's exporter, with each failed push said in the daemon log (the SDK itself would only tell its diag logger, which is off). */
class LoggingExporter implements PushMetricExporter {
  private failing = false;

  constructor(
    private readonly inner: OTLPMetricExporter,
    private readonly logger: Pick<Logger, "warn" | "info">,
    private readonly endpoint: string,
  ) {}

  export(metrics: ResourceMetrics, resultCallback: Parameters<PushMetricExporter["export"]>[1]): void {
    this.inner.export(metrics, (result) => {
      // ExportResultCode.SUCCESS is 0.
      if (result.code !== 0) {
        this.logger.warn("OTLP push failed; the next one tries again", { endpoint: this.endpoint, error: result.error?.message ?? "unknown" });
        this.failing = true;
      } else if (this.failing) {
        this.logger.info("OTLP push works again", { endpoint: this.endpoint });
        this.failing = false;
      }
      resultCallback(result);
    });
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  selectAggregationTemporality(): AggregationTemporality {
    return AggregationTemporality.CUMULATIVE;
  }
}
