// The alerts block of the status card: in the JSON model (critical first, capped per detail, left
// out where no rules are evaluated, null when they could not be read), drawn under the header on
// every detail level in both languages (severity, name, value against threshold, since, mute,
// the budget's pace), and passed from the read model's seam through the snapshot pipeline.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { fixtureReadModel } from "../../test/helpers/read-model.js";
import { FIXTURE_NOW } from "../../test/helpers/fixture-expectations.js";
import { ReadModel, type ActiveAlertFigure } from "../queries/read-model.js";
import { copyFixture, removeTempDirs, SQLITE_FIXTURE } from "../../test/helpers/openclaw-fixtures.js";
import { buildCardModel, type CardBuildParams } from "./build-model.js";
import { cardModelSchema, type CardModel } from "./card-model.js";
import { EXAMPLE_NOW, exampleInputs } from "../../test/helpers/example-inputs.js";
import type { CardInputs } from "./inputs.js";
import { SNAPSHOT_DETAILS, SNAPSHOT_LANGS, SNAPSHOT_THEMES } from "./params.js";
import { produceSnapshot } from "./pipeline.js";
import { renderCard } from "./render.js";

test.after(removeTempDirs);

const MIN = 60_000;
const params = (p: Partial<CardBuildParams>): CardBuildParams => ({ detail: "standard", range: "24h", theme: "dark", lang: "en", generatedAt: EXAMPLE_NOW, demo: false, degradedSources: [], ...p });

/**
 * Four alerts firing at EXAMPLE_NOW (2026-03-14 14:32 UTC; the example card prints Europe/Berlin,
 * UTC+1): a muted critical gateway-down, a critical weekly token budget of a rule of the user's,
 * a warning daily cost budget with its pace, and a warning on one session's context.
 */
const ALERTS: ActiveAlertFigure[] = [
  { ruleId: "daily-cost", ruleName: "Daily cost budget", subject: "", label: "Daily cost budget", metric: "cost", unit: "usd", severity: "warning", value: 16.42, threshold: 16, window: "day", since: EXAMPLE_NOW - 2 * MIN, mutedUntil: null, projection: { target: 20, projectedTotal: 26.5, reachesAt: Date.UTC(2026, 2, 14, 16, 40), windowEnd: Date.UTC(2026, 2, 14, 23, 0) } },
  { ruleId: "gateway-down", ruleName: "OpenClaw gateway down", subject: "", label: "OpenClaw gateway down", metric: "gateway_down", unit: "seconds", severity: "critical", value: 300, threshold: 120, window: null, since: EXAMPLE_NOW - 5 * MIN, mutedUntil: EXAMPLE_NOW + 120 * MIN, projection: null },
  { ruleId: "context", ruleName: "Context window", subject: "claude-code:default/4f1c", label: "refactor-auth", metric: "context", unit: "percent", severity: "warning", value: 87.5, threshold: 80, window: null, since: EXAMPLE_NOW - 10 * MIN, mutedUntil: null, projection: null },
  { ruleId: "cc-week", ruleName: "Claude Code tokens", subject: "", label: "Claude Code tokens", metric: "tokens", unit: "tokens", severity: "critical", value: 2_400_000, threshold: 2_000_000, window: "week", since: EXAMPLE_NOW - 60 * MIN, mutedUntil: null, projection: null },
];

const withAlerts = (alerts: CardInputs["alerts"], providers = ["claude-code"] as const): CardInputs => ({ ...exampleInputs("24h", EXAMPLE_NOW, providers), alerts });

/** The text of a text-as-text SVG in document order, entities decoded, spaces removed. */
async function cardText(model: CardModel): Promise<string> {
  const svg = (await renderCard(model, "svg", { textAsText: true })).toString("utf8");
  return [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)]
    .map((m) => m[1] ?? "")
    .join("")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, "");
}
const squeeze = (s: string): string => s.replace(/\s+/g, "");

