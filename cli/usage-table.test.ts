// The usage table: 80 columns whatever the figures and names, abbreviations that never overflow
// a column, unpriced responses never shown as $0, and plain text unless asked for colour.
import { stripVTControlCharacters } from "node:util";
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { UsageReportKind } from "../shared/queries/usage-params.js";
import type { UsageFigures, UsageModelFigures, UsageReport, UsageRow } from "../shared/queries/usage-report.js";
import { compactNumber, costCell, modelLabels, money, shortModel, usageTable } from "./usage-table.js";

function figures(tokens: number, cost: number, unpriced = 0, responses = 10): UsageFigures {
  return {
    inputTokens: tokens,
    outputTokens: tokens,
    cacheWriteTokens: tokens,
    cacheReadTokens: tokens,
    reasoningTokens: tokens,
    totalTokens: 4 * tokens,
    costUsd: cost,
    responses,
    unpricedResponses: unpriced,
    costComplete: unpriced === 0,
  };
}

const MODELS = ["claude-sonnet-4-5-20250929", "gpt-5-codex", "a-model-with-a-name-far-too-long-for-any-column-of-this-table-20991231"];

function row(key: string, f: UsageFigures, extra: Partial<UsageRow> = {}, breakdown = false): UsageRow {
  const b: UsageModelFigures[] = MODELS.map((model) => ({ model, ...f }));
  return {
    key,
    ...extra,
    ...f,
    byProvider: [
      { provider: "claude-code", ...f },
      { provider: "codex", ...f },
    ],
    providers: ["claude-code", "codex"],
    sources: ["claude-code:default", "codex:default"],
    models: MODELS,
    unpricedModels: f.costComplete ? [] : ["gpt-5-mini"],
    ...(breakdown ? { breakdown: b } : {}),
  };
}

function report(kind: UsageReportKind, rows: UsageRow[], totals: UsageFigures): UsageReport {
  return {
    schemaVersion: 1,
    report: kind,
    timeZone: "America/Argentina/ComodRivadavia",
    since: "2026-01-01",
    until: "2026-12-31",
    provider: null,
    currency: "USD",
    demo: true,
    scanComplete: true,
    rows,
    totals: { ...totals, providers: ["claude-code", "codex"], sources: [], models: MODELS, unpricedModels: totals.costComplete ? [] : ["gpt-5-mini", "some-unknown-model"] },
  };
}

/** An active block of 09:00 to 14:00 UTC with its pace and projection (figures the test sets). */
function activeBlock(f: UsageFigures): NonNullable<UsageRow["block"]> {
  return {
    start: "2026-11-24T09:00:00.000Z",
    end: "2026-11-24T14:00:00.000Z",
    gap: false,
    lastActivityAt: "2026-11-24T10:00:00.000Z",
    active: true,
    burnRate: { tokensPerMinute: f.totalTokens / 240, costPerHour: f.costUsd },
    projection: { estimate: true, endsAt: "2026-11-24T14:00:00.000Z", remainingMinutes: 240, totalTokens: f.totalTokens * 1.5, costUsd: f.costUsd * 3.5 },
  };
}

const KEYS: Record<UsageReportKind, string[]> = {
  daily: ["2026-11-23", "2026-11-24"],
  weekly: ["2026-11-16", "2026-11-23"],
  monthly: ["2026-11"],
  blocks: ["2026-11-23T21:00:00.000Z", "2026-11-24T03:00:00.000Z"],
  session: ["01a20a4f-8ada-7c40-a2c4-78459390a270", "agent:main:telegram:group:-1001234567890:topic:42"],
  project: ["/home/op/code/a-very-long-project-directory-name/packages/the-backend-service", "agent:main", "(no project)"],
};

test("numbers: the shared rule (three significant digits), at most 5 characters; money: never $0.00 for a fraction of a cent", () => {
  assert.equal(
    [0, 999, 1000, 34_500, 99_949, 123_456, 999_960, 1_250_000, 123_456_789, 9_900_000_000, 5e14].map(compactNumber),
    ["0", "999", "1k", "34.5k", "99.9k", "123k", "1M", "1.25M", "123M", "9.9B", "500T"],
  );
  assert.equal([0, 0.004, 0.005, 0.42, 1234.5, 123_456, 99_999.99, 1_574_828].map(money), ["$0.00", "$0.0040", "$0.0050", "$0.42", "$1,235", "$123,456", "$100,000", "$1.57M"]);
  assert.is(costCell(figures(10, 1.5)), "$1.50");
  assert.is(costCell(figures(10, 1.5, 3)), "$1.50*", "partial: marked");
  assert.is(costCell(figures(10, 0, 10)), "unpriced", "nothing priced: not $0");
  assert.equal(MODELS.slice(0, 2).map(shortModel), ["sonnet-4-5", "gpt-5-codex"]);
});

