// Tools the Claude Code and Codex demo generators share: they take real transcript lines from the
// reference fixtures as templates and rewrite what the fake model put in them, keeping every
// line's shape. Only the generators use this; nothing here runs at start.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { base62, hex, type Random } from "../../../shared/base/random.js";
export { uuidV7 } from "../../../shared/base/random.js";

export type Json = Record<string, unknown>;

const here = dirname(fileURLToPath(import.meta.url));
export const repoRoot = resolve(here, "..", "..", "..");

export function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** The reference fixtures folder holding `recording` ($GI_FIXTURES_DIR, ../shared/fixtures beside the checkout, /work/shared/fixtures). */
export function defaultFixtures(recording: string): string {
  const candidates = [process.env.GI_FIXTURES_DIR, join(repoRoot, "..", "shared", "fixtures"), "/work/shared/fixtures"].filter((d): d is string => !!d);
  const found = candidates.find((d) => existsSync(join(d, recording)));
  if (!found) throw new Error(`the recording ${recording} was not found; pass --fixtures DIR`);
  return found;
}

export function readJsonl(file: string): Json[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Json);
}

export function toJsonl(lines: readonly Json[]): string {
  return lines.map((l) => JSON.stringify(l)).join("\n") + "\n";
}

/** A deep copy with `fn` applied to every string value (keys stay). */
export function mapStrings(v: unknown, fn: (s: string) => string): unknown {
  if (typeof v === "string") return fn(v);
  if (Array.isArray(v)) return v.map((x) => mapStrings(x, fn));
  if (v !== null && typeof v === "object") {
    const out: Json = {};
    for (const [k, x] of Object.entries(v as Json)) out[k] = mapStrings(x, fn);
    return out;
  }
  return v;
}

/** Replaces each `from` by its `to` in every string value, longest `from` first (so a prompt goes before a word inside it). */
export function replaceAll(v: unknown, pairs: ReadonlyArray<readonly [string, string]>): unknown {
  const sorted = [...pairs].sort((a, b) => b[0].length - a[0].length);
  return mapStrings(v, (s) => {
    let out = s;
    for (const [from, to] of sorted) if (from !== "" && out.includes(from)) out = out.split(from).join(to);
    return out;
  });
}

/**
 * Shortens every string longer than `max` characters (keeping its start): how the generators keep
 * the 30-110 KB context lines of most sessions small while the lines stay valid and of their type.
 */
export function trimStrings(v: unknown, max: number): unknown {
  return mapStrings(v, (s) => (s.length > max ? `${s.slice(0, max)}…` : s));
}

/** trimStrings, and arrays cut to their first `maxItems` (tool schema lists, skill listings). */
export function trimDeep(v: unknown, maxString: number, maxItems: number): unknown {
  const cut = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.slice(0, maxItems).map(cut);
    if (x !== null && typeof x === "object") {
      const out: Json = {};
      for (const [k, y] of Object.entries(x as Json)) out[k] = cut(y);
      return out;
    }
    return x;
  };
  return trimStrings(cut(v), maxString);
}

const UUID_RE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/**
 * Gives every id of a template a new value, the same one wherever the id appears (parent links,
 * request references, file names), so a template can be used more than once without two sessions
 * sharing an id or a response key. `rules` name the id shapes besides UUIDs.
 */
export class IdMap {
  private readonly map = new Map<string, string>();

  constructor(
    private readonly random: Random,
    private readonly rules: ReadonlyArray<{ re: RegExp; make: (old: string, random: Random) => string }>,
    /** New UUIDs: random version 4 by default; Codex's are version 7 (time-ordered). */
    private readonly newUuid: (old: string) => string = () => v4(random),
  ) {}

  /** Every id in `text` replaced (ids never hold characters JSON escapes, so this works on JSON text). */
  apply(text: string): string {
    let out = text.replace(UUID_RE, (old) => this.get(old, () => this.newUuid(old)));
    for (const rule of this.rules) {
      out = out.replace(rule.re, (old) => this.get(old, () => rule.make(old, this.random)));
    }
    return out;
  }

  get(old: string, make: () => string): string {
    let v = this.map.get(old);
    if (v === undefined) {
      v = make();
      this.map.set(old, v);
    }
    return v;
  }
}

function v4(random: Random): string {
  const h = hex(random, 32).split("");
  h[12] = "4";
  h[16] = "89ab"[Math.floor(random() * 4)] as string;
  const s = h.join("");
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

/** A new id of the same look: the prefix kept, the rest drawn again (base62 or hex as the old one was). */
export function sameShape(prefix: string): (old: string, random: Random) => string {
  return (old, random) => {
    const rest = old.slice(prefix.length);
    return prefix + (/^[0-9a-f]+$/.test(rest) ? hex(random, rest.length) : base62(random, rest.length));
  };
}

/** Texts of the fake recordings that must never reach the bundle. */
export const MARKERS: readonly RegExp[] = [/@@[A-Z0-9_]+@@/, /\[\[[A-Z0-9_]+(?::[^\]]*)?\]\]/, /fake/i, /fixture/i, /127\.0\.0\.1/, /\/tmp\//, /example-op/];

/** Every file under `dir` (relative paths, `/`-separated). */
export function listFiles(dir: string, rel = ""): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...listFiles(dir, r));
    else out.push(r);
  }
  return out;
}

/** Fails naming the file and the text when a marker of the fake recording or a foreign path is left in `dir`. */
export function assertNoMarkers(dir: string, extra: readonly RegExp[] = []): void {
  for (const rel of listFiles(dir)) {
    const text = readFileSync(join(dir, rel), "latin1");
    for (const re of [...MARKERS, ...extra]) {
      const m = re.exec(text) ?? re.exec(rel);
      if (m) throw new Error(`${rel} still holds ${JSON.stringify(m[0])} (…${text.slice(Math.max(0, (m.index ?? 0) - 60), (m.index ?? 0) + 60)}…)`);
    }
    // Absolute paths other than the demo user's.
    const foreign = /"\/(?!home\/op\/)(?:home|root|Users|var|run|srv|opt)\/[^"]*"/.exec(text);
    if (foreign) throw new Error(`${rel} holds a path from another machine: ${foreign[0]}`);
  }
}

/** Bytes under `dir`, for the size report. */
export function treeBytes(dir: string): number {
  return listFiles(dir).reduce((n, rel) => n + statSync(join(dir, rel)).size, 0);
}

/** ISO time with milliseconds, as both CLIs write it. */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
