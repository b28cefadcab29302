// A small seeded random source (mulberry32): the demo's content choices and timings are drawn
// from an injected `Random`, so a test can make a replay run the same way every time.
export type Random = () => number;

/** A deterministic generator in [0, 1) from a 32-bit seed. */
export function seededRandom(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An integer in [min, max]. */
export function between(random: Random, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

/** One element of a non-empty list. */
export function pick<T>(random: Random, list: readonly T[]): T {
  const item = list[Math.floor(random() * list.length)];
  if (item === undefined) throw new RangeError("pick from an empty list");
  return item;
}

/** `n` characters of [0-9A-Za-z]: the look of provider message ids (`msg_01…`). */
export function base62(random: Random, n: number): string {
  const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  let out = "";
  for (let i = 0; i < n; i++) out += alphabet[Math.floor(random() * alphabet.length)];
  return out;
}

/** `n` lowercase hex digits. */
export function hex(random: Random, n: number): string {
  let out = "";
  for (let i = 0; i < n; i++) out += Math.floor(random() * 16).toString(16);
  return out;
}

/** A version-4 UUID drawn from `random` (ids of demo events, sessions and runs). */
export function uuid(random: Random): string {
  const h = hex(random, 32).split("");
  h[12] = "4";
  h[16] = "89ab"[Math.floor(random() * 4)] as string;
  const s = h.join("");
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

/** A version-7 UUID (time-ordered, as Codex writes its ids) for epoch ms `ms`. */
export function uuidV7(random: Random, ms: number): string {
  const t = Math.max(0, Math.floor(ms)).toString(16).padStart(12, "0").slice(-12);
  const variant = "89ab"[Math.floor(random() * 4)] as string;
  return `${t.slice(0, 8)}-${t.slice(8, 12)}-7${hex(random, 3)}-${variant}${hex(random, 3)}-${hex(random, 12)}`;
}