test("model labels are unique within a table: two models that shorten alike keep what tells them apart", () => {
  // The demo's pair: OpenClaw's undated id and Claude Code's dated one both shortened to "sonnet-4-5".
  const pair = ["claude-sonnet-4-5", "claude-sonnet-4-5-20250929"];
  const labels = modelLabels([...pair, "claude-haiku-4-5-20251001", "gpt-5-codex"]);
  assert.equal([...labels.values()], ["sonnet-4-5", "sonnet-4-5-20250929", "haiku-4-5", "gpt-5-codex"]);
  // Still alike without the vendor: the full ids.
  assert.equal([...modelLabels(["claude-opus-4", "opus-4"]).values()], ["claude-opus-4", "opus-4"]);

  // In the table: one sub-row each, and the detail line names both.
  const f = figures(1234, 2.5);
  const twoSonnets = (breakdown: boolean): UsageRow => ({ ...row("2026-11-23", f, {}, breakdown), models: pair, ...(breakdown ? { breakdown: pair.map((model) => ({ model, ...f })) } : {}) });
  const wide = usageTable(report("daily", [twoSonnets(true)], f), { color: false });
  const keys = wide.filter((l) => l.startsWith("  sonnet")).map((l) => l.trim().split(/\s+/)[0]);
  assert.equal(keys, ["sonnet-4-5", "sonnet-4-5-20250929"]);
  const plain = usageTable(report("daily", [twoSonnets(false)], f), { color: false });
  assert.ok(plain.some((l) => l.trim() === "sonnet-4-5, sonnet-4-5-20250929"), plain.join("\n"));
});

test("every report, with and without --breakdown, at extreme figures and names, fits 80 columns", () => {
  const extremes = [figures(0, 0), figures(999_999_999_999, 99_999.99, 7), figures(123_456, 0.001), figures(5e14, 9_999_999, 10)];
  for (const kind of ["daily", "weekly", "monthly", "session", "project", "blocks"] as const) {
    for (const breakdown of [false, true]) {
      for (const f of extremes) {
        const extra: Partial<UsageRow> =
          kind === "session" ? { project: "/home/op/" + "deep/".repeat(30) + "x", startedAt: "2026-11-23T21:19:07.000Z", lastActivityAt: "2026-11-24T03:00:00.000Z", subagents: 12 } : kind === "blocks" ? { block: activeBlock(f) } : {};
        const r = report(kind, KEYS[kind].map((k) => row(k, f, extra, breakdown)), f);
        for (const color of [false, true]) {
          const lines = usageTable(r, { color, home: "/home/op" });
          const longest = Math.max(...lines.map((l) => stripVTControlCharacters(l).length));
          assert.ok(longest <= 80, `${kind} breakdown=${breakdown} color=${color}: a line of ${longest} columns:\n${lines.join("\n")}`);
          if (!color) assert.is(lines.join("\n"), stripVTControlCharacters(lines.join("\n")), "plain text without colour");
        }
      }
    }
  }
});

test("the table: header, one row per key with who and which models, totals; --breakdown adds models and reasoning", () => {
  const f = figures(1234, 2.5);
  const plain = usageTable(report("daily", KEYS.daily.map((k) => row(k, f)), f), { color: false });
  // The title wraps rather than overflow.
  assert.equal(plain.slice(0, 2), ["Usage by day, 2026-01-01 to 2026-12-31, America/Argentina/ComodRivadavia, demo", "  data"]);
  assert.match(plain[2] as string, /^Date +Input +Output +Cache W +Cache R +Total +Cost$/);
  // Two providers: they are sub-rows (next test), so the line under a row names the models.
  assert.match(plain.join("\n"), /\n2026-11-23 +1\.23k +1\.23k +1\.23k +1\.23k +4\.94k +\$2\.50\n {2}sonnet-4-5, gpt-5-codex, a-model/);
  assert.match(plain[plain.length - 1] as string, /^Total +1\.23k/);
  assert.not.match(plain.join("\n"), /Reasoning/);
  const wide = usageTable(report("daily", KEYS.daily.map((k) => row(k, f, {}, true)), f), { color: false });
  assert.match(wide[2] as string, /Output +Reasoning +Cache W/);
  assert.match(wide.join("\n"), /\n {2}sonnet-4-5 +1\.23k/);
  // A session's id keeps both ends; a project under HOME is shown from ~.
  const sessions = usageTable(report("session", KEYS.session.map((k) => row(k, figures(1e12, 1, 0), { project: "/home/op/code/x" }, true)), f), { color: false, home: "/home/op" });
  assert.match(sessions.join("\n"), /01a20a4f-8.*….*78459390a270/);
  assert.match(sessions.join("\n"), /claude-code, codex · ~\/code\/x/);
  const projects = usageTable(report("project", KEYS.project.map((k) => row(k, f)), f), { color: false, home: "/home/op" });
  assert.match(projects.join("\n"), /\n…[^\n]*the-backend-service /);
  assert.match(projects.join("\n"), /\nagent:main /);
});

