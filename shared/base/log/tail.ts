// Reads the last records of daemon.log, reaching into rotated generations (daemon.log.1, ...)
// when the current file holds fewer than asked for. Reads backwards in chunks, so a large log
// costs only what is shown.
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { levelRank, parseRecord, type Level, type LogRecord } from "./record.js";

const CHUNK = 64 * 1024;

/** Complete lines of one file, last first, until `want` is reached (fewer if the file is short). */
function linesFromEnd(path: string, accept: (line: string) => boolean, want: number): string[] {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return [];
  }
  const out: string[] = [];
  try {
    let pos = fstatSync(fd).size;
    let carry = Buffer.alloc(0);
    while (pos > 0 && out.length < want) {
      const len = Math.min(CHUNK, pos);
      pos -= len;
      const buf = Buffer.alloc(len);
      readSync(fd, buf, 0, len, pos);
      const joined = Buffer.concat([buf, carry]);
      let end = joined.length;
      for (let i = joined.length - 1; i >= 0 && out.length < want; i--) {
        if (joined[i] !== 0x0a) continue;
        const line = joined.subarray(i + 1, end).toString("utf8");
        end = i;
        if (line && accept(line)) out.push(line);
      }
      carry = joined.subarray(0, end);
    }
    if (pos === 0 && carry.length && out.length < want) {
      const line = carry.toString("utf8");
      if (accept(line)) out.push(line);
    }
  } finally {
    closeSync(fd);
  }
  return out;
}

export function readLastRecords(logFile: string, maxFiles: number, n: number, minLevel: Level = "trace"): LogRecord[] {
  const min = levelRank(minLevel);
  const collected: LogRecord[] = [];
  const accept = (line: string): boolean => {
    const r = parseRecord(line);
    return r !== null && levelRank(r.level) >= min;
  };
  for (let gen = 0; gen <= maxFiles && collected.length < n; gen++) {
    const path = gen === 0 ? logFile : `${logFile}.${gen}`;
    for (const line of linesFromEnd(path, accept, n - collected.length)) {
      collected.push(parseRecord(line) as LogRecord);
    }
  }
  return collected.reverse();
}
