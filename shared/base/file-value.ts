// A value worked out from a small file that is asked for often (every scrape, every status read)
// but rarely changes: the file is read again only when its dev, inode, size or mtime changed.
// Opened through openRegular, so a FIFO planted at the name never blocks the event loop.
import * as fs from "node:fs";
import { openRegular } from "./safe-open.js";

interface FileValueOptions<T> {
  /** A larger file is not read: the fallback. */
  maxBytes: number;
  /** Refuse a symbolic link at the path itself. Default false. */
  noFollow?: boolean;
  /** The value of the file's text; should not throw (a throw gives the fallback, not cached). */
  parse: (text: string) => T;
  /** The value when the file is missing, unreadable, not a regular file or too large. */
  fallback: T;
  /** Zero the bytes read once parsed (the file holds a secret the value does not). */
  wipe?: boolean;
}

export class FileValueCache<T> {
  private readonly cache = new Map<string, { stamp: string; value: T }>();

  constructor(private readonly o: FileValueOptions<T>) {}

  get(file: string): T {
    let opened: ReturnType<typeof openRegular>;
    try {
      opened = openRegular(file, { noFollow: this.o.noFollow ?? false });
    } catch {
      this.cache.delete(file);
      return this.o.fallback;
    }
    const { fd, stat } = opened;
    try {
      if (stat.size > this.o.maxBytes) return this.o.fallback;
      const stamp = `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}`;
      const hit = this.cache.get(file);
      if (hit?.stamp === stamp) return hit.value;
      const buf = Buffer.alloc(stat.size);
      let got = 0;
      while (got < buf.length) {
        const n = fs.readSync(fd, buf, got, buf.length - got, got);
        if (n === 0) break;
        got += n;
      }
      const value = this.o.parse(buf.subarray(0, got).toString("utf8"));
      if (this.o.wipe) buf.fill(0);
      this.cache.set(file, { stamp, value });
      return value;
    } catch {
      return this.o.fallback;
    } finally {
      fs.closeSync(fd);
    }
  }
}
