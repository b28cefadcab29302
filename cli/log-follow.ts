// `logs -f` with no daemon to stream from: follows daemon.log itself, like `tail -F`. A daemon
// started later writes to the same file, so its lines show up too. Rotation renames daemon.log to
// daemon.log.1 and opens a new daemon.log: the old file is read to its end before the new one is
// read from its start, so no line is lost or shown twice. Polls, because the file may not exist
// yet and fs.watch misses renames on some filesystems.
import { closeSync, fstatSync, openSync, readSync, statSync } from "node:fs";
import { parseRecord, type LogRecord } from "../shared/base/log/record.js";

interface FileFollower {
  stop(): void;
}

/**
 * Calls `onRecord` for each record appended to `path` from now on (from its start when the file
 * does not exist yet). Lines that are not records (a torn write) are skipped.
 */
export function followLogFile(path: string, onRecord: (r: LogRecord) => void, intervalMs = 200): FileFollower {
  let fd: number | null = null;
  let ino = 0;
  let pos = 0;
  let carry = Buffer.alloc(0);

  const open = (fromEnd: boolean): void => {
    try {
      fd = openSync(path, "r");
    } catch {
      fd = null; // not there (yet, or mid-rotation): try again next round
      return;
    }
    const st = fstatSync(fd);
    ino = st.ino;
    pos = fromEnd ? st.size : 0;
    carry = Buffer.alloc(0);
  };

  /** Reads what was appended to the open file since the last round. */
  const drain = (): void => {
    if (fd === null) return;
    const size = fstatSync(fd).size;
    if (size < pos) {
      // Truncated in place: start over from its beginning.
      pos = 0;
      carry = Buffer.alloc(0);
    }
    while (pos < size) {
      const buf = Buffer.alloc(Math.min(64 * 1024, size - pos));
      const n = readSync(fd, buf, 0, buf.length, pos);
      if (n === 0) break;
      pos += n;
      const joined = Buffer.concat([carry, buf.subarray(0, n)]);
      let start = 0;
      for (let i = 0; i < joined.length; i++) {
        if (joined[i] !== 0x0a) continue;
        const record = parseRecord(joined.subarray(start, i).toString("utf8"));
        if (record) onRecord(record);
        start = i + 1;
      }
      carry = joined.subarray(start);
    }
  };

  const round = (): void => {
    if (fd === null) {
      open(false);
      drain();
      return;
    }
    drain();
    let current: number | null;
    try {
      current = statSync(path).ino;
    } catch {
      current = null; // renamed away, the new file not created yet
    }
    if (current !== null && current !== ino) {
      // Rotated: whatever the writer put in the old file before the rename is there now.
      drain();
      closeSync(fd);
      open(false);
      drain();
    }
  };

  open(true);
  const timer = setInterval(round, intervalMs);
  return {
    stop: () => {
      clearInterval(timer);
      if (fd !== null) closeSync(fd);
      fd = null;
    },
  };
}
