// A `session_meta` line as text without its `base_instructions.text` (codex-format.md §4): the
// model's whole system prompt, ~21 KB of the ~22 KB line, on the first line of every rollout.
// Nothing reads it, and it was a quarter of the bytes a first scan parsed. The value is cut at
// byte level and replaced by "" (still valid JSON); a line without exactly that shape is returned
// whole, so JSON.parse judges it as before.

const NEEDLE = Buffer.from('"base_instructions":{"text":"');
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** The line as UTF-8 text, with the instructions' text emptied when the line has it. */
export function withoutInstructions(line: Buffer): string {
  const at = line.indexOf(NEEDLE);
  if (at === -1) return line.toString("utf8");
  const from = at + NEEDLE.length;
  // The closing quote: the first one not escaped (preceded by an even number of backslashes).
  for (let q = line.indexOf(QUOTE, from); q !== -1; q = line.indexOf(QUOTE, q + 1)) {
    let slashes = 0;
    for (let i = q - 1; i >= from && line[i] === BACKSLASH; i--) slashes++;
    if (slashes % 2 === 0) return line.toString("utf8", 0, from) + line.toString("utf8", q);
  }
  // Unterminated: not ours to repair.
  return line.toString("utf8");
}
