// The API token (design §7): 256 random bits, base64url, created once and kept 0600 in the state
// dir; INSIGHTS_TOKEN (validated to >= 32 characters by the config) replaces it. The file is read
// without following a link and refused when another user owns it (a planted token would let its
// author in); its mode is tightened through the open descriptor.
import { randomBytes } from "node:crypto";
import { readPrivateFile, writePrivateFile } from "../../shared/base/private-files.js";

interface TokenSource {
  token: string;
  origin: "file" | "generated" | "config";
}

export function ensureToken(tokenFile: string, configured: string | null): TokenSource {
  if (configured) return { token: configured, origin: "config" };
  const existing = readPrivateFile(tokenFile, "the API token file")?.trim();
  if (existing && existing.length >= 32) return { token: existing, origin: "file" };
  // Missing, or too short to be one we wrote (a crash mid-write, an edit): make a new one.
  const token = randomBytes(32).toString("base64url");
  writePrivateFile(tokenFile, token + "\n");
  return { token, origin: "generated" };
}
