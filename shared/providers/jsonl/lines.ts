// The demo writers read back the files they append to. A line that is not a JSON object (cut short
// by a crash, edited by hand) is passed over rather than stopping the replay for good.
import { appendFileSync, closeSync, fstatSync, openSync, readSync } from "node:fs";

type JsonLine = Record<string, unknown>;

export function parseLines(text: string): JsonLine[] {
  const out: JsonLine[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const v = JSON.parse(line) as unknown;
      if (v !== null && typeof v === "object" && !Array.isArray(v)) out.push(v as JsonLine);
    } catch {
      // not a line of ours to repair
    }
  }
  return out;
}

/** Appends whole lines; a file left ending mid-line gets its newline first, so the new lines stay whole. */
export function appendLines(file: string, lines: readonly JsonLine[]): void {
  let prefix = "";
  const fd = openSync(file, "r");
  try {
    const size = fstatSync(fd).size;
    if (size > 0) {
      const last = Buffer.alloc(1);
      readSync(fd, last, 0, 1, size - 1);
      if (last[0] !== 0x0a) prefix = "\n";
    }
  } finally {
    closeSync(fd);
  }
  appendFileSync(file, prefix + lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
}
