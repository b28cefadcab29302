// Liveness and readiness of the gateway over its unauthenticated HTTP endpoints (openclaw-formats.md §6):
//   GET /healthz -> {"ok":true,"status":"live"}
//   GET /readyz  -> {"ready":true,"failing":[],"uptimeMs":276346,"eventLoop":{"degraded":false,"reasons":[],
//                    "delayP99Ms":20.4,"utilization":0.005,…}}
// A not-ready gateway may answer /readyz with a non-2xx status and the same JSON body; that is a valid
// answer (ready: false), not an error. Connection refused, timeouts and unreadable bodies are SourceErrors.
import { performance } from "node:perf_hooks";
import { SourceError, fail, ok } from "../../result.js";
import type { SourceResult } from "../../result.js";
import type { GatewayProbe } from "../../gateway-contract.js";

// The probe's answer is the contract's (the monitor's test seam takes it).
export type { GatewayProbe };
export type LiveResult = GatewayProbe["live"];
export type ReadyResult = NonNullable<GatewayProbe["ready"]>;

export const DEFAULT_GATEWAY_PORT = 18789;

export function gatewayBaseUrl(port: number = DEFAULT_GATEWAY_PORT, host = "127.0.0.1"): string {
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}

export interface ProbeOptions {
  /** Per request; default 3000 ms. */
  timeoutMs?: number;
  /** Injected for tests; defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Monotonic ms for round-trip timing; defaults to performance.now. */
  now?: () => number;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.map((x) => (typeof x === "string" ? x : isObj(x) && typeof x.name === "string" ? x.name : JSON.stringify(x))) : [];

function errorCode(err: unknown): string | undefined {
  // undici wraps the socket error: TypeError("fetch failed", { cause: { code: "ECONNREFUSED" } }).
  const direct = (err as { code?: unknown } | null)?.code;
  if (typeof direct === "string") return direct;
  const cause = (err as { cause?: { code?: unknown } } | null)?.cause;
  return typeof cause?.code === "string" ? cause.code : undefined;
}

/** GET `url`, parse JSON; every failure mapped onto a SourceError kind. */
async function getJson(url: string, opts: ProbeOptions): Promise<SourceResult<{ body: Obj; httpStatus: number; roundTripMs: number }>> {
  const timeoutMs = opts.timeoutMs ?? 3000;
  const doFetch = opts.fetch ?? fetch;
  const now = opts.now ?? (() => performance.now());
  const started = now();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const res = await doFetch(url, { signal: controller.signal, headers: { accept: "application/json" }, redirect: "manual" });
    const raw = await res.text();
    const roundTripMs = now() - started;
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      return fail(new SourceError("corrupt", `${url}: HTTP ${res.status} with a non-JSON body`, { url, httpStatus: res.status }));
    }
    if (!isObj(body)) return fail(new SourceError("corrupt", `${url}: HTTP ${res.status}, body is not a JSON object`, { url, httpStatus: res.status }));
    return ok({ body, httpStatus: res.status, roundTripMs });
  } catch (err) {
    if (controller.signal.aborted) return fail(new SourceError("timeout", `${url}: no answer within ${timeoutMs} ms`, { url, timeoutMs }, { cause: err }));
    const code = errorCode(err);
    return fail(new SourceError("unreachable", `${url}: ${code ?? (err instanceof Error ? err.message : String(err))}`, { url, code }, { cause: err }));
  } finally {
    clearTimeout(timer);
  }
}

/** GET /healthz. `live` is true only for a 2xx answer with `ok: true`. */
export async function probeLive(baseUrl: string, opts: ProbeOptions = {}): Promise<SourceResult<LiveResult>> {
  const r = await getJson(new URL("/healthz", baseUrl).href, opts);
  if (!r.ok) return r;
  const { body, httpStatus, roundTripMs } = r.value;
  return ok({
    live: httpStatus >= 200 && httpStatus < 300 && body.ok === true,
    status: typeof body.status === "string" ? body.status : null,
    httpStatus,
    roundTripMs,
  });
}

/** GET /readyz. A body without a boolean `ready` is corrupt, whatever the status code. */
export async function probeReady(baseUrl: string, opts: ProbeOptions = {}): Promise<SourceResult<ReadyResult>> {
  const url = new URL("/readyz", baseUrl).href;
  const r = await getJson(url, opts);
  if (!r.ok) return r;
  const { body, httpStatus, roundTripMs } = r.value;
  if (typeof body.ready !== "boolean") return fail(new SourceError("corrupt", `${url}: no boolean "ready" in the answer`, { url, httpStatus }));
  const loop = isObj(body.eventLoop) ? body.eventLoop : {};
  return ok({
    ready: body.ready && httpStatus >= 200 && httpStatus < 300,
    failing: strings(body.failing),
    uptimeMs: num(body.uptimeMs),
    eventLoop: {
      degraded: typeof loop.degraded === "boolean" ? loop.degraded : null,
      delayP99Ms: num(loop.delayP99Ms),
      utilization: num(loop.utilization),
      reasons: strings(loop.reasons),
    },
    httpStatus,
    roundTripMs,
  });
}

/** Both probes in parallel. Fails only when /healthz fails (the gateway is then down or unreachable). */
export async function probeGateway(baseUrl: string, opts: ProbeOptions = {}): Promise<SourceResult<GatewayProbe>> {
  const [live, ready] = await Promise.all([probeLive(baseUrl, opts), probeReady(baseUrl, opts)]);
  if (!live.ok) return live;
  return ok({ live: live.value, ready: ready.ok ? ready.value : null, readyError: ready.ok ? null : ready.error });
}
