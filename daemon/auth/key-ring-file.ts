// The session key ring on disk (`session-keys.json` in the state dir), so a daemon restart keeps
// browsers signed in. It holds cookie-signing secrets, so it is kept like the API token: 0600,
// written atomically, read without following a link, refused when another user owns it. A file
// that does not parse is not fatal: the daemon starts a fresh ring (browsers sign in again) and
// overwrites it.
//
// The file records a fingerprint of the API token: when the token changes (deleted to revoke it,
// or a new INSIGHTS_TOKEN), the saved keys are dropped, so replacing the token still signs every
// browser out, as it did when keys lived only in memory.
import { createHash } from "node:crypto";
import { errorMessage } from "../../shared/base/errors.js";
import type { Logger } from "../../shared/base/log/logger.js";
import { readPrivateFile, writePrivateFile } from "../../shared/base/private-files.js";
import { KeyRing, type SigningKey } from "./key-ring.js";

const FORMAT_VERSION = 1;
/** More keys than rotation and grace can ever leave alive means the file is not ours. */
const MAX_KEYS = 64;
const B64URL = /^[A-Za-z0-9_-]{1,64}$/;

type LoadedKeys =
  | { state: "loaded"; keys: SigningKey[] }
  | { state: "missing"; keys: [] }
  /** The token changed since the keys were saved: they are not used. */
  | { state: "token-changed"; keys: [] }
  /** Unreadable or malformed: not used, and replaced on the next save. */
  | { state: "corrupt"; keys: []; error: string };

/** A one-way fingerprint of the token: tells whether it changed without keeping it twice. */
export function tokenFingerprint(token: string): string {
  return createHash("sha256").update("gateway-insights session keys\0").update(token).digest("base64url");
}

/**
 * Reads the saved ring. Throws UNSAFE_PATH for a link or another user's file (like the token);
 * everything else wrong with it is `corrupt`. Keys created after `now` (the clock went back) are
 * dropped: they would otherwise sign for longer than rotation allows.
 */
export function loadSessionKeys(file: string, fingerprint: string, now: number): LoadedKeys {
  const text = readPrivateFile(file, "the session key file");
  if (text === null) return { state: "missing", keys: [] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    return { state: "corrupt", keys: [], error: `not JSON (${err instanceof Error ? err.message.slice(0, 80) : "parse error"})` };
  }
  const v = parsed as { version?: unknown; token?: unknown; keys?: unknown } | null;
  if (!v || typeof v !== "object" || v.version !== FORMAT_VERSION || typeof v.token !== "string" || !Array.isArray(v.keys)) {
    return { state: "corrupt", keys: [], error: `not a version ${FORMAT_VERSION} key file` };
  }
  if (v.token !== fingerprint) return { state: "token-changed", keys: [] };
  if (v.keys.length > MAX_KEYS) return { state: "corrupt", keys: [], error: `${v.keys.length} keys` };
  const keys: SigningKey[] = [];
  for (const raw of v.keys as unknown[]) {
    const key = parseKey(raw);
    if (!key) return { state: "corrupt", keys: [], error: "a key entry is malformed" };
    keys.push(key);
  }
  keys.sort((a, b) => a.createdAt - b.createdAt);
  // Only the newest key may still be signing; every older one was replaced at some time.
  if (keys.some((k, i) => (k.replacedAt === null) !== (i === keys.length - 1))) return { state: "corrupt", keys: [], error: "the keys' replacement times do not form a ring" };
  if (new Set(keys.map((k) => k.id)).size !== keys.length) return { state: "corrupt", keys: [], error: "duplicate key ids" };
  const valid = keys.filter((k) => k.createdAt <= now);
  // With a future key dropped, the newest left signs again (the ring rotates it when it is due).
  const newest = valid.at(-1);
  if (newest) newest.replacedAt = null;
  return { state: "loaded", keys: valid };
}

function parseKey(raw: unknown): SigningKey | null {
  if (!raw || typeof raw !== "object") return null;
  const k = raw as Record<string, unknown>;
  if (typeof k.id !== "string" || !B64URL.test(k.id)) return null;
  if (typeof k.secret !== "string" || !B64URL.test(k.secret)) return null;
  const secret = Buffer.from(k.secret, "base64url");
  if (secret.length !== 32) return null;
  if (typeof k.createdAt !== "number" || !Number.isFinite(k.createdAt)) return null;
  if (k.replacedAt !== null && (typeof k.replacedAt !== "number" || !Number.isFinite(k.replacedAt))) return null;
  return { id: k.id, secret, createdAt: k.createdAt, replacedAt: k.replacedAt as number | null };
}

/** Saves the ring atomically (0600, never through a link). */
export function saveSessionKeys(file: string, fingerprint: string, keys: readonly SigningKey[]): void {
  const body = {
    version: FORMAT_VERSION,
    token: fingerprint,
    keys: keys.map((k) => ({ id: k.id, secret: k.secret.toString("base64url"), createdAt: k.createdAt, replacedAt: k.replacedAt })),
  };
  writePrivateFile(file, JSON.stringify(body) + "\n");
}

interface OpenSessionKeyRingOptions {
  file: string;
  token: string;
  /** Epoch ms, real time. */
  now: number;
  rotateMs: number;
  graceMs: number;
  logger: Logger;
}

/**
 * The daemon's key ring, started from the keys saved by the last run (a corrupt file is logged and
 * replaced, a link or another user's file refused like the token) and saved on every change.
 */
export function openSessionKeyRing({ file, token, now, rotateMs, graceMs, logger }: OpenSessionKeyRingOptions): KeyRing {
  const fingerprint = tokenFingerprint(token);
  const loaded = loadSessionKeys(file, fingerprint, now);
  if (loaded.state === "corrupt") logger.warn("the session key file is unreadable; replaced it with a fresh one (browsers sign in again)", { file, error: loaded.error });
  if (loaded.state === "token-changed") logger.info("the API token changed since the last run; earlier browser sessions are signed out", { file });
  let saveFailed = false;
  const ring = new KeyRing({
    rotateMs,
    graceMs,
    keys: loaded.keys,
    onChange: (keys) => {
      try {
        saveSessionKeys(file, fingerprint, keys);
        saveFailed = false;
      } catch (err) {
        // Sessions keep working; they just will not survive a restart until a save succeeds.
        if (!saveFailed) logger.warn("could not save the session keys; browsers will have to sign in again after a restart", { file, error: errorMessage(err) });
        saveFailed = true;
      }
    },
  });
  // Settles the ring now (a first key, rotations and drops due while the daemon was stopped) and saves it.
  ring.keyCount(now);
  return ring;
}
