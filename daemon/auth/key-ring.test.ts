import { test } from "uvu";
import * as assert from "uvu/assert";
import { KeyRing, type SigningKey } from "./key-ring.js";

const HOUR = 3_600_000;

test("a cookie verifies until its key is rotated out and the grace has passed", () => {
  const ring = new KeyRing({ rotateMs: 10 * HOUR, graceMs: 2 * HOUR });
  const t0 = 1_000_000;
  const { value, payload } = ring.issue(t0);
  assert.equal(ring.verify(value, t0 + HOUR), { ok: true, payload });
  assert.is(ring.verify(value, t0 + 11 * HOUR).ok, true, "rotated at +10 h, within 2 h of grace");
  assert.is(ring.keyCount(t0 + 11 * HOUR), 2);
  assert.equal(ring.verify(value, t0 + 12 * HOUR + 1), { ok: false, reason: "stale" });
  assert.is(ring.keyCount(t0 + 12 * HOUR + 1), 1, "the old key is dropped, not kept forever");
  assert.is(ring.maxAgeMs, 12 * HOUR);
});

test("a tampered or foreign value is refused with the right reason", () => {
  const ring = new KeyRing();
  const { value } = ring.issue(0);
  const [body, sig] = value.split(".") as [string, string];
  assert.equal(ring.verify(`${body}.${sig.slice(0, -2)}AA`, 1), { ok: false, reason: "bad-signature" });
  assert.equal(ring.verify("not-a-cookie", 1), { ok: false, reason: "malformed" });
  assert.equal(ring.verify("x".repeat(5000), 1), { ok: false, reason: "malformed" });
  assert.equal(new KeyRing().verify(value, 1), { ok: false, reason: "stale" }, "another ring's cookie");
});

test("a ring started from saved keys verifies their cookies and rotates on their schedule; every change is reported", () => {
  const saved: SigningKey[][] = [];
  const first = new KeyRing({ rotateMs: 10 * HOUR, graceMs: 2 * HOUR, onChange: (k) => saved.push([...k]) });
  const t0 = 1_000_000;
  const { value } = first.issue(t0);
  assert.is(saved.length, 1, "the first key is reported");
  const restored = new KeyRing({ rotateMs: 10 * HOUR, graceMs: 2 * HOUR, keys: saved.at(-1), onChange: (k) => saved.push([...k]) });
  assert.is(restored.verify(value, t0 + HOUR).ok, true, "a cookie from before the restart");
  assert.is(saved.length, 1, "nothing changed, nothing saved");
  assert.is(restored.verify(value, t0 + 11 * HOUR).ok, true, "rotated at +10 h, in grace");
  assert.is(saved.length, 2);
  assert.equal(saved[1]?.map((k) => k.replacedAt), [t0 + 10 * HOUR, null]);
  assert.equal(restored.verify(value, t0 + 12 * HOUR + 1), { ok: false, reason: "stale" });
  assert.is(saved.length, 3, "the drop is reported too");
  assert.is(saved[2]?.length, 1);
});

test.run();
