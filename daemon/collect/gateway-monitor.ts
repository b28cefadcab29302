// Samples the gateway on a timer: is it up, how fast does it answer. Each sample is stored (for
// uptime %) and the latest is kept in memory for /health and status. A dead or slow gateway only
// marks the state down; nothing here throws past the tick.
import type { Clock } from "../../shared/clock.js";
import type { Logger } from "../../shared/log/logger.js";
import type { Store } from "../../shared/store/store.js";

export interface GatewayProbe {
  up: boolean;
  latencyMs: number | null;
  error: string | null;
  pid?: number | null;
  cpuPercent?: number | null;
  rssMb?: number | null;
}

export interface GatewayState extends GatewayProbe {
  url: string | null;
  checkedAt: number | null;
}

export interface GatewayMonitorOptions {
  store: Store;
  clock: Clock;
  logger: Logger;
  /** null in demo mode: there is no gateway to probe. */
  url: string | null;
  intervalMs: number;
  probe?: (url: string) => Promise<GatewayProbe>;
  onChange?: (state: GatewayState) => void;
}

export class GatewayMonitor {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private current: GatewayState;
  private firstDone = false;

  constructor(private options: GatewayMonitorOptions) {
    this.current = { url: options.url, up: false, latencyMs: null, error: options.url ? null : "demo mode: no gateway", checkedAt: null };
  }

  get state(): GatewayState {
    return this.current;
  }

  /** True once the first probe has finished (or there is nothing to probe). */
  get ready(): boolean {
    return this.firstDone || this.options.url === null;
  }

  start(): void {
    if (this.options.url === null || this.timer) return;
    void this.tick();
    this.timer = setInterval(() => void this.tick(), this.options.intervalMs);
    this.timer.unref();
  }

  setInterval(ms: number): void {
    this.options = { ...this.options, intervalMs: ms };
    if (this.timer) {
      clearInterval(this.timer);
      this.timer = setInterval(() => void this.tick(), ms);
      this.timer.unref();
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One probe + sample; overlapping ticks are skipped (a slow gateway must not pile them up). */
  tick(): Promise<void> {
    if (this.running || this.options.url === null) return this.running ?? Promise.resolve();
    const url = this.options.url;
    this.running = (async () => {
      const probe = this.options.probe ?? probeHealthz;
      let result: GatewayProbe;
      try {
        result = await probe(url);
      } catch (err) {
        result = { up: false, latencyMs: null, error: err instanceof Error ? err.message : String(err) };
      }
      const now = this.options.clock.now();
      const before = this.current;
      this.current = { ...result, url, checkedAt: now };
      try {
        this.options.store.db
          .prepare("INSERT INTO gateway_samples (ts, up, pid, cpu_percent, rss_mb, latency_ms) VALUES (?, ?, ?, ?, ?, ?)")
          .run(now, result.up ? 1 : 0, result.pid ?? null, result.cpuPercent ?? null, result.rssMb ?? null, result.latencyMs);
      } catch (err) {
        this.options.logger.error("could not store gateway sample", { error: err instanceof Error ? err.message : String(err) });
      }
      if (before.up !== result.up || !this.firstDone) {
        if (result.up) this.options.logger.info("gateway is up", { url, latencyMs: result.latencyMs });
        else this.options.logger.warn("gateway is down", { url, error: result.error });
      }
      this.firstDone = true;
      this.options.onChange?.(this.current);
    })().finally(() => {
      this.running = null;
    });
    return this.running;
  }
}

/** GET <url>/healthz with a timeout; OpenClaw answers {"ok":true,"status":"live"}. */
export async function probeHealthz(url: string, timeoutMs = 3000): Promise<GatewayProbe> {
  const started = performance.now();
  try {
    const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(timeoutMs) });
    const body = (await res.json().catch(() => null)) as { ok?: unknown } | null;
    const latencyMs = Math.round((performance.now() - started) * 10) / 10;
    if (res.ok && body?.ok === true) return { up: true, latencyMs, error: null };
    return { up: false, latencyMs, error: `healthz answered ${res.status}` };
  } catch (err) {
    const name = err instanceof Error ? err.name : "";
    return { up: false, latencyMs: null, error: name === "TimeoutError" ? `no answer within ${timeoutMs} ms` : "connection refused or failed" };
  }
}