test("calendar reports with two providers: a sub-row for each under every row; one provider asked for: none", () => {
  const f = figures(1234, 2.5);
  for (const kind of ["daily", "weekly", "monthly"] as const) {
    const text = usageTable(report(kind, KEYS[kind].map((k) => row(k, f)), f), { color: false }).join("\n");
    assert.match(text, new RegExp(`\n${KEYS[kind][0]} +1\\.23k[^\n]*\n {2}sonnet-4-5[^\n]*\n {2}Claude Code +1\\.23k +1\\.23k +1\\.23k +1\\.23k +4\\.94k +\\$2\\.50\n {2}Codex +1\\.23k`), kind);
    assert.not.match(text, /claude-code, codex ·/, "the providers are the sub-rows, not a detail line");
  }
  const one = usageTable({ ...report("daily", KEYS.daily.map((k) => row(k, f)), f), provider: "codex" }, { color: false }).join("\n");
  assert.not.match(one, /\n {2}Codex /);
});

test("--exact: every figure in full, the table as wide as they need", () => {
  const f = figures(1_574_828, 1234.5678);
  const lines = usageTable(report("daily", KEYS.daily.map((k) => row(k, f)), f), { color: false, exact: true });
  const text = lines.join("\n");
  assert.match(text, /\n2026-11-23 +1,574,828 +1,574,828 +1,574,828 +1,574,828 +6,299,312 +\$1,234\.57\n/);
  assert.not.match(text, /1\.6M/);
  // The abbreviated table for the same figures stays within 80 columns.
  assert.ok(usageTable(report("daily", KEYS.daily.map((k) => row(k, f)), f), { color: false }).every((l) => l.length <= 80));
});

test("blocks: start in the report's zone, the active block's end, burn rate and projection said as an estimate; a gap", () => {
  const f = figures(250_000, 3.5);
  const gap: UsageRow = { ...row("gap-2026-11-24T02:20:00.000Z", figures(0, 0)), block: { start: "2026-11-24T02:20:00.000Z", end: "2026-11-24T09:05:00.000Z", gap: true, lastActivityAt: null, active: false, burnRate: null, projection: null } };
  const r = { ...report("blocks", [row(KEYS.blocks[0] as string, f, { block: { ...activeBlock(f), active: false, burnRate: null, projection: null, start: "2026-11-23T21:00:00.000Z", end: "2026-11-24T02:00:00.000Z" } }), gap, row(KEYS.blocks[1] as string, f, { block: activeBlock(f) })], f), timeZone: "UTC", provider: "claude-code" as const };
  const text = usageTable(r, { color: false }).join("\n");
  assert.match(text, /^Usage by 5-hour block, claude-code,/);
  assert.match(text, /\nBlock start +Input/);
  assert.match(text, /\n11-23 21:00 +250k/);
  assert.match(text, /\n\(gap\) +0 +0 +0 +0 +0 +\$0\.00\n {2}no activity for 6h 45m\n/);
  assert.match(text, /\n11-24 09:00 +250k[^\n]*\n[^\n]*\n {2}ACTIVE until 14:00\n {2}burn rate 4\.17k tokens\/min, \$3\.50\/h\n {2}projected by 14:00 \(estimate\): 1\.5M tokens, \$12\.25\n/);
});

test("unpriced responses: a marked partial cost and a footnote naming the models", () => {
  const partial = figures(1000, 0.5, 2);
  const lines = usageTable(report("daily", [row("2026-11-23", partial), row("2026-11-24", figures(10, 0, 10, 10))], partial), { color: false });
  const text = lines.join("\n");
  const prose = text.replace(/\n {2}/g, " ");
  assert.match(text, /\n2026-11-23 .* \$0\.50\*\n/);
  assert.match(text, /\n2026-11-24 .* unpriced\n/);
  assert.match(prose, /\* Partial cost: 2 responses of gpt-5-mini, some-unknown-model have no known price/);
  assert.not.match(text, /\$0\.00/);
});

test("an empty report says so", () => {
  const lines = usageTable(report("session", [], figures(0, 0)), { color: false });
  assert.is(lines[lines.length - 1], "No usage recorded in this range.");
  assert.not.ok(lines.some((l) => l.startsWith("Total")));
});

test.run();
