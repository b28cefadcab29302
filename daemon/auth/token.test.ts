import { chmodSync, chownSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { InsightsError } from "../../shared/base/errors.js";
import { ensureToken } from "./token.js";

const dir = (): string => mkdtempSync(join(tmpdir(), "gi-token-"));
const mode = (p: string): number => statSync(p).mode & 0o777;

test("a new token is 256 random bits, 0600; the next start reads it back", () => {
  const file = join(dir(), "token");
  const made = ensureToken(file, null);
  assert.is(made.origin, "generated");
  assert.is(Buffer.from(made.token, "base64url").length, 32);
  assert.is(mode(file), 0o600);
  assert.equal(ensureToken(file, null), { token: made.token, origin: "file" });
  assert.equal(ensureToken(file, "c".repeat(40)), { token: "c".repeat(40), origin: "config" });
});

test("a loosened token file is tightened; one too short to be ours is replaced", () => {
  const file = join(dir(), "token");
  writeFileSync(file, "t".repeat(43) + "\n");
  chmodSync(file, 0o644);
  assert.equal(ensureToken(file, null), { token: "t".repeat(43), origin: "file" });
  assert.is(mode(file), 0o600);
  writeFileSync(file, "short\n");
  const again = ensureToken(file, null);
  assert.is(again.origin, "generated");
  assert.is(readFileSync(file, "utf8").trim(), again.token);
});

test("a token file that is a link is refused: never read, chmodded or written through", () => {
  const d = dir();
  const target = join(mkdtempSync(join(tmpdir(), "gi-elsewhere-")), "shadow");
  const secret = "root:$6$not-a-token-but-long-enough-to-pass:19000:0:99999:7:::\n";
  writeFileSync(target, secret);
  chmodSync(target, 0o644);
  const file = join(d, "token");
  symlinkSync(target, file);
  try {
    ensureToken(file, null);
    assert.unreachable("a linked token must be refused");
  } catch (err) {
    assert.instance(err, InsightsError);
    assert.is((err as InsightsError).code, "UNSAFE_PATH");
    assert.match((err as Error).message, file);
  }
  assert.is(readFileSync(target, "utf8"), secret);
  assert.is(mode(target), 0o644, "not chmodded through the link");
});

test("a token planted by another user is refused, not trusted (root only)", () => {
  if (!(typeof process.geteuid === "function" && process.geteuid() === 0)) {
    console.log("  (skipped: needs root to chown)");
    return;
  }
  const file = join(dir(), "token");
  writeFileSync(file, "attacker-chosen-token-of-more-than-32-characters\n", { mode: 0o600 });
  chownSync(file, 54321, 54321);
  try {
    ensureToken(file, null);
    assert.unreachable("a foreign token must be refused");
  } catch (err) {
    assert.is((err as InsightsError).code, "UNSAFE_PATH");
    assert.match((err as Error).message, /belongs to uid 54321/);
  }
});

test.run();