test("JSON: every detail level has the alerts, critical first then the newest, capped, with the full count", () => {
  const ids = (m: CardModel): string[] => m.alerts?.items.map((a) => a.ruleId) ?? [];
  for (const detail of SNAPSHOT_DETAILS) {
    const m = buildCardModel(withAlerts(ALERTS), params({ detail }));
    assert.ok(cardModelSchema.safeParse(JSON.parse(JSON.stringify(m))).success, detail);
    assert.is(m.alerts?.total, 4, detail);
    assert.is(m.alerts?.critical, 2, detail);
    // Critical (newest first), then warnings (newest first); compact and standard have room for 3.
    assert.equal(ids(m), detail === "full" ? ["gateway-down", "cc-week", "daily-cost", "context"] : ["gateway-down", "cc-week", "daily-cost"], detail);
  }
  const m = buildCardModel(withAlerts(ALERTS), params({ detail: "full" }));
  assert.equal(m.alerts?.items[0], {
    ruleId: "gateway-down",
    ruleName: "OpenClaw gateway down",
    subject: "",
    label: "OpenClaw gateway down",
    metric: "gateway_down",
    severity: "critical",
    value: 300,
    threshold: 120,
    unit: "seconds",
    window: null,
    since: "2026-03-14T14:27:00.000Z",
    mutedUntil: "2026-03-14T16:32:00.000Z",
    projection: null,
  });
  assert.equal(m.alerts?.items[2]?.projection, { target: 20, projectedTotal: 26.5, reachesAt: "2026-03-14T16:40:00.000Z", windowEnd: "2026-03-14T23:00:00.000Z" });
});

test("JSON: none firing is an empty list; unreadable is null; made without the daemon, absent", () => {
  assert.equal(buildCardModel(withAlerts([]), params({})).alerts, { total: 0, critical: 0, items: [] });
  assert.is(buildCardModel(withAlerts(null), params({})).alerts, null);
  assert.not.ok("alerts" in buildCardModel(exampleInputs(), params({})), "no alerts key without an alert service");
  // Hostile figures: a non-finite value and an unknown unit still make a valid model.
  const odd = buildCardModel(withAlerts([{ ...(ALERTS[0] as ActiveAlertFigure), value: Number.NaN, unit: "furlongs", projection: { target: Number.POSITIVE_INFINITY, projectedTotal: 1, reachesAt: null, windowEnd: 0 } }]), params({}));
  assert.ok(cardModelSchema.safeParse(JSON.parse(JSON.stringify(odd))).success);
  assert.equal([odd.alerts?.items[0]?.value, odd.alerts?.items[0]?.unit, odd.alerts?.items[0]?.projection], [0, "count", null]);
});

test("the image: the alerts block under the header on every detail level, in English and Chinese", async () => {
  for (const detail of SNAPSHOT_DETAILS) {
    const en = await cardText(buildCardModel(withAlerts(ALERTS), params({ detail })));
    const lower = en.toLowerCase();
    for (const words of ["Alerts", "4 firing", "critical", "warning", "OpenClaw gateway down", "5m / 2m", "since 15:27", "muted until 17:32", "Claude Code tokens", "2.4M tokens / 2M tokens", "Daily cost budget", "$16.42 / $16.00", "at this pace $20.00 is reached at 17:40", "+1 more"].filter((w) => detail !== "full" || w !== "+1 more"))
      assert.ok(lower.includes(squeeze(words).toLowerCase()), `${detail} en: ${words}`);
    // Under the header, above every provider's block.
    assert.ok(lower.indexOf("alerts") > lower.indexOf("agentstatus") && lower.indexOf("alerts") < lower.indexOf("claudecode"), `${detail}: the block sits under the header`);
    const zh = await cardText(buildCardModel(withAlerts(ALERTS), params({ detail, lang: "zh" })));
    for (const words of ["告警", "4 条触发中", "严重", "警告", "OpenClaw 网关已停止", "静音至 17:32", "每日费用预算", "按此速度将于 17:40 达到 $20.00", "240万 Token / 200万 Token"])
      assert.ok(zh.includes(squeeze(words)), `${detail} zh: ${words}`);
    for (const english of ["muted", "firing", "at this pace", "Daily cost budget"]) assert.not.ok(zh.includes(squeeze(english)), `${detail} zh: no ${english}`);
  }
  // The full card lists the fourth: one session's context, named by the session.
  const full = await cardText(buildCardModel(withAlerts(ALERTS), params({ detail: "full" })));
  for (const words of ["Context window · refactor-auth", "87.5% / 80%"]) assert.ok(full.includes(squeeze(words)), words);
  // A built-in rule renamed by its owner keeps the owner's name in either language; a pace that
  // does not reach the budget says where the window ends.
  const renamed = [{ ...(ALERTS[0] as ActiveAlertFigure), ruleName: "Team budget", projection: { target: 20, projectedTotal: 18.25, reachesAt: null, windowEnd: Date.UTC(2026, 2, 14, 23, 0) } }];
  const zh = await cardText(buildCardModel(withAlerts(renamed), params({ lang: "zh" })));
  assert.ok(zh.includes("Teambudget") && zh.includes(squeeze("按此速度今天结束时达到 $18.25")), zh.slice(0, 200));
  const en = await cardText(buildCardModel(withAlerts(renamed), params({})));
  assert.ok(en.includes(squeeze("at this pace $18.25 by the end of the day")));
  // A small budget keeps its cents.
  const small = [{ ...(ALERTS[0] as ActiveAlertFigure), value: 0.010629, threshold: 0.0096, projection: null }];
  assert.ok((await cardText(buildCardModel(withAlerts(small), params({})))).includes(squeeze("$0.0106 / $0.0096")));
});

