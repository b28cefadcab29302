// The API token (design §7): 256 random bits, base64url, created once and kept 0600 in the state
// dir; INSIGHTS_TOKEN (validated to >= 32 characters by the config) replaces it.
import { randomBytes } from "node:crypto";
import { chmodSync, readFileSync, statSync, writeFileSync } from "node:fs";

export interface TokenSource {
  token: string;
  origin: "file" | "generated" | "config";
}

export function ensureToken(tokenFile: string, configured: string | null): TokenSource {
  if (configured) return { token: configured, origin: "config" };
  try {
    const existing = readFileSync(tokenFile, "utf8").trim();
    if (existing.length >= 32) {
      // Someone may have loosened the mode by hand; the token is a password.
      if ((statSync(tokenFile).mode & 0o077) !== 0) chmodSync(tokenFile, 0o600);
      return { token: existing, origin: "file" };
    }
  } catch {
    // not there yet
  }
  const token = randomBytes(32).toString("base64url");
  writeFileSync(tokenFile, token + "\n", { mode: 0o600 });
  chmodSync(tokenFile, 0o600);
  return { token, origin: "generated" };
}
