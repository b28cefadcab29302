import { test } from "uvu";
import * as assert from "uvu/assert";
import { FailureLimiter } from "./failure-limiter.js";

test("blocks a peer after maxFailures in the window, for blockMs; other peers are unaffected", () => {
  const l = new FailureLimiter({ maxFailures: 3, windowMs: 1000, blockMs: 5000 });
  assert.is(l.recordFailure("203.0.113.1", 0), 0);
  assert.is(l.recordFailure("203.0.113.1", 10), 0);
  assert.is(l.recordFailure("203.0.113.1", 20), 5);
  assert.is(l.retryAfterSeconds("203.0.113.1", 1000), 5, "4.02 s left, rounded up");
  assert.is(l.retryAfterSeconds("203.0.113.2", 1000), 0);
  assert.is(l.retryAfterSeconds("203.0.113.1", 5021), 0, "the block ends");
});

test("failures outside the window do not add up; one IPv6 /64 is one peer", () => {
  const l = new FailureLimiter({ maxFailures: 2, windowMs: 1000, blockMs: 1000 });
  assert.is(l.recordFailure("198.51.100.7", 0), 0);
  assert.is(l.recordFailure("198.51.100.7", 2000), 0, "the first one aged out");
  assert.is(l.recordFailure("2001:db8:1:2::1", 0), 0);
  assert.is(l.recordFailure("2001:db8:1:2::ffff", 1), 1, "rotating addresses inside a /64 does not help");
});

test("memory is bounded: at most maxPeers are remembered", () => {
  const l = new FailureLimiter({ maxFailures: 5, maxPeers: 100 });
  for (let i = 0; i < 1000; i++) l.recordFailure(`10.0.${i >> 8}.${i & 255}`, i);
  assert.is(l.trackedPeers, 100);
});

test.run();