test("the image: nothing about alerts while none fires; the PNG is whole with them, both themes", async () => {
  for (const alerts of [[], undefined, null] as Array<ActiveAlertFigure[] | null | undefined>) {
    const text = (await cardText(buildCardModel(alerts === undefined ? exampleInputs("24h", EXAMPLE_NOW, ["claude-code"]) : withAlerts(alerts), params({})))).toLowerCase();
    assert.not.ok(text.includes("alerts") || text.includes("firing"), `${String(alerts)}: no block`);
  }
  for (const theme of SNAPSHOT_THEMES) {
    for (const lang of SNAPSHOT_LANGS) {
      const png = await renderCard(buildCardModel(withAlerts(ALERTS, ["openclaw", "claude-code", "codex"] as never), params({ detail: "compact", theme, lang })), "png");
      assert.is(png.readUInt32BE(16), 780, `${theme} ${lang}`);
      const without = await renderCard(buildCardModel(exampleInputs("24h", EXAMPLE_NOW), params({ detail: "compact", theme, lang })), "png");
      assert.ok(png.readUInt32BE(20) > without.readUInt32BE(20), `${theme} ${lang}: the block takes room`);
    }
  }
});

test("pipeline: the read model's alerts seam reaches the card; a failing one is named, none is left out", async () => {
  const dir = copyFixture(SQLITE_FIXTURE);
  const { collector, store, clock } = await fixtureReadModel(dir);
  const base = { store, collector, clock, appVersion: "0.1.0", startedAt: FIXTURE_NOW, demo: false, openclawDir: dir, timeZone: "UTC", rawDays: () => 7 };
  const json = async (model: ReadModel): Promise<{ card: CardModel; degraded: string[] }> => {
    const r = await produceSnapshot({ format: "json", detail: "compact", range: "24h", theme: "dark", lang: "en" }, { model, clock, collectTimeoutMs: 5000 });
    return { card: JSON.parse(r.body.toString("utf8")) as CardModel, degraded: r.degradedSources };
  };
  const firing = await json(new ReadModel({ ...base, alerts: () => ALERTS.slice(0, 2) }));
  assert.equal(firing.card.alerts?.items.map((a) => [a.ruleId, a.severity]), [["gateway-down", "critical"], ["daily-cost", "warning"]]);
  const failing = await json(
    new ReadModel({
      ...base,
      alerts: () => {
        throw new Error("store busy");
      },
    }),
  );
  assert.is(failing.card.alerts, null);
  assert.ok(failing.degraded.includes("alerts") && failing.card.degradedSources.includes("alerts"));
  const none = await json(new ReadModel(base));
  assert.not.ok("alerts" in none.card);
  assert.not.ok(none.degraded.includes("alerts"));
});

test.run();
