import { test } from "uvu";
import * as assert from "uvu/assert";
import { compareVersions } from "./version-order.js";

test("dotted parts compare as numbers, not text", () => {
  assert.ok(compareVersions("2.1.330", "2.1.99") > 0);
  assert.ok(compareVersions("0.169.0", "0.99.1") > 0);
  assert.ok(compareVersions("2.0.0", "10.0.0") < 0);
  assert.is(compareVersions("1.2", "1.2"), 0);
});

test("a missing part is older; non-numeric parts compare as text", () => {
  assert.ok(compareVersions("1.2", "1.2.1") < 0);
  assert.ok(compareVersions("1.2.0-beta", "1.2.0-alpha") > 0);
});

test.run();
