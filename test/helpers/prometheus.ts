// Reads a daemon's GET /metrics (Prometheus text exposition 0.0.4) into samples, so end-to-end tests
// can compare its counters with what the provider's files say.
import type { TestDaemon } from "./daemon.js";

export interface PromSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** One exposition's samples (HELP and TYPE lines skipped); label values unescaped. */
export function parseExposition(text: string): PromSample[] {
  const out: PromSample[] = [];
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[l[1] as string] = (l[2] as string).replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c));
    }
    const raw = m[3] as string;
    out.push({ name: m[1] as string, labels, value: raw === "+Inf" ? Infinity : raw === "-Inf" ? -Infinity : Number(raw) });
  }
  return out;
}

/** GET /metrics with the daemon's token, parsed. */
export async function scrape(d: Pick<TestDaemon, "url" | "token">): Promise<PromSample[]> {
  const res = await fetch(`${d.url}/metrics`, { headers: { authorization: `Bearer ${d.token}` } });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`/metrics answered ${res.status}: ${text.slice(0, 300)}`);
  return parseExposition(text);
}

/** The sum of a family's samples whose labels include every given label. */
export function sumOf(samples: readonly PromSample[], name: string, labels: Record<string, string> = {}): number {
  return samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).reduce((n, s) => n + s.value, 0);
}
