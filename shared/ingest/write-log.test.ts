import { test } from "uvu";
import * as assert from "uvu/assert";
import { WriteLog } from "./write-log.js";

test("the sessions written since a count are the union of the later writes' keys", () => {
  const log = new WriteLog();
  log.record(["a"]);
  const at = log.writes;
  log.record(["b", "c"]);
  log.record([]);
  log.record(["b"]);
  assert.is(log.writes, 4);
  assert.equal(log.keysSince(at), new Set(["b", "c"]));
  assert.equal(log.keysSince(log.writes), new Set(), "nothing written since: no key");
  assert.equal(log.keysSince(0), new Set(["a", "b", "c"]));
});

test("not known: a write that did not say, too far back, or a count from the future", () => {
  const log = new WriteLog();
  log.record(["a"]);
  const at = log.writes;
  log.record(null);
  log.record(["b"]);
  assert.is(log.keysSince(at), null, "a write without keys may have touched any session");
  assert.equal(log.keysSince(log.writes - 1), new Set(["b"]), "after it: known again");
  assert.is(log.keysSince(log.writes + 1), null);
  const start = log.writes;
  for (let i = 0; i < 1000; i++) log.record([`k${i}`]);
  assert.is(log.keysSince(start), null, "older than the writes remembered");
  assert.equal(log.keysSince(log.writes - 2), new Set(["k998", "k999"]));
});

test.run();
