// Walking and streaming JSONL trees: shared by the checkers and the bare reader, which run in
// child processes on plain node, so this module imports nothing from the rest of bench/.
import * as fs from "node:fs";
import * as path from "node:path";

/** Every .jsonl file under `dir`, sorted (the checkers and the bare reader walk the same list). */
export function jsonlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const d of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (d.isFile() && d.name.endsWith(".jsonl")) out.push(path.join(d.parentPath, d.name));
  }
  return out.sort();
}

/** Lines of a file, read in 1 MB chunks (never the whole file as one string). */
export async function* readLines(file: string): AsyncGenerator<string> {
  // encoding: the stream decodes UTF-8 across chunk boundaries.
  const stream = fs.createReadStream(file, { highWaterMark: 1 << 20, encoding: "utf8" });
  let rest = "";
  for await (const chunk of stream as AsyncIterable<string>) {
    const text = rest + chunk;
    let start = 0;
    for (let nl = text.indexOf("\n"); nl >= 0; nl = text.indexOf("\n", start)) {
      if (nl > start) yield text.slice(start, nl);
      start = nl + 1;
    }
    rest = text.slice(start);
  }
  if (rest) yield rest;
}
