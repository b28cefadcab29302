import fs from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { makeTempDir, removeTempDirs } from "../../test/helpers/openclaw-fixtures.js";
import { parseStatusInput } from "./input.js";
import { DEFAULT_FORMAT, parseFormat, renderStatusLine, untilReset } from "./render.js";
import { configDirOf, MAX_REPORT_BYTES, readReport, reportOf } from "./report.js";
import { appendToSpool, MAX_SPOOL_BYTES, takeSpool } from "./spool.js";

const FIXTURE = join(import.meta.dirname, "../../test/fixtures/statusline/subscriber.json");
const text = fs.readFileSync(FIXTURE, "utf8");
type Win = { used_percentage: number; resets_at: number };
const raw = JSON.parse(text) as {
  session_id: string;
  transcript_path: string;
  model: { id: string; display_name: string };
  cost: { total_cost_usd: number };
  context_window: { used_percentage: number };
  rate_limits: { five_hour: Win; seven_day: Win; seven_day_opus: Win };
};
const plain = (s: string): string => s.replace(/\x1b\[[0-9;]*m/g, "");

test.after(removeTempDirs);

test("the documented input: model, cost, context and both windows (resets_at seconds → ms), per-model weekly windows", () => {
  const i = parseStatusInput(text);
  assert.ok(i);
  assert.is(i.sessionId, raw.session_id);
  assert.is(i.modelName, raw.model.display_name);
  assert.is(i.modelId, raw.model.id);
  assert.is(i.sessionCostUsd, raw.cost.total_cost_usd);
  assert.is(i.contextPercent, raw.context_window.used_percentage);
  assert.is(i.rateLimitsState, "present");
  assert.equal(i.rateLimits?.fiveHour, { usedPercent: raw.rate_limits.five_hour.used_percentage, resetsAt: raw.rate_limits.five_hour.resets_at * 1000 });
  assert.equal(i.rateLimits?.sevenDay, { usedPercent: raw.rate_limits.seven_day.used_percentage, resetsAt: raw.rate_limits.seven_day.resets_at * 1000 });
  assert.equal(i.rateLimits?.perModel, { opus: { usedPercent: raw.rate_limits.seven_day_opus.used_percentage, resetsAt: raw.rate_limits.seven_day_opus.resets_at * 1000 } });
});

test("hostile input: not JSON, not an object, wrong types, null or absent windows never throw", () => {
  for (const bad of ["", "not json", "[]", "42", "null", '"x"', "{".repeat(10_000)]) assert.is(parseStatusInput(bad), null, bad.slice(0, 20));
  const odd = parseStatusInput(JSON.stringify({ model: 7, cost: "cheap", context_window: { used_percentage: "26" }, rate_limits: { five_hour: { used_percentage: "42" } }, session_id: "x".repeat(5000) }));
  assert.ok(odd);
  assert.equal([odd.modelId, odd.sessionCostUsd, odd.contextPercent, odd.rateLimits, odd.sessionId], [null, null, null, null, null]);
  assert.is(parseStatusInput(JSON.stringify({ rate_limits: null }))?.rateLimitsState, "null");
  assert.is(parseStatusInput("{}")?.rateLimitsState, "absent");
});

test("the line: the parts --format names, in its order; colours only when asked; time to reset", () => {
  const i = parseStatusInput(text);
  assert.ok(i);
  const now = raw.rate_limits.five_hour.resets_at * 1000 - (2 * 60 + 10) * 60_000;
  const parts = parseFormat(DEFAULT_FORMAT);
  assert.ok(Array.isArray(parts));
  const line = renderStatusLine(i, { parts, color: false, now, todayUsd: 3.2 });
  assert.is(line, `${raw.model.display_name} · session $${raw.cost.total_cost_usd.toFixed(2)} · today $3.20 · 5h ${Math.round(raw.rate_limits.five_hour.used_percentage)}% ↻2h10m · week ${Math.round(raw.rate_limits.seven_day.used_percentage)}% ↻${untilReset(raw.rate_limits.seven_day.resets_at * 1000, now)} · ctx ${raw.context_window.used_percentage}%`);
  const coloured = renderStatusLine(i, { parts, color: true, now, todayUsd: null });
  assert.ok(coloured.includes("\x1b["), "ANSI colours");
  assert.not.ok(plain(coloured).includes("today"), "no daemon: no today part");
  const only = parseFormat("week,5h");
  assert.ok(Array.isArray(only));
  assert.ok(renderStatusLine(i, { parts: only, color: false, now, todayUsd: 1 }).startsWith(`week ${Math.round(raw.rate_limits.seven_day.used_percentage)}%`));
  assert.is(parseFormat("model,bogus"), "bogus");
  assert.is(untilReset(now + (4 * 24 + 3) * 3_600_000, now), "4d3h");
});

test("the report: config dir from the transcript path, else CLAUDE_CONFIG_DIR, else ~/.claude; checked field by field", () => {
  assert.is(configDirOf(raw.transcript_path, {}), "/home/op/.claude");
  assert.is(configDirOf(null, { CLAUDE_CONFIG_DIR: "/srv/cc", HOME: "/h" }), "/srv/cc");
  assert.is(configDirOf(null, { HOME: "/h" }), "/h/.claude");
  const i = parseStatusInput(text);
  assert.ok(i);
  const r = reportOf(i, 1234, {});
  assert.equal(readReport(JSON.parse(JSON.stringify(r))), r, "survives the wire");
  assert.is(r.responded, raw.cost.total_cost_usd > 0);
  for (const bad of [null, [], { at: "now", responded: true }, { at: 1, responded: "yes" }, { at: 1, responded: true, model: "m".repeat(500) }, { at: 1, responded: true, rateLimits: { fiveHour: { usedPercent: "x" } } }, { at: 1, responded: true, rateLimits: { perModel: { a: {}, b: {}, c: {}, d: {}, e: {} } } }]) {
    assert.throws(() => readReport(bad), undefined, JSON.stringify(bad));
  }
});

test("the spool: 0600 in a private dir, appended line by line, taken whole and emptied; capped; bad lines dropped", () => {
  const dir = join(makeTempDir("gi-spool-"), "state");
  const file = join(dir, "statusline-spool.jsonl");
  const i = parseStatusInput(text);
  assert.ok(i);
  appendToSpool(file, reportOf(i, 1000, {}));
  appendToSpool(file, reportOf(i, 2000, {}));
  assert.is(fs.statSync(file).mode & 0o777, 0o600);
  assert.is(fs.statSync(dir).mode & 0o777, 0o700);
  fs.appendFileSync(file, "garbage\n");
  const taken = takeSpool(file);
  assert.equal(taken.reports.map((r) => r.at), [1000, 2000]);
  assert.is(taken.bad, 1);
  assert.not.ok(fs.existsSync(file), "emptied");
  assert.equal(takeSpool(file), { reports: [], bad: 0 });
  // Far past the cap: it starts again from the newest reading, never grows past it.
  const r = reportOf(i, 1, {});
  const n = Math.ceil(MAX_SPOOL_BYTES / JSON.stringify(r).length) + 5;
  for (let k = 1; k <= n; k++) appendToSpool(file, { ...r, at: k });
  assert.ok(fs.statSync(file).size <= MAX_SPOOL_BYTES);
  const after = takeSpool(file).reports.map((x) => x.at);
  assert.is(after[after.length - 1], n, "the newest is kept");
  assert.ok(JSON.stringify(r).length < MAX_REPORT_BYTES);
});

test("the spool refuses a link planted at its name (nothing written through it)", () => {
  const dir = makeTempDir("gi-spool-");
  const target = join(dir, "elsewhere");
  fs.writeFileSync(target, "");
  const file = join(dir, "state", "statusline-spool.jsonl");
  fs.mkdirSync(join(dir, "state"), { mode: 0o700 });
  fs.symlinkSync(target, file);
  const i = parseStatusInput(text);
  assert.ok(i);
  assert.throws(() => appendToSpool(file, reportOf(i, 1, {})));
  assert.is(fs.readFileSync(target, "utf8"), "");
});

test.run();
