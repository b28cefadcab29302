// Slows down token guessing (design §7: repeated failures from one address get 429). A peer that
// presents `maxFailures` wrong secrets within `windowMs` is blocked for `blockMs`: while blocked,
// its wrong secrets are answered 429 instead of 401 and are not counted again.
//
// A block refuses failures only, never a correct credential (guard.ts checks the credential
// first). On a loopback daemon every local client is the same peer, so a block that refused
// successes would let anyone on the machine lock the dashboard, Prometheus and the CLI out with
// ten bad links. What stops guessing is the secret itself: the token is at least 32 characters
// (256 random bits when generated) and cookies are HMAC-signed, so answering a correct guess
// gains a guesser nothing in practice; the limiter keeps the noise of failures down.
//
// Memory is bounded: at most `maxPeers` peers are tracked, the one touched least recently is
// forgotten first. Peers are keyed by ip.ts `peerKey` (IPv6 by /64).
import { peerKey } from "./ip.js";

interface FailureLimiterOptions {
  maxFailures?: number;
  windowMs?: number;
  blockMs?: number;
  maxPeers?: number;
}

interface PeerRecord {
  /** Failure times (epoch ms) inside the current window; never more than maxFailures. */
  failures: number[];
  blockedUntil: number;
}

export class FailureLimiter {
  readonly maxFailures: number;
  readonly windowMs: number;
  readonly blockMs: number;
  readonly maxPeers: number;
  /** Insertion order is recency order: a touched peer is deleted and re-inserted. */
  private readonly peers = new Map<string, PeerRecord>();

  constructor(options: FailureLimiterOptions = {}) {
    this.maxFailures = options.maxFailures ?? 10;
    this.windowMs = options.windowMs ?? 60_000;
    this.blockMs = options.blockMs ?? 60_000;
    this.maxPeers = options.maxPeers ?? 10_000;
    for (const [name, v] of Object.entries({ maxFailures: this.maxFailures, windowMs: this.windowMs, blockMs: this.blockMs, maxPeers: this.maxPeers })) {
      if (!(Number.isInteger(v) && v > 0)) throw new RangeError(`FailureLimiter ${name} must be a positive integer, got ${v}`);
    }
  }

  /** Whole seconds until `peer` may try again (for Retry-After); 0 when it is not blocked. */
  retryAfterSeconds(peer: string | undefined, now: number): number {
    const key = peerKey(peer);
    const rec = this.peers.get(key);
    if (!rec) return 0;
    if (rec.blockedUntil > now) return Math.max(1, Math.ceil((rec.blockedUntil - now) / 1000));
    // Nothing left to remember: let the entry go instead of waiting for eviction.
    if (!rec.failures.some((t) => t > now - this.windowMs)) this.peers.delete(key);
    return 0;
  }

  /** Counts one failed attempt; returns the block's Retry-After seconds when this failure started a block, else 0. */
  recordFailure(peer: string | undefined, now: number): number {
    const key = peerKey(peer);
    let rec = this.peers.get(key);
    if (rec) this.peers.delete(key);
    else {
      rec = { failures: [], blockedUntil: 0 };
      while (this.peers.size >= this.maxPeers) {
        const oldest = this.peers.keys().next();
        if (oldest.done) break;
        this.peers.delete(oldest.value);
      }
    }
    this.peers.set(key, rec);
    if (rec.blockedUntil > now) return 0;
    rec.failures = rec.failures.filter((t) => t > now - this.windowMs);
    rec.failures.push(now);
    if (rec.failures.length < this.maxFailures) return 0;
    rec.failures = [];
    rec.blockedUntil = now + this.blockMs;
    return Math.ceil(this.blockMs / 1000);
  }

  /** How many peers are remembered (for tests and metrics). */
  get trackedPeers(): number {
    return this.peers.size;
  }
}
