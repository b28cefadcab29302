// A small seeded PRNG (sfc32) and the draws the generator needs. Seeded so that one set of
// parameters always builds the same state dir: the cache key then names the content exactly.

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    this.a = 0x9e3779b9;
    this.b = 0x243f6a88;
    this.c = 0xb7e15162;
    this.d = seed >>> 0;
    for (let i = 0; i < 16; i++) this.next();
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.a >>>= 0;
    this.b >>>= 0;
    this.c >>>= 0;
    this.d >>>= 0;
    let t = (this.a + this.b) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.d = (this.d + 1) | 0;
    t = (t + this.d) | 0;
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError("pick from an empty list");
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** Log-normal with median 1: a few big sessions, many small ones, as real workloads have. */
  logNormal(sigma: number): number {
    // Box-Muller; 1 - next() keeps the log argument in (0, 1].
    const u = 1 - this.next();
    const v = this.next();
    return Math.exp(sigma * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v));
  }

  /** A version-4 shaped UUID (OpenClaw session and event ids in the SQLite era). */
  uuid(): string {
    const h = (n: number): string => {
      let s = "";
      for (let i = 0; i < n; i++) s += HEX[Math.floor(this.next() * 16)];
      return s;
    };
    return `${h(8)}-${h(4)}-4${h(3)}-${HEX[8 + Math.floor(this.next() * 4)]}${h(3)}-${h(12)}`;
  }

  /** An 8-hex short id (event ids in the file era, 2026.7.1). */
  hex8(): string {
    let s = "";
    for (let i = 0; i < 8; i++) s += HEX[Math.floor(this.next() * 16)];
    return s;
  }
}

const HEX = "0123456789abcdef";
