// Child process of the graphql and snapshot suites: autocannon's programmatic API against the
// daemon, after an uncounted warm-up. Runs on plain node (bench/child.ts), so the load generator
// is a process of its own, as a real client would be.
import autocannon from "autocannon";
import { childInput, reply } from "./child-reply.js";
import type { LoadInput, LoadResult } from "./load-protocol.js";

async function load(input: LoadInput): Promise<LoadResult> {
  // One counter for all connections: requests started close together get different bodies (the
  // snapshot queue shares identical requests in flight, which would not be a render each).
  let next = 0;
  const request: autocannon.Request = { method: input.method, headers: input.headers };
  if (input.bodies.length) {
    request.setupRequest = (req) => ({ ...req, body: input.bodies[next++ % input.bodies.length] as string });
  }
  const errorCodes: Record<string, number> = {};
  const serverMs: number[] = [];
  if (input.inspect) {
    request.onResponse = (status, body, _context, headers) => {
      if (status < 300) {
        // Raw header names, as the server wrote them.
        const name = Object.keys(headers ?? {}).find((k) => k.toLowerCase() === "x-snapshot-duration");
        const ms = name ? Number(headers?.[name]) : Number.NaN;
        if (Number.isFinite(ms)) serverMs.push(ms);
        return;
      }
      let code = "?";
      try {
        code = String((JSON.parse(body) as { code?: unknown }).code ?? "?");
      } catch {
        // not JSON
      }
      const key = `${status} ${code}`;
      errorCodes[key] = (errorCodes[key] ?? 0) + 1;
    };
  }
  const options: autocannon.Options = { url: input.url, connections: input.connections, timeout: input.timeoutS, requests: [request] };
  if (input.warmupS > 0) await autocannon({ ...options, duration: input.warmupS });
  next = 0;
  for (const k of Object.keys(errorCodes)) delete errorCodes[k];
  serverMs.length = 0;
  const r = await autocannon({ ...options, duration: input.durationS });
  const statusCodes: Record<string, number> = {};
  for (const [code, s] of Object.entries(r.statusCodeStats)) statusCodes[code] = s.count;
  const requests = Object.values(statusCodes).reduce((a, b) => a + b, 0);
  return {
    requests,
    durationS: r.duration,
    perSecond: requests / r.duration,
    latencyMs: { mean: r.latency.mean, p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99, max: r.latency.max },
    errors: r.errors,
    timeouts: r.timeouts,
    non2xx: r.non2xx,
    statusCodes,
    started: next,
    errorCodes,
    serverMs,
  };
}

reply(() => load(childInput<LoadInput>()));
