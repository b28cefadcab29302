// The Prometheus text exposition format (version 0.0.4): HELP and TYPE lines, then samples with
// escaped label values. Written here rather than with prom-client because every figure is read
// from the store at scrape time, which prom-client's increment-only counters do not model.

type MetricType = "counter" | "gauge";

export interface Sample {
  labels?: Record<string, string | number | null | undefined>;
  value: number | null | undefined;
}

/** One family as added: what the OTLP push (otlp.ts) sends, the same figures as the text. */
export interface Family {
  name: string;
  type: MetricType;
  help: string;
  /** Only samples with a value; label values as strings. */
  samples: Array<{ labels: Record<string, string>; value: number }>;
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;

function escapeLabel(v: string): string {
  return v.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');
}

/**
 * A figure without binary floating-point noise: a cost summed from many responses reads
 * 0.020444359999999998 where 0.02044436 is meant. Fractions keep 15 significant digits (what a
 * double holds exactly in decimal); whole numbers are left alone, so a large counter keeps every
 * digit. Rounding to a fixed number of digits never reorders two values, so counters stay monotonic.
 */
export function tidyValue(v: number): number {
  return Number.isFinite(v) && !Number.isInteger(v) ? Number(v.toPrecision(15)) : v;
}

function formatValue(v: number): string {
  if (Number.isNaN(v)) return "NaN";
  if (v === Infinity) return "+Inf";
  if (v === -Infinity) return "-Inf";
  return String(v);
}

export class Exposition {
  private readonly lines: string[] = [];
  private readonly seen = new Set<string>();
  private readonly added: Family[] = [];

  /** Adds one metric family; samples with a null value are left out (unknown is not zero). */
  metric(name: string, type: MetricType, help: string, samples: readonly Sample[]): this {
    if (!NAME.test(name)) throw new Error(`invalid metric name ${name}`);
    if (this.seen.has(name)) throw new Error(`metric ${name} added twice`);
    this.seen.add(name);
    this.lines.push(`# HELP ${name} ${help.replace(/\\/g, "\\\\").replace(/\n/g, "\\n")}`, `# TYPE ${name} ${type}`);
    const family: Family = { name, type, help, samples: [] };
    for (const s of samples) {
      if (s.value === null || s.value === undefined) continue;
      const value = tidyValue(s.value);
      const labels = Object.entries(s.labels ?? {}).filter((e): e is [string, string | number] => e[1] !== null && e[1] !== undefined);
      const text = labels.length ? `{${labels.map(([k, v]) => `${k}="${escapeLabel(String(v))}"`).join(",")}}` : "";
      this.lines.push(`${name}${text} ${formatValue(value)}`);
      family.samples.push({ labels: Object.fromEntries(labels.map(([k, v]) => [k, String(v)])), value });
    }
    this.added.push(family);
    return this;
  }

  /** The families in the order added. */
  families(): readonly Family[] {
    return this.added;
  }

  toString(): string {
    return this.lines.join("\n") + "\n";
  }
}
