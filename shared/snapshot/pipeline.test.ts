// The snapshot pipeline over real fixtures: every provider's block from the read model (OpenClaw
// 2026.9.6, Claude Code 2.1.330, Codex 0.169.0 together), token figures checked against the
// fixtures' own lines, counts that no list limit cuts, a source that fails named on the card, when
// GATEWAY_UNREACHABLE applies, and the size ladder.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { expectedTotals, fixtureTranscripts, FIXTURE_NOW } from "../../test/helpers/fixture-expectations.js";
import { fixtureCollector, fixtureReadModel } from "../../test/helpers/read-model.js";
import { manualClock } from "../base/clock.js";
import { InsightsError } from "../base/errors.js";
import { buildIndex } from "../pricing/dataset.js";
import { Pricer } from "../pricing/pricer.js";
import { ReadModel } from "../queries/read-model.js";
import { ClaudeCodeProvider } from "../providers/claude-code/provider.js";
import { copyClaudeHome, expectedUsage, rawLines as claudeLines, transcriptFiles } from "../../test/helpers/claude-code-fixture.js";
import { CodexProvider } from "../providers/codex/provider.js";
import { copyCodexHome, mapped, rawLines as codexLines, recordSums, rolloutFiles } from "../../test/helpers/codex-fixture.js";
import type { Provider } from "../providers/contract.js";
import { openclawGateway } from "../providers/openclaw/gateway-side.js";
import { copyFixture, FILES_FIXTURE, makeTempDir, removeTempDirs, SQLITE_FIXTURE } from "../../test/helpers/openclaw-fixtures.js";
import { Store } from "../store/store.js";
import { cardModelSchema, type CardBlock, type CardBlockOf, type CardModel } from "./card-model.js";
import { produceSnapshot } from "./pipeline.js";

test.after(removeTempDirs);
const NOW = FIXTURE_NOW;
const model = fixtureReadModel;
/** Both CLI recordings end before this (2026-11-23, 21:19 and 21:29 UTC). */
const CLI_NOW = Date.parse("2026-11-23T21:40:00.000Z");

interface Dirs {
  openclaw?: string;
  claudeHome?: string;
  codexHome?: string;
}

/** A read model over the providers given, collected once, as the daemon has it; no gateway answers. */
async function providersModel(dirs: Dirs, now: number, prices: "shipped" | "none" = "shipped") {
  const clock = manualClock(now);
  const store = Store.open(join(makeTempDir(), "insights.db"), { clock });
  // "none": a price data set that knows no model, so every response is unpriced.
  const pricer = new Pricer({ now: () => clock.now(), ...(prices === "none" ? { dataset: buildIndex([], "empty") } : {}) });
  const side = dirs.openclaw ? openclawGateway.open({ dir: dirs.openclaw, demo: false, origin: "config" }, {}) : null;
  const providers: Provider[] = [
    ...(side ? [side.provider] : []),
    ...(dirs.claudeHome ? [new ClaudeCodeProvider({ env: {}, home: dirs.claudeHome, dirs: null, pricer })] : []),
    ...(dirs.codexHome ? [new CodexProvider({ env: {}, home: dirs.codexHome, dirs: null, pricer })] : []),
  ];
  const collector = fixtureCollector({ providers, side, store, clock });
  await collector.collectOnce(10_000);
  const m = new ReadModel({ store, collector, clock, appVersion: "0.1.0", startedAt: now, demo: false, openclawDir: dirs.openclaw ?? null, timeZone: "UTC", rawDays: () => 7 });
  return { model: m, collector, clock };
}

const json = async (r: { body: Buffer }): Promise<CardModel> => cardModelSchema.parse(JSON.parse(r.body.toString("utf8")));
const blockOf = <P extends CardBlock["provider"]>(card: CardModel, provider: P): CardBlockOf<P> => {
  const b = card.providers.find((x) => x.provider === provider);
  if (!b) throw new Error(`no ${provider} block`);
  return b as CardBlockOf<P>;
};
const four = (u: { input: number; output: number; cacheRead: number; cacheWrite: number }): number => u.input + u.output + u.cacheRead + u.cacheWrite;

