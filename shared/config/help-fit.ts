// Help text that fits a terminal: citty pads every row of a table to its longest description
// (135 columns for `insightsctl --help`) and right-aligns the flags. This lays the same text out
// again within `width` columns: flags left-aligned, descriptions wrapped under their own column
// (or on the next line when a flag is too long to leave them room). Used by insightsctl and insightsd.
import { stripVTControlCharacters } from "node:util";

const HELP_WIDTH = 80;

/** A table row of citty's: indented, the name, a run of spaces, the description. */
const ROW = /^ {2,}(\S(?:.*?\S)?) {3,}(\S.*?)\s*$/;
/** The description column starts at most here, so a long flag does not squeeze every description. */
const MAX_INDENT = 28;
const HEADINGS = /^(USAGE|ARGUMENTS|OPTIONS|COMMANDS)\b/;

/** Words of `text` in lines of at most `width`, the first after `first`, the rest after `rest`. */
function wrap(text: string, width: number, first: string, rest: string): string[] {
  const out: string[] = [];
  let line = first;
  let empty = true;
  // A command list (`start|stop|…|help`) is one long word: it breaks after a `|`, the `|` kept.
  const words = text.split(/ +/).flatMap((w) => (rest.length + w.length > width && w.includes("|") ? w.split(/(?<=\|)/) : [w]));
  let glued = false;
  for (const word of words) {
    const joiner = empty || glued ? "" : " ";
    if (!empty && line.length + joiner.length + word.length > width) {
      out.push(line);
      line = rest;
      empty = true;
    } else line += joiner;
    line += word;
    empty = false;
    // The pieces of a broken list join without a space.
    glued = word.endsWith("|");
  }
  out.push(line);
  return out;
}

/** `text` (citty's usage) within `width` columns; `bold`: headings in bold (a terminal). */
export function fitHelp(text: string, o: { width?: number; bold?: boolean } = {}): string {
  const width = o.width ?? HELP_WIDTH;
  const lines = stripVTControlCharacters(text).split("\n");
  const out: string[] = [];
  for (let i = 0; i < lines.length; ) {
    const rows: Array<[string, string]> = [];
    for (let m = ROW.exec(lines[i] as string); m && i < lines.length; m = ROW.exec((lines[i] ?? "") as string)) {
      rows.push([m[1] as string, m[2] as string]);
      i++;
    }
    if (rows.length) {
      const indent = Math.min(2 + Math.max(...rows.map(([name]) => name.length)) + 2, MAX_INDENT);
      const pad = " ".repeat(indent);
      for (const [name, description] of rows) {
        const head = `  ${name}`;
        if (head.length + 2 <= indent) out.push(...wrap(description, width, head.padEnd(indent), pad));
        else out.push(head, ...wrap(description, width, pad, pad));
      }
      continue;
    }
    const line = (lines[i] as string).trimEnd();
    i++;
    const lead = /^ */.exec(line)?.[0] ?? "";
    const wrapped = line.length <= width ? [line] : wrap(line.trimStart(), width, lead, `${lead}  `);
    out.push(...wrapped.map((l) => (o.bold ? l.replace(HEADINGS, "\x1b[1m$1\x1b[22m") : l)));
  }
  return out.join("\n");
}
