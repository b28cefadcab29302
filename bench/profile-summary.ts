// Reads a .cpuprofile (Chrome DevTools format, as node's inspector writes it) and says where the
// time went: self time per function, inclusive time per function, self time per file.
//   node --import tsx bench/profile-summary.ts <file.cpuprofile> [top]
import * as fs from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { REPO_ROOT } from "./paths.js";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
}

function shortUrl(url: string): string {
  const prefix = pathToFileURL(REPO_ROOT).href + "/";
  let u = url.startsWith(prefix) ? url.slice(prefix.length) : url;
  // Children run bench code from .tmp/bench/js and shared code through a symlink into dist/.
  u = u.replace(/^\.tmp\/bench\/js(?:-[a-z]+)?\//, "");
  return u.replace(/^file:\/\/\/.*\/node_modules\//, "node_modules/");
}

function label(n: ProfileNode): string {
  const f = n.callFrame;
  if (!f.url) return f.functionName || "(anonymous)";
  return `${f.functionName || "(anonymous)"}  ${shortUrl(f.url)}:${f.lineNumber + 1}`;
}

export interface ProfileSummary {
  totalMs: number;
  self: Array<{ name: string; ms: number }>;
  inclusive: Array<{ name: string; ms: number }>;
  files: Array<{ name: string; ms: number }>;
}

export function summarize(file: string, top = 15): ProfileSummary {
  const p = JSON.parse(fs.readFileSync(file, "utf8")) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const totalMs = (p.endTime - p.startTime) / 1000;
  const perSample = p.samples.length ? totalMs / p.samples.length : 0;
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const files = new Map<string, number>();
  const add = (m: Map<string, number>, k: string): void => {
    m.set(k, (m.get(k) ?? 0) + perSample);
  };
  for (const id of p.samples) {
    const node = byId.get(id);
    if (!node) continue;
    add(self, label(node));
    add(files, node.callFrame.url ? shortUrl(node.callFrame.url) : label(node));
    // Each function once per sample, however often it recurses.
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const n = byId.get(cur);
      if (!n || n.callFrame.functionName === "(root)") continue;
      const k = label(n);
      if (!seen.has(k)) {
        seen.add(k);
        add(inclusive, k);
      }
    }
  }
  const topOf = (m: Map<string, number>): Array<{ name: string; ms: number }> =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, ms]) => ({ name, ms }));
  return { totalMs, self: topOf(self), inclusive: topOf(inclusive), files: topOf(files) };
}

/** Samples with their time (µs, the profile's monotonic clock) and their stack, leaf first. */
function timedStacks(p: Profile): Array<{ t: number; stack: ProfileNode[] }> {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const deltas = (p as Profile & { timeDeltas?: number[] }).timeDeltas ?? [];
  const out: Array<{ t: number; stack: ProfileNode[] }> = [];
  let t = p.startTime;
  for (let i = 0; i < p.samples.length; i++) {
    t += deltas[i] ?? 0;
    const stack: ProfileNode[] = [];
    for (let cur: number | undefined = p.samples[i]; cur !== undefined; cur = parent.get(cur)) {
      const n = byId.get(cur);
      if (n && n.callFrame.functionName !== "(root)") stack.push(n);
    }
    out.push({ t, stack });
  }
  return out;
}

/**
 * What ran during given stretches of time (event-loop stalls, µs on the profile's clock, which is
 * process.hrtime's): per stretch, the functions on the stack for most of it (inclusive time).
 */
export function summarizeWindows(file: string, windows: ReadonlyArray<{ startUs: number; endUs: number; cpuMs?: number | null; waitMs?: number | null }>, top = 10): string {
  const p = JSON.parse(fs.readFileSync(file, "utf8")) as Profile;
  const samples = timedStacks(p);
  const lines: string[] = [];
  for (const w of windows) {
    const inside = samples.filter((s) => s.t >= w.startUs && s.t <= w.endUs);
    const ms = (w.endUs - w.startUs) / 1000;
    if (inside.length === 0) {
      lines.push(`  stall of ${ms.toFixed(0)} ms: no samples (outside the profile)`);
      continue;
    }
    const per = ms / inside.length;
    const incl = new Map<string, number>();
    for (const s of inside) {
      const seen = new Set<string>();
      for (const n of s.stack) {
        const k = label(n);
        if (seen.has(k)) continue;
        seen.add(k);
        incl.set(k, (incl.get(k) ?? 0) + per);
      }
    }
    const split = typeof w.cpuMs === "number" && typeof w.waitMs === "number" ? `; ${w.cpuMs.toFixed(0)} ms on the CPU, ${w.waitMs.toFixed(0)} ms waiting for a core` : "";
    lines.push(`  stall of ${ms.toFixed(0)} ms (${inside.length} samples${split}), inclusive time:`);
    for (const [name, t] of [...incl.entries()].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`    ${t.toFixed(0).padStart(6)} ms  ${name}`);
  }
  return lines.join("\n");
}

export function formatSummary(title: string, s: ProfileSummary): string {
  const lines = [`${title}: ${(s.totalMs / 1000).toFixed(1)} s profiled`];
  const section = (name: string, rows: Array<{ name: string; ms: number }>): void => {
    lines.push(`  ${name}`);
    for (const r of rows) lines.push(`    ${((100 * r.ms) / s.totalMs).toFixed(1).padStart(5)}%  ${(r.ms / 1000).toFixed(2).padStart(7)} s  ${r.name}`);
  };
  section("self time by function", s.self);
  section("inclusive time by function", s.inclusive);
  section("self time by file", s.files);
  return lines.join("\n");
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const file = process.argv[2];
  if (!file) throw new Error("usage: profile-summary.ts <file.cpuprofile> [top]");
  process.stdout.write(`${formatSummary(path.basename(file), summarize(file, Number(process.argv[3] ?? 15)))}\n`);
}
