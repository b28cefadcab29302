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
import { join } from "node:path";
import { FileValueCache } from "../../shared/base/file-value.js";

export const UNKNOWN_ACCOUNT = "unknown";
/** auth.json is a few KB; anything far larger is not one, and is not read. */
const MAX_AUTH_BYTES = 256 * 1024;
/** `"account_id": "…"` (tokens.account_id); the JWTs beside it are base64 and cannot match. */
const ACCOUNT_ID = /"account_id"\s*:\s*"([A-Za-z0-9._:-]{1,200})"/;

/** The account label of a Codex home, cached per file version (a scrape may ask every few seconds). */
export class CodexAccounts {
  // A new login changes the file's dev, inode, size or mtime; its tokens are zeroed once read.
  private readonly files = new FileValueCache({ maxBytes: MAX_AUTH_BYTES, noFollow: true, parse: accountLabel, fallback: UNKNOWN_ACCOUNT, wipe: true });

  account(codexHome: string): string {
    return this.files.get(join(codexHome, "auth.json"));
  }
}

/** The label for the text of an auth.json: `acct-<12 hex>` of its account id, or "unknown". */
function accountLabel(authJson: string): string {
  const id = ACCOUNT_ID.exec(authJson)?.[1];
  if (!id) return UNKNOWN_ACCOUNT;
  return `acct-${createHash("sha256").update(`gateway-insights:codex-account:${id}`).digest("hex").slice(0, 12)}`;
}
