import { chmodSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { InsightsError } from "../../shared/base/errors.js";
import { KeyRing, type SigningKey } from "./key-ring.js";
import { loadSessionKeys, saveSessionKeys, tokenFingerprint } from "./key-ring-file.js";

const HOUR = 3_600_000;
const file = (): string => join(mkdtempSync(join(tmpdir(), "gi-keys-")), "session-keys.json");
const fp = tokenFingerprint("t".repeat(43));

function ringKeys(now: number): SigningKey[] {
  let keys: readonly SigningKey[] = [];
  const ring = new KeyRing({ rotateMs: HOUR, graceMs: HOUR, onChange: (k) => (keys = k) });
  ring.keyCount(now);
  ring.keyCount(now + 1.5 * HOUR); // rotated: two keys, the first replaced
  return [...keys];
}

test("saved keys load back as they were, 0600; the token is kept only as a fingerprint", () => {
  const f = file();
  const keys = ringKeys(1_000_000);
  saveSessionKeys(f, fp, keys);
  assert.is(statSync(f).mode & 0o777, 0o600);
  assert.not.match(readFileSync(f, "utf8"), "t".repeat(43));
  const loaded = loadSessionKeys(f, fp, 1_000_000 + 2 * HOUR);
  assert.is(loaded.state, "loaded");
  assert.equal(loaded.keys.map((k) => [k.id, k.secret.toString("hex"), k.createdAt, k.replacedAt]), keys.map((k) => [k.id, k.secret.toString("hex"), k.createdAt, k.replacedAt]));
  assert.equal(loadSessionKeys(join(f, "..", "none.json"), fp, 0), { state: "missing", keys: [] });
});

test("another token's keys are not used", () => {
  const f = file();
  saveSessionKeys(f, fp, ringKeys(0));
  assert.equal(loadSessionKeys(f, tokenFingerprint("u".repeat(43)), 2 * HOUR), { state: "token-changed", keys: [] });
});

test("whatever is wrong with the content is 'corrupt', never a throw", () => {
  const good = ringKeys(0).map((k) => ({ id: k.id, secret: k.secret.toString("base64url"), createdAt: k.createdAt, replacedAt: k.replacedAt }));
  const bodies: unknown[] = [
    "{ not json",
    null,
    [],
    { version: 2, token: fp, keys: good },
    { version: 1, token: fp, keys: "x" },
    { version: 1, token: fp, keys: [{ ...good[0], secret: "c2hvcnQ" }] },
    { version: 1, token: fp, keys: [{ ...good[0], createdAt: "yesterday" }] },
    { version: 1, token: fp, keys: [{ ...good[0], id: "../../etc" }] },
    { version: 1, token: fp, keys: good.map((k) => ({ ...k, replacedAt: null })) },
    { version: 1, token: fp, keys: [good[1], { ...good[1] }] },
    { version: 1, token: fp, keys: Array.from({ length: 100 }, () => good[1]) },
  ];
  for (const body of bodies) {
    const f = file();
    writeFileSync(f, typeof body === "string" ? body : JSON.stringify(body));
    const r = loadSessionKeys(f, fp, 3 * HOUR);
    assert.is(r.state, "corrupt", JSON.stringify(body).slice(0, 80));
    assert.equal(r.keys, []);
  }
});

test("keys from the future (the clock went back) are dropped; the newest left signs again", () => {
  const f = file();
  const keys = ringKeys(10 * HOUR); // created at +10 h and +11.5 h
  saveSessionKeys(f, fp, keys);
  const r = loadSessionKeys(f, fp, 11 * HOUR);
  assert.is(r.state, "loaded");
  assert.is(r.keys.length, 1);
  assert.is(r.keys[0]?.replacedAt, null);
});

test("a linked key file is refused like the token; a loose one is tightened", () => {
  const f = file();
  const target = join(mkdtempSync(join(tmpdir(), "gi-elsewhere-")), "x");
  writeFileSync(target, "{}");
  symlinkSync(target, f);
  try {
    loadSessionKeys(f, fp, 0);
    assert.unreachable();
  } catch (err) {
    assert.is((err as InsightsError).code, "UNSAFE_PATH");
  }
  const g = file();
  saveSessionKeys(g, fp, ringKeys(0));
  chmodSync(g, 0o644);
  assert.is(loadSessionKeys(g, fp, 2 * HOUR).state, "loaded");
  assert.is(statSync(g).mode & 0o777, 0o600);
});

test.run();