test("three real providers: one block each, figures as the read model gives them, tokens as the fixtures' lines add up", async () => {
  const oc = copyFixture(SQLITE_FIXTURE);
  const { home: claudeHome, claudeDir } = copyClaudeHome();
  const { home: codexHome, codexDir } = copyCodexHome();
  const { model: m, collector, clock } = await providersModel({ openclaw: oc, claudeHome, codexHome }, CLI_NOW);
  try {
    const r = await produceSnapshot({ detail: "full", format: "json", range: "24h", theme: "dark", lang: "en" }, { model: m, clock, collectTimeoutMs: 5000 });
    const card = await json(r);
    assert.equal(card.providers.map((b) => b.provider), ["openclaw", "claude-code", "codex"]);
    assert.equal(r.degradedSources, [], "every reader succeeded");

    // Tokens from the fixtures' own lines: Claude Code once per (message.id, requestId) over every
    // file; Codex token_usage_record once per response_id, input without its cached part.
    const cc = blockOf(card, "claude-code");
    const ccLines = transcriptFiles(claudeDir).flatMap((f) => claudeLines(join(claudeDir, f)));
    assert.is(cc.summary.tokens, four(expectedUsage(ccLines).sums));
    const cx = blockOf(card, "codex");
    const cxTokens = rolloutFiles(codexDir).reduce((n, f) => n + four(mapped(recordSums(codexLines(join(codexDir, f))).sums)), 0);
    assert.is(cx.summary.tokens, cxTokens);
    assert.ok(cxTokens > 0 && (cc.summary.tokens ?? 0) > 0, "both recordings are inside the range");
    // OpenClaw's recording is two days older: none of it in this range, all of it in the totals.
    const ocBlock = blockOf(card, "openclaw");
    const from = Date.parse(card.window.from);
    const to = Date.parse(card.window.to);
    assert.is(ocBlock.summary.tokens, expectedTotals(fixtureTranscripts(oc), (ts) => ts >= from && ts < to).total);
    assert.is(ocBlock.totals?.tokens, expectedTotals(fixtureTranscripts(oc)).total);

    // Every other figure is the read model's.
    for (const b of card.providers) {
      const ids = m.agents().filter((a) => a.provider === b.provider).map((a) => a.id);
      const metrics = ids.map((id) => m.metrics(id, { range: "TWENTY_FOUR_HOUR" }));
      assert.is(b.summary.tokens, metrics.reduce((n, x) => n + x.buckets.reduce((s, k) => s + k.tokens, 0), 0), `${b.provider} tokens`);
      assert.ok(Math.abs((b.summary.costUsd ?? -1) - metrics.reduce((n, x) => n + x.costUsd, 0)) < 1e-6, `${b.provider} cost`);
      assert.is(b.summary.unpricedResponses, metrics.reduce((n, x) => n + x.unpricedResponses, 0), `${b.provider} unpriced`);
      assert.is(b.summary.turns, metrics.reduce((n, x) => n + x.totalTurns, 0), `${b.provider} turns`);
      assert.is(b.summary.totalSessions, ids.reduce((n, id) => n + m.sessionCounts(id).total, 0), `${b.provider} sessions`);
      assert.is(b.totals?.tokens, ids.reduce((n, id) => n + m.lifetimeStats(id).totalTokens, 0), `${b.provider} all-time tokens`);
      const top = b.topSessions?.items[0];
      if (top) assert.equal([top.source, top.project, top.totalTokens], [top.source, m.session(top.source, top.key)?.project ?? null, m.session(top.source, top.key)?.totalTokens]);
    }
    assert.ok(cc.topSessions?.items.every((s) => s.project?.startsWith("/home/")), "the CLIs' sessions name their project");
    const ccSys = m.systemOf("claude-code");
    const cxSys = m.systemOf("codex");
    assert.equal(cc.cli, { version: ccSys.provider === "openclaw" ? null : (ccSys.versions[0] ?? null), liveSessions: ccSys.provider === "openclaw" ? 0 : ccSys.liveSessions.length });
    assert.is(cc.cli?.version, "2.1.330");
    assert.is(cx.cli?.version, "0.169.0");
    // The plan's rate limits as ProviderCSystem gives them: the fixture records both windows.
    const limits = cxSys.provider === "codex" ? cxSys.rateLimits : [];
    assert.ok(limits.length > 0 && limits[0]?.primary && limits[0].secondary);
    assert.equal(
      cx.rateLimits?.map((x) => [x.source, x.primary?.usedPercent, x.primary?.windowMinutes, x.primary?.resetsAt, x.secondary?.usedPercent, x.stale]),
      limits.map((x) => [x.source, x.primary?.usedPercent, x.primary?.windowMinutes, x.primary?.resetsAt, x.secondary?.usedPercent, x.stale]),
    );
    assert.equal(cx.rateLimits?.[0]?.primary?.windowMinutes, 300);
    assert.equal(cx.rateLimits?.[0]?.secondary?.windowMinutes, 10_080);
    // The pill is the daemon's one verdict over all three; the gateway label its state.
    const overall = m.overallHealth();
    assert.is(card.verdict, overall.verdict);
    assert.equal(card.health?.checks.map((c) => c.name), overall.checks.map((c) => c.name));
    assert.ok(card.health?.checks.some((c) => c.name.startsWith("codex/")));
    assert.is(ocBlock.gateway.state, m.system()?.gateway.state);
    assert.is(ocBlock.gateway.state, "DOWN", "no gateway answers beside a fixture");
    // All providers: the blocks added up.
    assert.is(card.allProviders?.tokens, card.providers.reduce((n, b) => n + (b.summary.tokens ?? 0), 0));

    // The image of the same card: 780 px wide, all three named.
    const png = await produceSnapshot({ detail: "standard", format: "png", range: "24h", theme: "dark", lang: "en" }, { model: m, clock, collectTimeoutMs: 5000 });
    assert.is(png.body.readUInt32BE(16), 780);
    const svg = (await produceSnapshot({ detail: "compact", format: "svg", range: "24h", theme: "light", lang: "zh" }, { model: m, clock, collectTimeoutMs: 5000 })).body.toString("utf8");
    assert.match(svg, /^<svg[^>]* width="390"/);
  } finally {
    await collector.stop();
  }
});

