// Which ChatGPT account a Codex home uses, for the `account` label of the rate-limit gauges: the
// quota belongs to the account, so several machines (or homes) on one account report the same
// figure, and a fleet view must take `max by (account)` rather than a sum.
//
// The only place Codex names the account is `auth.json`, which also holds the login's tokens.
// Those are never kept, logged or sent: the file is read (no link followed, small files only),
// the one `account_id` value is picked out of the text, and the text is dropped. The label is not
// the id itself but a short SHA-256 digest of it (`acct-` + 12 hex digits): the same on every
// machine of the account, so series join, yet the id does not travel to wherever the metrics go.
// A home without a ChatGPT login (an API key, a keyring store, no auth.json) is "unknown".
import { createHash } from "node:crypto";
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { join } from "node:path";

export const UNKNOWN_ACCOUNT = "unknown";
/** auth.json is a few KB; anything far larger is not one, and is not read. */
const MAX_AUTH_BYTES = 256 * 1024;
/** `"account_id": "…"` (tokens.account_id); the JWTs beside it are base64 and cannot match. */
const ACCOUNT_ID = /"account_id"\s*:\s*"([A-Za-z0-9._:-]{1,200})"/;

interface Cached {
  /** dev, inode, size and mtime of the file when read: a new login changes them. */
  stamp: string;
  account: string;
}

/** The account label of a Codex home, cached per file version (a scrape may ask every few seconds). */
export class CodexAccounts {
  private readonly cache = new Map<string, Cached>();

  account(codexHome: string): string {
    const file = join(codexHome, "auth.json");
    let fd: number;
    try {
      fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch {
      this.cache.delete(file);
      return UNKNOWN_ACCOUNT;
    }
    try {
      const st = fstatSync(fd);
      if (!st.isFile() || st.size > MAX_AUTH_BYTES) return UNKNOWN_ACCOUNT;
      const stamp = `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}`;
      const hit = this.cache.get(file);
      if (hit && hit.stamp === stamp) return hit.account;
      const buf = Buffer.alloc(st.size);
      let got = 0;
      while (got < buf.length) {
        const n = readSync(fd, buf, got, buf.length - got, got);
        if (n === 0) break;
        got += n;
      }
      const account = accountLabel(buf.subarray(0, got).toString("utf8"));
      buf.fill(0);
      this.cache.set(file, { stamp, account });
      return account;
    } catch {
      return UNKNOWN_ACCOUNT;
    } finally {
      closeSync(fd);
    }
  }
}

/** The label for the text of an auth.json: `acct-<12 hex>` of its account id, or "unknown". */
function accountLabel(authJson: string): string {
  const id = ACCOUNT_ID.exec(authJson)?.[1];
  if (!id) return UNKNOWN_ACCOUNT;
  return `acct-${createHash("sha256").update(`gateway-insights:codex-account:${id}`).digest("hex").slice(0, 12)}`;
}
