import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { InsightsError } from "../base/errors.js";
import { VERSION } from "../base/version.js";
import { installDemoState as install } from "./install.js";

const installDemoState = (target: string) => install(target, { now: Date.now() });

const tmp = (): string => mkdtempSync(join(tmpdir(), "gi-demo-"));

/** Someone else's directory that a planted link points at; it must survive untouched. */
function victimDir(): { dir: string; check(): void } {
  const dir = tmp();
  mkdirSync(join(dir, "openclaw-state"));
  writeFileSync(join(dir, "openclaw-state", "precious"), "keep me\n");
  return {
    dir,
    check: () => {
      assert.is(readFileSync(join(dir, "openclaw-state", "precious"), "utf8"), "keep me\n", "not deleted through the link");
      assert.not.ok(existsSync(join(dir, "openclaw-state", "openclaw.json")), "nothing copied through the link");
    },
  };
}

test("the demo copy is made once, in a private dir", () => {
  const target = join(tmp(), "state", "demo", "openclaw-state");
  installDemoState(target);
  assert.is(JSON.parse(readFileSync(join(target, ".gateway-insights-demo"), "utf8")).version, VERSION);
  assert.is(lstatSync(join(target, "..")).mode & 0o777, 0o700);
});

test("a `demo` dir that is a link is refused: nothing deleted or copied where it points", () => {
  const v = victimDir();
  const state = tmp();
  symlinkSync(v.dir, join(state, "demo"));
  try {
    installDemoState(join(state, "demo", "openclaw-state"));
    assert.unreachable("a linked demo dir must be refused");
  } catch (err) {
    assert.is((err as InsightsError).code, "UNSAFE_PATH");
  }
  v.check();
});

test("a copy dir that is a link (even with a current marker) is replaced by a real copy; its target is untouched", () => {
  const v = victimDir();
  writeFileSync(join(v.dir, "openclaw-state", ".gateway-insights-demo"), VERSION + "\n");
  const demo = join(tmp(), "demo");
  mkdirSync(demo, { mode: 0o700 });
  const target = join(demo, "openclaw-state");
  symlinkSync(join(v.dir, "openclaw-state"), target);
  installDemoState(target);
  assert.not.ok(lstatSync(target).isSymbolicLink());
  assert.ok(existsSync(join(target, ".gateway-insights-demo")));
  assert.is(readFileSync(join(v.dir, "openclaw-state", "precious"), "utf8"), "keep me\n");
});

test.run();
