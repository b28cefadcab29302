import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync, lstatSync, readlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { InsightsError } from "./errors.js";
import { ensurePrivateDir, openPrivateAppend, readPrivateFile, securePrivateFile, writePrivateFile } from "./private-files.js";
import { closeSync, writeSync } from "node:fs";

const tmp = (): string => mkdtempSync(join(tmpdir(), "gi-priv-"));
const mode = (p: string): number => statSync(p).mode & 0o777;
/** Only root can give a file to another user; the ownership cases run there (this suite's CI runs as root). */
const isRoot = typeof process.geteuid === "function" && process.geteuid() === 0;
const OTHER_UID = 54321;

function refused(fn: () => unknown, pattern: RegExp): InsightsError {
  try {
    fn();
  } catch (err) {
    assert.instance(err, InsightsError);
    assert.is((err as InsightsError).code, "UNSAFE_PATH");
    assert.match((err as Error).message, pattern);
    return err as InsightsError;
  }
  assert.unreachable("should have been refused");
  throw new Error("unreachable");
}

/** A file outside the dir, standing for /etc/shadow: it must come out untouched. */
function victim(): { path: string; check(): void } {
  const path = join(tmp(), "victim");
  writeFileSync(path, "precious contents, not a token at all, 40+ chars long\n");
  chmodSync(path, 0o644);
  return {
    path,
    check: () => {
      assert.is(readFileSync(path, "utf8"), "precious contents, not a token at all, 40+ chars long\n", "the link's target is unchanged");
      assert.is(mode(path), 0o644, "the link's target keeps its mode");
    },
  };
}

test("a private dir is created 0700; one readable by others is tightened; one others can write is refused with the fix", () => {
  const root = tmp();
  const fresh = join(root, "a", "b");
  assert.equal(ensurePrivateDir(fresh, "the state dir"), { tightened: false });
  assert.is(mode(fresh), 0o700);

  const open = join(root, "open");
  mkdirSync(open);
  chmodSync(open, 0o755);
  assert.equal(ensurePrivateDir(open, "the state dir"), { tightened: true });
  assert.is(mode(open), 0o700);

  for (const m of [0o777, 0o770, 0o1777]) {
    const shared = join(root, `shared-${m.toString(8)}`);
    mkdirSync(shared);
    chmodSync(shared, m);
    const err = refused(() => ensurePrivateDir(shared, "the state dir"), /writable by other users/);
    assert.ok(err.message.includes(shared), "names the path");
    assert.ok(err.message.includes(`chmod 700 ${shared}`), "names the fix");
    assert.is(statSync(shared).mode & 0o7777, m, "a refused dir is left as it was");
  }
});

test("a linked dir is followed only where allowed; a file where a dir should be is refused", () => {
  const root = tmp();
  const real = join(root, "real");
  mkdirSync(real, { mode: 0o700 });
  const link = join(root, "link");
  symlinkSync(real, link);
  assert.equal(ensurePrivateDir(link, "the state dir"), { tightened: false });
  refused(() => ensurePrivateDir(link, "the demo dir", { followLink: false }), /symbolic link/);
  const file = join(root, "file");
  writeFileSync(file, "x");
  assert.throws(() => ensurePrivateDir(file, "the state dir"));
});

test("a dir or file owned by another user is refused (root only)", () => {
  if (!isRoot) {
    console.log("  (skipped: needs root to chown)");
    return;
  }
  const root = tmp();
  const dir = join(root, "planted");
  mkdirSync(dir, { mode: 0o700 });
  chownSync(dir, OTHER_UID, OTHER_UID);
  refused(() => ensurePrivateDir(dir, "the state dir"), new RegExp(`belongs to uid ${OTHER_UID}`));

  const file = join(root, "token");
  writeFileSync(file, "a".repeat(43), { mode: 0o600 });
  chownSync(file, OTHER_UID, OTHER_UID);
  refused(() => readPrivateFile(file, "the API token file"), /belongs to uid/);
  refused(() => securePrivateFile(file, "the store file"), /belongs to uid/);
  refused(() => openPrivateAppend(file, "the daemon log"), /belongs to uid/);
});

test("reading never follows a link, never chmods through one; our own loose file is tightened", () => {
  const dir = tmp();
  const target = victim();
  const link = join(dir, "token");
  symlinkSync(target.path, link);
  refused(() => readPrivateFile(link, "the API token file"), /symbolic link.*rm /);
  refused(() => securePrivateFile(link, "the store file"), /symbolic link/);
  target.check();

  const loose = join(dir, "loose");
  writeFileSync(loose, "mine");
  chmodSync(loose, 0o644);
  assert.is(readPrivateFile(loose, "the API token file"), "mine");
  assert.is(mode(loose), 0o600);
  assert.is(readPrivateFile(join(dir, "missing"), "x"), null);
  assert.is(securePrivateFile(join(dir, "missing"), "x"), false);
});

test("a FIFO planted at a file's name is refused at once instead of hanging the open", () => {
  const dir = tmp();
  const fifo = join(dir, "token");
  try {
    execFileSync("mkfifo", [fifo]);
  } catch {
    console.log("  (skipped: no mkfifo)");
    return;
  }
  refused(() => readPrivateFile(fifo, "the API token file"), /not a regular file/);
  refused(() => openPrivateAppend(fifo, "the daemon log"), /not a regular file/);
});

test("appending never goes through a link; a new file is 0600 whatever the umask", () => {
  const dir = tmp();
  const target = victim();
  const link = join(dir, "daemon.log");
  symlinkSync(target.path, link);
  refused(() => openPrivateAppend(link, "the daemon log"), /symbolic link/);
  target.check();

  const previous = process.umask(0o022);
  try {
    const fresh = join(dir, "fresh.log");
    const fd = openPrivateAppend(fresh, "the daemon log");
    writeSync(fd, "line\n");
    closeSync(fd);
    assert.is(mode(fresh), 0o600);
  } finally {
    process.umask(previous);
  }
});

test("writing replaces a link at the name with a 0600 file and leaves its target alone", () => {
  const dir = tmp();
  const target = victim();
  const link = join(dir, "token");
  symlinkSync(target.path, link);
  assert.is(readlinkSync(link), target.path);
  writePrivateFile(link, "new secret\n");
  assert.not.ok(lstatSync(link).isSymbolicLink());
  assert.is(readFileSync(link, "utf8"), "new secret\n");
  assert.is(mode(link), 0o600);
  target.check();
});

test.run();
