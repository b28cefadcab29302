// Prose for message bodies, made of the words of the real fixture texts. Text is assembled from a
// pool of pre-built sentences (fast: a GB of it takes seconds), word frequencies follow Zipf's law
// like natural language, so zstd finds about as much to squeeze out as in real replies.
import type { Rng } from "./random.js";

const POOL_SIZE = 20_000;

export class TextGen {
  private readonly pool: string[] = [];
  private readonly cumulative: number[] = [];
  private readonly words: string[];

  constructor(
    private readonly rng: Rng,
    vocabulary: readonly string[],
  ) {
    // Shuffle so the Zipf ranks do not follow the alphabet.
    const words = [...vocabulary];
    for (let i = words.length - 1; i > 0; i--) {
      const j = rng.int(0, i);
      [words[i], words[j]] = [words[j] as string, words[i] as string];
    }
    this.words = words;
    let sum = 0;
    for (let r = 1; r <= words.length; r++) this.cumulative.push((sum += 1 / r));
    for (let i = 0; i < POOL_SIZE; i++) this.pool.push(this.unit());
  }

  private word(): string {
    const total = this.cumulative[this.cumulative.length - 1] as number;
    const x = this.rng.next() * total;
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.cumulative[mid] as number) < x) lo = mid + 1;
      else hi = mid;
    }
    return this.words[lo] as string;
  }

  private sentence(): string {
    const n = this.rng.int(5, 22);
    const parts: string[] = [];
    for (let i = 0; i < n; i++) {
      const r = this.rng.next();
      if (r < 0.03) parts.push(`\`${this.word()}_${this.word()}\``);
      else if (r < 0.05) parts.push(String(this.rng.int(2, 4096)));
      else parts.push(this.word());
    }
    const first = parts[0] as string;
    parts[0] = first.charAt(0).toUpperCase() + first.slice(1);
    return parts.join(" ") + this.rng.pick([".", ".", ".", ".", "?", ":"]);
  }

  /** One paragraph, bullet list or code block, with its trailing blank line. */
  private unit(): string {
    const r = this.rng.next();
    if (r < 0.12) {
      const items: string[] = [];
      for (let i = this.rng.int(2, 5); i > 0; i--) items.push(`- ${this.sentence()}`);
      return `${items.join("\n")}\n\n`;
    }
    if (r < 0.2) {
      const lines: string[] = [];
      for (let i = this.rng.int(2, 8); i > 0; i--) lines.push(`  const ${this.word()}_${this.word()} = ${this.word()}(${this.word()}, ${this.rng.int(0, 99)});`);
      return `\`\`\`ts\n${lines.join("\n")}\n\`\`\`\n\n`;
    }
    const sentences: string[] = [];
    for (let i = this.rng.int(1, 4); i > 0; i--) sentences.push(this.sentence());
    return `${sentences.join(" ")}\n\n`;
  }

  /** About `chars` characters of text (ASCII only, so no JSON \u escapes). */
  text(chars: number): string {
    let out = "";
    while (out.length < chars) out += this.rng.pick(this.pool);
    return out.slice(0, Math.max(1, chars)).trimEnd() || "ok";
  }

  /** One short line, e.g. a user's question. */
  line(): string {
    return this.sentence();
  }
}
