// New ids shaped like the originals, from the seeded PRNG: a copy of a fixture line gets ids that
// look like the real ones (same prefix, length and alphabet) and are unique per copy.
import type { Rng } from "./random.js";

const HEX = "0123456789abcdef";
const B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

function draw(rng: Rng, alphabet: string, n: number): string {
  let s = "";
  for (let i = 0; i < n; i++) s += alphabet[Math.floor(rng.next() * alphabet.length)];
  return s;
}

export function hex(rng: Rng, n: number): string {
  return draw(rng, HEX, n);
}

/** A version-4 UUID. */
export function uuid4(rng: Rng): string {
  return `${hex(rng, 8)}-${hex(rng, 4)}-4${hex(rng, 3)}-${HEX[8 + Math.floor(rng.next() * 4)]}${hex(rng, 3)}-${hex(rng, 12)}`;
}

/** A version-7 UUID for the instant `ms` (Codex's session, turn and item ids carry their creation time). */
export function uuid7(rng: Rng, ms: number): string {
  const t = Math.max(0, Math.floor(ms)).toString(16).padStart(12, "0").slice(-12);
  return `${t.slice(0, 8)}-${t.slice(8, 12)}-7${hex(rng, 3)}-${HEX[8 + Math.floor(rng.next() * 4)]}${hex(rng, 3)}-${hex(rng, 12)}`;
}

/** The instant a version-7 UUID carries, or null for other versions. */
export function uuid7Ms(id: string): number | null {
  if (id[14] !== "7") return null;
  return Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
}

/**
 * A new id like `orig`: `msg_01…`, `req_011C…`, `toolu_01…` (base62 bodies, Claude Code) or
 * `resp_…`, `rs_…`, `fc_…`, `call_…` (hex bodies, Codex), or a bare hex id (a sub-agent id). The
 * prefix and the body's fixed head are kept, the rest is drawn.
 */
export function likeId(rng: Rng, orig: string): string {
  const us = orig.indexOf("_");
  const prefix = us >= 0 ? orig.slice(0, us + 1) : "";
  const body = orig.slice(prefix.length);
  if (/^[0-9a-f]+$/.test(body)) return prefix + hex(rng, body.length);
  const head = prefix === "req_" ? 4 : 2; // req_011C…, msg_01…, toolu_01…
  return prefix + body.slice(0, head) + draw(rng, B62, body.length - head);
}
