// Whether a Claude Code install has a status line set up that hands its windows to us: its
// settings.json names `insightsctl statusline` (or this package's CLI). Read to say why there
// are no plan windows, never for anything else; capped, no link followed, and kept per file
// version because every status read asks.
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { join } from "node:path";

const MAX_SETTINGS_BYTES = 256 * 1024;
const cache = new Map<string, { stamp: string; set: boolean }>();

/** True when `<dir>/settings.json` has a statusLine command of ours. */
export function statusLineSet(dir: string): boolean {
  const file = join(dir, "settings.json");
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    cache.delete(file);
    return false;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > MAX_SETTINGS_BYTES) return false;
    const stamp = `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}`;
    const hit = cache.get(file);
    if (hit?.stamp === stamp) return hit.set;
    const buf = Buffer.alloc(st.size);
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, got);
      if (n === 0) break;
      got += n;
    }
    let set = false;
    try {
      const parsed = JSON.parse(buf.subarray(0, got).toString("utf8")) as { statusLine?: { command?: unknown } };
      const command = parsed?.statusLine?.command;
      set = typeof command === "string" && /(insightsctl|cli\/main\.js)'? statusline/.test(command);
    } catch {
      set = false;
    }
    cache.set(file, { stamp, set });
    return set;
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}
