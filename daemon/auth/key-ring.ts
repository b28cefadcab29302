// The rotating key ring that signs session cookies (design §7). A new HMAC-SHA256 key (256 random
// bits) takes over every `rotateMs`; the key it replaces still verifies for `graceMs`, then is
// dropped, so a cookie lives at most rotate + grace and at least grace.
//
// The keys are kept in the state dir (key-ring-file.ts) so a daemon restart does not sign every
// browser out: the ring starts from the saved keys and reports every change (a rotation, a key
// dropped after its grace) through `onChange`, which saves them again. Rotation and grace count
// from the keys' own times, so they run on across restarts exactly as without one.
//
// Time is passed in (`now`, epoch ms) rather than read, so callers share one injected clock and
// tests can step through rotations without waiting.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

const HOUR = 3_600_000;
const DEFAULT_ROTATE_MS = 24 * HOUR;
const DEFAULT_GRACE_MS = 12 * HOUR;

/** Real cookies are ~150 characters; anything far longer is not ours and is not parsed. */
const MAX_COOKIE_CHARS = 1024;
const B64URL = /^[A-Za-z0-9_-]+$/;

interface SessionPayload {
  keyId: string;
  /** Epoch ms. */
  issuedAt: number;
  /** 128 random bits, base64url: what the page must echo in `X-Insights-CSRF`. */
  csrf: string;
}

type VerifyResult =
  | { ok: true; payload: SessionPayload }
  /** malformed: not a cookie we could have made; stale: its key rotated out (or was never in this ring);
   *  bad-signature: a known key but a wrong MAC, i.e. forged or tampered. */
  | { ok: false; reason: "malformed" | "stale" | "bad-signature" };

interface KeyRingOptions {
  rotateMs?: number;
  graceMs?: number;
  /** Source of key and CSRF bytes; crypto.randomBytes unless a test needs otherwise. */
  random?: (bytes: number) => Buffer;
  /** Keys saved by an earlier run, oldest first (validated by the loader). */
  keys?: readonly SigningKey[];
  /** Called with the whole ring after every change, to save it. */
  onChange?: (keys: readonly SigningKey[]) => void;
}

export interface SigningKey {
  id: string;
  secret: Buffer;
  createdAt: number;
  /** When its successor took over (its scheduled rotation time); null while it signs. */
  replacedAt: number | null;
}

export class KeyRing {
  readonly rotateMs: number;
  readonly graceMs: number;
  private readonly random: (bytes: number) => Buffer;
  private readonly onChange: ((keys: readonly SigningKey[]) => void) | undefined;
  /** Oldest first; the last one signs. */
  private keys: SigningKey[];

  constructor(options: KeyRingOptions = {}) {
    this.rotateMs = options.rotateMs ?? DEFAULT_ROTATE_MS;
    this.graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
    this.random = options.random ?? randomBytes;
    this.onChange = options.onChange;
    this.keys = [...(options.keys ?? [])].sort((a, b) => a.createdAt - b.createdAt).map((k) => ({ ...k }));
    if (!(Number.isFinite(this.rotateMs) && this.rotateMs > 0)) throw new RangeError(`rotateMs must be > 0, got ${this.rotateMs}`);
    if (!(Number.isFinite(this.graceMs) && this.graceMs >= 0)) throw new RangeError(`graceMs must be >= 0, got ${this.graceMs}`);
  }

  /** The longest a cookie can stay valid: the cookie's Max-Age. */
  get maxAgeMs(): number {
    return this.rotateMs + this.graceMs;
  }

  /** Keys that still verify at `now` (the signing one included). */
  keyCount(now: number): number {
    this.advance(now);
    return this.keys.length;
  }

  /** A fresh signed cookie value under the current key. */
  issue(now: number): { value: string; payload: SessionPayload } {
    const key = this.advance(now);
    const payload: SessionPayload = { keyId: key.id, issuedAt: now, csrf: this.random(16).toString("base64url") };
    const body = Buffer.from(JSON.stringify(payload), "utf8").toString("base64url");
    return { value: `${body}.${mac(key.secret, body)}`, payload };
  }

  verify(value: string, now: number): VerifyResult {
    if (value.length > MAX_COOKIE_CHARS) return { ok: false, reason: "malformed" };
    const parts = value.split(".");
    const [body, sig] = parts;
    if (parts.length !== 2 || !body || !sig || !B64URL.test(body) || !B64URL.test(sig)) return { ok: false, reason: "malformed" };
    const payload = parsePayload(body);
    if (!payload) return { ok: false, reason: "malformed" };
    this.advance(now);
    const key = this.keys.find((k) => k.id === payload.keyId);
    if (!key) return { ok: false, reason: "stale" };
    const expected = Buffer.from(mac(key.secret, body), "base64url");
    const given = Buffer.from(sig, "base64url");
    // Both are 32 bytes for a well-formed cookie; the length test only guards timingSafeEqual.
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: "bad-signature" };
    return { ok: true, payload };
  }

  /** Rotates when the signing key is due and drops keys past their grace; returns the signing key. */
  private advance(now: number): SigningKey {
    let current = this.keys.at(-1);
    let changed = false;
    if (!current || now >= current.createdAt + this.rotateMs) {
      // Grace counts from the scheduled rotation, not from when a request happened to notice it,
      // so an idle daemon (or one that was stopped) does not stretch an old key's life.
      if (current) current.replacedAt = current.createdAt + this.rotateMs;
      current = { id: this.random(6).toString("base64url"), secret: this.random(32), createdAt: now, replacedAt: null };
      this.keys.push(current);
      changed = true;
    }
    const kept = this.keys.filter((k) => k.replacedAt === null || now < k.replacedAt + this.graceMs);
    if (kept.length !== this.keys.length) changed = true;
    this.keys = kept;
    if (changed) this.onChange?.(this.keys.map((k) => ({ ...k })));
    return current;
  }
}

function mac(secret: Buffer, body: string): string {
  return createHmac("sha256", secret).update(body).digest("base64url");
}

function parsePayload(body: string): SessionPayload | null {
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  if (!v || typeof v !== "object") return null;
  const p = v as Record<string, unknown>;
  if (typeof p.keyId !== "string" || typeof p.issuedAt !== "number" || !Number.isFinite(p.issuedAt)) return null;
  if (typeof p.csrf !== "string" || !B64URL.test(p.csrf)) return null;
  return { keyId: p.keyId, issuedAt: p.issuedAt, csrf: p.csrf };
}
