// What grew between two V8 heap snapshots (.heapsnapshot files, as `node --heapsnapshot-signal`
// writes them): live bytes and object counts per constructor (strings and code lumped together),
// largest growth first. The memory suite uses it under --mem-heap to say what a daemon's heap
// gained over 1,000 cards; it also runs alone:
//   node --import tsx bench/heap-diff.ts <before.heapsnapshot> <after.heapsnapshot> [top]
import * as fs from "node:fs";
import { pathToFileURL } from "node:url";

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

export interface HeapGroup {
  name: string;
  bytes: number;
  count: number;
}

/** Self size and count per "type:constructor" of one snapshot, and the total. */
export function heapGroups(file: string): { total: number; groups: Map<string, HeapGroup> } {
  const snap = JSON.parse(fs.readFileSync(file, "utf8")) as Snapshot;
  const fields = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const width = fields.length;
  const iType = fields.indexOf("type");
  const iName = fields.indexOf("name");
  const iSize = fields.indexOf("self_size");
  const groups = new Map<string, HeapGroup>();
  let total = 0;
  for (let i = 0; i < snap.nodes.length; i += width) {
    const type = types[snap.nodes[i + iType] as number] ?? "?";
    const size = snap.nodes[i + iSize] as number;
    total += size;
    const lumped = type.endsWith("string") ? "(strings)" : type === "code" ? "(code)" : type === "number" ? "(numbers)" : null;
    const name = lumped ?? `${type}:${(snap.strings[snap.nodes[i + iName] as number] ?? "").slice(0, 60)}`;
    const g = groups.get(name) ?? { name, bytes: 0, count: 0 };
    g.bytes += size;
    g.count++;
    groups.set(name, g);
  }
  return { total, groups };
}

export interface HeapDiff {
  beforeMb: number;
  afterMb: number;
  /** Groups by growth in bytes, largest first (shrinking ones last). */
  changes: Array<{ name: string; bytes: number; count: number }>;
}

export function diffHeaps(beforeFile: string, afterFile: string): HeapDiff {
  const a = heapGroups(beforeFile);
  const b = heapGroups(afterFile);
  const names = new Set([...a.groups.keys(), ...b.groups.keys()]);
  const changes = [...names].map((name) => {
    const x = a.groups.get(name);
    const y = b.groups.get(name);
    return { name, bytes: (y?.bytes ?? 0) - (x?.bytes ?? 0), count: (y?.count ?? 0) - (x?.count ?? 0) };
  });
  changes.sort((p, q) => q.bytes - p.bytes);
  return { beforeMb: a.total / 1e6, afterMb: b.total / 1e6, changes };
}

export function formatDiff(d: HeapDiff, top = 15): string {
  const row = (c: HeapDiff["changes"][number]): string => `  ${(c.bytes >= 0 ? "+" : "") + (c.bytes / 1e6).toFixed(2)} MB  ${(c.count >= 0 ? "+" : "") + c.count} objects  ${c.name}`;
  return [`live heap ${d.beforeMb.toFixed(1)} -> ${d.afterMb.toFixed(1)} MB; grew most:`, ...d.changes.slice(0, top).map(row), "shrank most:", ...d.changes.slice(-5).reverse().map(row)].join("\n");
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [before, after, top] = process.argv.slice(2);
  if (!before || !after) {
    process.stderr.write("usage: node --import tsx bench/heap-diff.ts <before.heapsnapshot> <after.heapsnapshot> [top]\n");
    process.exit(2);
  }
  process.stdout.write(`${formatDiff(diffHeaps(before, after), Number(top ?? 15))}\n`);
}
