import { test } from "uvu";
import * as assert from "uvu/assert";
import { InsightsError } from "../base/errors.js";
import { parseSnapshotParams, SNAPSHOT_RULES, SnapshotParamError, snapshotFileName } from "./params.js";

function fails(fn: () => unknown): SnapshotParamError {
  try {
    fn();
  } catch (err) {
    assert.instance(err, SnapshotParamError);
    assert.instance(err, InsightsError);
    return err as SnapshotParamError;
  }
  throw new Error("expected a SnapshotParamError");
}

test("defaults per interface: REST 24h, MCP and CLI 6h", () => {
  assert.equal(parseSnapshotParams({}, SNAPSHOT_RULES.rest), { detail: "standard", format: "png", range: "24h", theme: "dark", lang: "en" });
  assert.is(parseSnapshotParams(undefined, SNAPSHOT_RULES.mcp).range, "6h");
  assert.is(parseSnapshotParams(null, SNAPSHOT_RULES.cli).range, "6h");
});

test("given values win; case, spaces, null and empty strings are forgiven", () => {
  const p = parseSnapshotParams({ detail: "FULL", format: " svg ", range: "30m", theme: "Light", lang: "zh" }, SNAPSHOT_RULES.rest);
  assert.equal(p, { detail: "full", format: "svg", range: "30m", theme: "light", lang: "zh" });
  assert.is(parseSnapshotParams({ detail: null, theme: "" }, SNAPSHOT_RULES.rest).detail, "standard");
});

test("a bad value names the parameter and lists what it allows", () => {
  const e = fails(() => parseSnapshotParams({ detail: "huge" }, SNAPSHOT_RULES.rest));
  assert.is(e.code, "INVALID_PARAM");
  assert.is(e.param, "detail");
  assert.equal(e.allowed, ["compact", "standard", "full"]);
  assert.match(e.message, /detail "huge".*compact, standard, full/);
  assert.equal(e.toJSON(), { code: "INVALID_PARAM", message: e.message, param: "detail" });
  assert.equal(e.details, { param: "detail", allowed: ["compact", "standard", "full"] });
  for (const [param, value] of [["format", "gif"], ["range", "2h"], ["theme", "blue"], ["lang", "fr"]] as const) {
    assert.is(fails(() => parseSnapshotParams({ [param]: value }, SNAPSHOT_RULES.rest)).param, param);
  }
});

test("MCP has no 30m: a valid range the interface does not take says so", () => {
  const e = fails(() => parseSnapshotParams({ range: "30m" }, SNAPSHOT_RULES.mcp));
  assert.is(e.param, "range");
  assert.equal(e.allowed, ["1h", "6h", "12h", "24h"]);
  assert.match(e.message, /not supported here; allowed: 1h, 6h, 12h, 24h/);
  assert.is(parseSnapshotParams({ range: "30m" }, SNAPSHOT_RULES.cli).range, "30m");
});

test("non-strings, unknown names and non-object bodies are INVALID_PARAM", () => {
  assert.is(fails(() => parseSnapshotParams({ range: 24 }, SNAPSHOT_RULES.rest)).param, "range");
  const unknown = fails(() => parseSnapshotParams({ detial: "full" }, SNAPSHOT_RULES.rest));
  assert.is(unknown.param, "detial");
  assert.match(unknown.message, /unknown parameter "detial"/);
  assert.is(parseSnapshotParams({ detail: "full", o: "x.png", quick: true }, { ...SNAPSHOT_RULES.cli, ignoreUnknown: true }).detail, "full");
  assert.is(fails(() => parseSnapshotParams("detail=full", SNAPSHOT_RULES.rest)).param, "body");
  assert.is(fails(() => parseSnapshotParams([], SNAPSHOT_RULES.rest)).param, "body");
});

test("file name: parameters and a UTC stamp", () => {
  const name = snapshotFileName({ detail: "full", format: "png", range: "6h", theme: "light", lang: "zh" }, new Date(Date.UTC(2026, 2, 14, 9, 5, 7)));
  assert.is(name, "insights-full-6h-light-zh-20260314-090507.png");
});

test.run();