test("responses with no known price are counted on the card and never shown as $0", async () => {
  const { home: claudeHome, claudeDir } = copyClaudeHome();
  const { model: m, collector, clock } = await providersModel({ claudeHome }, CLI_NOW, "none");
  try {
    const card = await json(await produceSnapshot({ detail: "full", format: "json", range: "24h", theme: "dark", lang: "en" }, { model: m, clock, collectTimeoutMs: 5000 }));
    const cc = blockOf(card, "claude-code");
    const responses = expectedUsage(transcriptFiles(claudeDir).flatMap((f) => claudeLines(join(claudeDir, f)))).responses;
    assert.ok(responses > 0);
    assert.equal([cc.summary.costUsd, cc.summary.unpricedResponses], [0, responses], "every response of the fixture, none priced");
    assert.is(cc.totals?.unpricedResponses, responses);
    assert.ok(cc.topSessions?.items.every((s) => s.unpricedResponses > 0 || s.totalTokens === 0));
    const svg = (await produceSnapshot({ detail: "standard", format: "svg", range: "24h", theme: "dark", lang: "en" }, { model: m, clock, collectTimeoutMs: 5000, render: async (c, f) => (await import("./render.js")).renderCard(c, f, { textAsText: true }) })).body.toString("utf8");
    const text = [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((x) => x[1]).join("");
    // The cost tile and every session that had responses say unpriced; $0.00 is left only for a
    // session with no response at all (the fixture's failed one), which truly cost nothing.
    const shown = cc.topSessions?.items ?? [];
    assert.is(text.split("unpriced").length - 1, 1 + shown.filter((s) => s.unpricedResponses > 0).length + 1, "tile, its note, and each priced-nothing session");
    assert.is(text.split("$0.00").length - 1, shown.filter((s) => s.unpricedResponses === 0 && s.totalTokens === 0).length, "no $0 for what could not be priced");
  } finally {
    await collector.stop();
  }
});

test("GATEWAY_UNREACHABLE only when OpenClaw is the only provider and cannot be read at all", async () => {
  const missing = join(makeTempDir(), "no-such-openclaw");
  const alone = await providersModel({ openclaw: missing }, CLI_NOW);
  try {
    await produceSnapshot({ detail: "compact", format: "json", range: "24h", theme: "dark", lang: "en" }, { model: alone.model, clock: alone.clock, collectTimeoutMs: 2000 });
    assert.unreachable("nothing to show");
  } catch (err) {
    assert.is((err as InsightsError).code, "GATEWAY_UNREACHABLE");
  } finally {
    await alone.collector.stop();
  }
  const { home: codexHome } = copyCodexHome();
  const both = await providersModel({ openclaw: missing, codexHome }, CLI_NOW);
  try {
    const r = await produceSnapshot({ detail: "standard", format: "json", range: "24h", theme: "dark", lang: "en" }, { model: both.model, clock: both.clock, collectTimeoutMs: 2000 });
    const card = await json(r);
    assert.ok(r.degradedSources.includes("openclaw"), `named: ${r.degradedSources.join(",")}`);
    assert.ok((blockOf(card, "codex").summary.tokens ?? 0) > 0, "Codex's block is made");
    assert.is(blockOf(card, "openclaw").gateway.state, "DOWN");
  } finally {
    await both.collector.stop();
  }
});

test("session counts on the card cover every session, past any list limit", async () => {
  const dir = copyFixture(FILES_FIXTURE);
  const file = join(dir, "agents", "main", "sessions", "sessions.json");
  const index = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  const before = Object.keys(index).length;
  for (let i = 0; i < 150; i++) index[`agent:main:telegram:group:${i}`] = { sessionId: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`, updatedAt: NOW - 3_600_000, status: "done" };
  writeFileSync(file, JSON.stringify(index));
  const { model: m, collector, clock } = await model(dir);
  const r = await produceSnapshot({ detail: "standard", format: "json", range: "24h", theme: "dark", lang: "en" }, { model: m, clock, collectTimeoutMs: 5000 });
  const card = JSON.parse(r.body.toString("utf8")) as CardModel;
  assert.is(card.providers[0]?.summary.totalSessions, before + 150);
  assert.is(m.sessions("agent:main").length, 100, "the list itself stops at its default limit");
  await collector.stop();
});

test("a refresh that fails names its source; the rest of the card is made", async () => {
  const { model: m, collector, clock } = await model(copyFixture(FILES_FIXTURE));
  const r = await produceSnapshot(
    { detail: "full", format: "json", range: "24h", theme: "dark", lang: "en" },
    { model: m, clock, collectTimeoutMs: 1000, refresh: async (job) => (job === "cron" ? Promise.reject(new Error("cron store locked")) : undefined) },
  );
  const card = JSON.parse(r.body.toString("utf8")) as CardModel;
  assert.equal(r.degradedSources, ["cron"]);
  assert.is(blockOf(card, "openclaw").cron, null);
  assert.ok((card.providers[0]?.summary.tokens ?? 0) > 0);
  await collector.stop();
});

test("the ladder steps full -> standard -> compact to fit, and gives up with PAYLOAD_TOO_LARGE", async () => {
  const { model: m, collector, clock } = await model(copyFixture(FILES_FIXTURE));
  const sizes: Record<string, number> = {};
  for (const detail of ["full", "standard", "compact"] as const) {
    sizes[detail] = (await produceSnapshot({ detail, format: "json", range: "24h", theme: "dark", lang: "en" }, { model: m, clock, collectTimeoutMs: 1000 })).body.length;
  }
  const r = await produceSnapshot({ detail: "full", format: "json", range: "24h", theme: "dark", lang: "en" }, { model: m, clock, collectTimeoutMs: 1000, maxBytes: (sizes.compact as number) + 1 });
  assert.equal([r.requestedDetail, r.params.detail], ["full", "compact"]);
  assert.match(r.fileName, /^insights-compact-24h-dark-en-/);
  try {
    await produceSnapshot({ detail: "full", format: "json", range: "24h", theme: "dark", lang: "en" }, { model: m, clock, collectTimeoutMs: 1000, maxBytes: 100 });
    assert.unreachable("no card fits in 100 bytes");
  } catch (err) {
    assert.is((err as InsightsError).code, "PAYLOAD_TOO_LARGE");
  }
  await collector.stop();
});

test.run();
