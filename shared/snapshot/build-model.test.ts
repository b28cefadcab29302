import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { manualClock } from "../base/clock.js";
import { LogHub } from "../base/log/logger.js";
import type { EventView } from "../queries/events.js";
import { MAX_EVENT_LIMIT, queryEvents } from "../queries/events.js";
import { queryLifetimeStats } from "../queries/lifetime.js";
import { queryMetrics } from "../queries/metrics.js";
import { querySessions } from "../queries/sessions.js";
import { OpenClawProvider } from "../providers/openclaw/provider.js";
import { SourceRegistry } from "../ingest/source-registry.js";
import { copyFixture, makeTempDir, removeTempDirs, SQLITE_FIXTURE } from "../../test/helpers/openclaw-fixtures.js";
import { Store } from "../store/store.js";
import type { CronRunInfo } from "../providers/contract.js";
import { buildCardModel, CARD_LIMITS, mergeAgentEvents, type CardBuildParams } from "./build-model.js";
import { cardJsonSchema, cardModelSchema, type CardBlock, type CardBlockOf, type CardModel } from "./card-model.js";
import { emptyInputs, EXAMPLE_NOW, exampleInputs } from "../../test/helpers/example-inputs.js";
import type { AgentCardInputs, CardInputs, CliCardInputs, OpenClawCardInputs, ProviderCardInputs } from "./inputs.js";
import { METRICS_RANGE, SNAPSHOT_DETAILS, SNAPSHOT_LANGS, SNAPSHOT_THEMES } from "./params.js";

test.after(removeTempDirs);

// ajv and ajv-formats come with the MCP SDK; an independent check that the published JSON
// Schema (not only zod) accepts what we emit.
// The CJS default export arrives wrapped under tsx's ESM interop; unwrap whichever we get.
type AjvCtor = typeof Ajv2020.default;
const AjvClass = ((Ajv2020 as unknown as { default?: AjvCtor }).default ?? Ajv2020) as AjvCtor;
const applyFormats = ((addFormats as unknown as { default?: typeof addFormats.default }).default ?? addFormats) as typeof addFormats.default;
const ajv = new AjvClass({ allErrors: true, strict: false });
applyFormats(ajv);
const validateJson = ajv.compile(cardJsonSchema);

function valid(model: CardModel): void {
  const json: unknown = JSON.parse(JSON.stringify(model));
  const z = cardModelSchema.safeParse(json);
  assert.ok(z.success, z.success ? "" : JSON.stringify(z.error.issues.slice(0, 3)));
  assert.ok(validateJson(json), JSON.stringify(validateJson.errors?.slice(0, 3)));
}

const params = (p: Partial<CardBuildParams> = {}): CardBuildParams => ({ detail: "full", range: "24h", theme: "dark", lang: "en", generatedAt: EXAMPLE_NOW, demo: false, degradedSources: [], ...p });

const ONE = ["openclaw"] as const;
const TWO = ["openclaw", "codex"] as const;
const ALL = ["openclaw", "claude-code", "codex"] as const;

function blockOf<P extends CardBlock["provider"]>(m: CardModel, provider: P): CardBlockOf<P> {
  const b = m.providers.find((x) => x.provider === provider);
  if (!b) throw new Error(`no ${provider} block`);
  return b as CardBlockOf<P>;
}
function inputOf<P extends ProviderCardInputs["provider"]>(i: CardInputs, provider: P): P extends "openclaw" ? OpenClawCardInputs : CliCardInputs {
  const p = i.providers.find((x) => x.provider === provider);
  if (!p) throw new Error(`no ${provider} inputs`);
  return p as P extends "openclaw" ? OpenClawCardInputs : CliCardInputs;
}
const bucketTokens = (a: AgentCardInputs | undefined): number => a?.metrics?.buckets.reduce((n, b) => n + b.tokens, 0) ?? 0;

test("one provider: key numbers sum over OpenClaw's agents; gateway-wide log lines count once; no all-providers row", () => {
  const inputs = exampleInputs("24h", EXAMPLE_NOW, ONE);
  const m = buildCardModel(inputs, params({ detail: "compact" }));
  assert.equal(m.providers.map((b) => b.provider), ["openclaw"]);
  assert.is(m.allProviders, undefined, "the all-providers row only comes with several providers");
  const oc = blockOf(m, "openclaw");
  const [main, ops] = inputOf(inputs, "openclaw").agents;
  assert.is(oc.summary.tokens, bucketTokens(main) + bucketTokens(ops));
  assert.is(oc.summary.costUsd, 5.110702, "rounded to the micro-dollar");
  assert.is(oc.summary.turns, (main?.metrics?.totalTurns ?? 0) + (ops?.metrics?.totalTurns ?? 0));
  // main: 2 own errors, ops: 1, gateway-wide: 1 (listed by both agents, counted once)
  assert.is(oc.summary.errors, 4);
  assert.is(oc.summary.warnings, 2);
  assert.is(oc.gateway.uptimePercent, 99.6);
  // main: 6 top-level + 3 nested sub-agents; ops: 2
  assert.is(oc.summary.totalSessions, 11);
  assert.is(oc.summary.activeSessions, 4);
  assert.equal([oc.gateway.state, oc.gateway.version, m.verdict], ["UP", "2026.9.6", "DEGRADED"]);
});

test("two providers: each block has its own figures; the all-providers row sums them", () => {
  const inputs = exampleInputs("24h", EXAMPLE_NOW, TWO);
  const m = buildCardModel(inputs, params({ detail: "compact" }));
  assert.equal(m.providers.map((b) => b.provider), ["openclaw", "codex"]);
  const oc = blockOf(m, "openclaw");
  const cx = blockOf(m, "codex");
  assert.is(cx.summary.tokens, bucketTokens(inputOf(inputs, "codex").agents[0]));
  assert.is(cx.summary.errors, 1);
  assert.equal([cx.summary.totalSessions, cx.summary.activeSessions], [2, 1], "from the session counts");
  assert.equal(m.allProviders, {
    tokens: (oc.summary.tokens ?? 0) + (cx.summary.tokens ?? 0),
    costUsd: 5.110702 + (cx.summary.costUsd ?? 0),
    unpricedResponses: 0,
    turns: (oc.summary.turns ?? 0) + (cx.summary.turns ?? 0),
    errors: 5,
    warnings: 2,
    activeSessions: 5,
    totalSessions: 13,
    // The example's sources were all active at its clock.
    lastActivityAt: new Date(EXAMPLE_NOW).toISOString(),
  });
});

test("three providers: blocks in A, B, C order; the CLIs' versions, running sessions, projects, unpriced responses and rate limits", () => {
  const inputs = exampleInputs("24h", EXAMPLE_NOW, ALL);
  const m = buildCardModel(inputs, params({ detail: "standard" }));
  assert.equal(m.providers.map((b) => b.provider), ["openclaw", "claude-code", "codex"]);
  const cc = blockOf(m, "claude-code");
  assert.equal(cc.cli, { version: "2.1.330", liveSessions: 2 }, "the newest version seen");
  assert.is(cc.summary.tokens, bucketTokens(inputOf(inputs, "claude-code").agents[0]));
  assert.is(cc.summary.unpricedResponses, 14);
  assert.equal(
    cc.topSessions?.items.map((s) => [s.source, s.project, s.costUsd, s.unpricedResponses]),
    [
      ["claude-code:default", "/home/ana/src/webshop", 6.482, 0],
      ["claude-code:default", "/home/ana/src/webshop", 1.214, 0],
      ["claude-code:default", "/home/ana/notes", 0, 14],
    ],
  );
  assert.is(cc.topSessions?.items[0]?.subAgentCount, 1);
  const cx = blockOf(m, "codex");
  assert.equal(cx.rateLimits, [
    {
      source: "codex:default",
      planType: "plus",
      // The example burns 24 points an hour from 62 % (read 4 min ago): the other 38 take 95 min, before the reset.
      primary: { usedPercent: 62, windowMinutes: 300, resetsAt: new Date(EXAMPLE_NOW + 108 * 60_000).toISOString(), projectedFullAt: new Date(EXAMPLE_NOW + (-4 + (38 / 24) * 60) * 60_000).toISOString() },
      secondary: { usedPercent: 84, windowMinutes: 10_080, resetsAt: new Date(EXAMPLE_NOW + 77 * 3_600_000).toISOString(), projectedFullAt: null },
      updatedAt: new Date(EXAMPLE_NOW - 4 * 60_000).toISOString(),
      stale: false,
    },
  ]);
  const sum = (k: "tokens" | "unpricedResponses" | "totalSessions"): number => m.providers.reduce((n, b) => n + (b.summary[k] ?? 0), 0);
  assert.equal([m.allProviders?.tokens, m.allProviders?.unpricedResponses, m.allProviders?.totalSessions], [sum("tokens"), sum("unpricedResponses"), sum("totalSessions")]);
  // With several providers each block lists fewer rows.
  assert.is(blockOf(m, "openclaw").topSessions?.items.length, CARD_LIMITS.several.standard.sessions);
  assert.is(m.verdict, "DEGRADED");
});

test("mergeAgentEvents keeps repeats within a list and drops the copies across lists", () => {
  const e = (time: string, agentId: string | null, message = "boom"): EventView => ({ ts: Date.parse(time) / 1000, time, type: "error", level: "error", module: "m", message, agentId, sessionKey: null });
  const wide = e("2026-03-14T10:00:00.000Z", null);
  const merged = mergeAgentEvents([
    [wide, wide, e("2026-03-14T11:00:00.000Z", "a")],
    [wide, wide, e("2026-03-14T09:00:00.000Z", "b")],
  ]);
  assert.equal(
    merged.map((x) => `${x.time.slice(11, 13)} ${x.agentId}`),
    ["11 a", "10 null", "10 null", "09 b"],
  );
});

test("each detail level holds exactly its sections, per block", () => {
  const inputs = exampleInputs("24h", EXAMPLE_NOW, ONE);
  const build = (detail: CardBuildParams["detail"]) => buildCardModel(inputs, params({ detail }));
  const sections = ["tokenChart", "topSessions", "recentErrors", "subAgents", "events", "cron", "channels", "resources", "sources", "totals"] as const;
  const present = (m: CardModel) => sections.filter((s) => (blockOf(m, "openclaw") as Record<string, unknown>)[s] !== undefined);
  const [compact, standard, full] = [build("compact"), build("standard"), build("full")];
  assert.equal(present(compact), []);
  assert.equal(present(standard), ["tokenChart", "topSessions", "recentErrors"]);
  assert.equal(present(full), [...sections]);
  assert.equal([compact.health, standard.health], [undefined, undefined]);
  assert.ok(full.health);
  const s = blockOf(standard, "openclaw");
  const f = blockOf(full, "openclaw");
  assert.is(s.topSessions?.items.length, CARD_LIMITS.one.standard.sessions);
  assert.is(f.topSessions?.items.length, 8);
  assert.is(s.topSessions?.total, 8);
  const tokens = f.topSessions?.items.map((x) => x.totalTokens) ?? [];
  assert.equal(tokens, [...tokens].sort((a, b) => b - a), "most tokens first");
  assert.is(s.recentErrors?.items.length, 3);
  assert.is(s.recentErrors?.total, 4);
  assert.is(s.tokenChart?.buckets.length, 24);
  assert.is(s.tokenChart?.stepSeconds, 3600);
  assert.is(s.tokenChart?.buckets.reduce((n, b) => n + b.tokens, 0), s.summary.tokens);
  assert.is(s.tokenChart?.buckets.reduce((n, b) => n + b.errors, 0), 4);
  // The CLI blocks: the same sections but OpenClaw's own (cron, channels, resources).
  const cli = blockOf(buildCardModel(exampleInputs(), params({ detail: "full" })), "claude-code") as Record<string, unknown>;
  assert.equal(sections.filter((x) => cli[x] !== undefined), ["tokenChart", "topSessions", "recentErrors", "subAgents", "events", "sources", "totals"]);
});

test("sub-agent tree, cron order with the overdue job, channels and totals of the full card", () => {
  const m = buildCardModel(exampleInputs("24h", EXAMPLE_NOW, ONE), params());
  const oc = blockOf(m, "openclaw");
  assert.equal(
    oc.subAgents?.rows.map((r) => `${r.depth} ${r.displayName}`),
    ["0 Alice (telegram)", "1 research: vendor pricing comparison", "1 summarise thread", "2 fetch attachments"],
  );
  assert.equal([oc.subAgents?.parents, oc.subAgents?.sessions, oc.subAgents?.more], [2, 3, 0]);
  // Failing first, then overdue, then enabled by next run, then disabled.
  assert.equal(oc.cron?.items.map((j) => j.id), ["nightly", "backup", "hb", "digest", "remind", "cleanup"]);
  assert.is(oc.cron?.items.find((j) => j.id === "backup")?.overdueSeconds, 25 * 60);
  assert.equal(oc.cron?.items.filter((j) => j.overdueSeconds !== null).map((j) => j.id), ["backup"]);
  assert.is(oc.cron?.overdue, 1);
  assert.is(oc.cron?.items.find((j) => j.id === "cleanup")?.nextRunAt, null, "a disabled job has no next run");
  assert.is(oc.cron?.items[2]?.name, "Heartbeat (main)", "the gateway's display name wins");
  assert.is(oc.channels?.items[0]?.provider, "whatsapp", "disconnected channels first");
  assert.is(oc.totals?.transcripts, 359);
  assert.is(oc.totals?.todayCostUsd, 4.53);
  assert.is(oc.events?.total, 7);
  assert.is(oc.resources?.pid, 48877);
  assert.equal(oc.sources?.map((x) => x.id), ["agent:main", "agent:ops"]);
});

test("overdue is the queries' rule: a job running now is not overdue, nor one within the grace", () => {
  const inputs = exampleInputs("24h", EXAMPLE_NOW, ONE);
  const oc = inputOf(inputs, "openclaw");
  const running: CronRunInfo = { jobId: "backup", id: "backup:1", status: "running", startedAt: EXAMPLE_NOW - 60_000, finishedAt: null, durationMs: null, error: null, summary: null, sessionKey: null, totalTokens: null } as CronRunInfo;
  const late = (over: Partial<OpenClawCardInputs>): number | null | undefined =>
    blockOf(buildCardModel({ ...inputs, providers: [{ ...oc, ...over }] }, params()), "openclaw").cron?.items.find((j) => j.id === "backup")?.overdueSeconds;
  assert.is(late({ cronRuns: { backup: [running] } }), null);
  assert.is(late({ cronJobs: oc.cronJobs?.map((j) => (j.id === "backup" ? { ...j, dueAt: EXAMPLE_NOW - 30_000 } : j)) ?? null }), null);
  assert.is(late({ cronJobs: oc.cronJobs?.map((j) => (j.id === "backup" ? { ...j, enabled: false } : j)) ?? null }), null);
});

test("failed sources are null (shown as unavailable); a provider with no sources is zero, not failure", () => {
  const base = exampleInputs();
  const failed: CardInputs = {
    ...base,
    health: null,
    providers: base.providers.map((p) =>
      p.provider === "openclaw"
        ? { ...p, gateway: null, channels: null, cronJobs: null, resources: null, agents: p.agents.map((a) => ({ ...a, sessions: null, sessionCounts: null, metrics: null, events: null, lifetime: null, usageCost: null })) }
        : p,
    ),
  };
  const m = buildCardModel(failed, params({ degradedSources: ["agent:main", "agent:ops", "gateway"] }));
  valid(m);
  const oc = blockOf(m, "openclaw");
  assert.equal([m.verdict, m.health, oc.gateway.state, oc.gateway.running], [null, null, "UNKNOWN", null]);
  assert.equal(Object.values(oc.summary), [null, null, null, null, null, null, null, null, null]);
  for (const s of ["tokenChart", "topSessions", "recentErrors", "subAgents", "events", "cron", "channels", "resources", "totals"] as const) assert.is(oc[s], null, s);
  // One provider's figure unknown: the sum over providers is unknown, not a smaller number.
  assert.is(m.allProviders?.tokens, null);
  assert.ok((blockOf(m, "codex").summary.tokens ?? 0) > 0, "the other providers keep their figures");
  assert.equal(m.degradedSources, ["agent:main", "agent:ops", "gateway"]);

  // One agent failing leaves the other's figures.
  const oc1 = inputOf(base, "openclaw");
  const half = buildCardModel({ ...base, providers: [{ ...oc1, agents: [oc1.agents[0] as AgentCardInputs, { ...(oc1.agents[1] as AgentCardInputs), sessions: null }] }] }, params());
  assert.is(blockOf(half, "openclaw").summary.totalSessions, 9);

  const e = emptyInputs();
  const none = buildCardModel({ ...e, providers: [{ ...inputOf(e, "openclaw"), agents: [] }] }, params());
  valid(none);
  const n = blockOf(none, "openclaw");
  assert.equal([n.summary.tokens, n.summary.totalSessions, n.tokenChart?.buckets.length], [0, 0, 24]);
  assert.equal(n.topSessions, { total: 0, items: [] });
});

test("the pill is the daemon's verdict; the gateway label is system.gateway.state (DEMO in demo mode, never DOWN)", () => {
  const base = exampleInputs("24h", EXAMPLE_NOW, ONE);
  const oc = inputOf(base, "openclaw");
  const gw = oc.gateway as NonNullable<OpenClawCardInputs["gateway"]>;
  const with_ = (gateway: OpenClawCardInputs["gateway"], health: CardInputs["health"] = base.health) => buildCardModel({ ...base, health, providers: [{ ...oc, gateway }] }, params({ detail: "compact" }));
  // The demo's gateway does not answer: running is false, and the card still says demo.
  const demo = with_({ ...gw, state: "DEMO", running: false, uptimeSeconds: null });
  assert.equal([blockOf(demo, "openclaw").gateway.state, blockOf(demo, "openclaw").gateway.running], ["DEMO", false]);
  const down = with_({ ...gw, state: "DOWN", running: false });
  assert.equal([blockOf(down, "openclaw").gateway.state, blockOf(down, "openclaw").gateway.uptimeSeconds], ["DOWN", null]);
  assert.is(blockOf(with_({ ...gw, state: "UNKNOWN", running: false }), "openclaw").gateway.state, "UNKNOWN", "no probe finished yet");
  assert.is(with_(gw, { status: "DEGRADED", verdict: "STARTING", checks: [] }).verdict, "STARTING", "a pending check: the verdict, not the level");
  assert.is(with_(gw, { status: "UNHEALTHY", verdict: "UNHEALTHY", checks: [] }).verdict, "UNHEALTHY");
  assert.is(with_(gw, null).verdict, null);
});

test("hostile rate limits: no number, negative or fractional figures never break the schema", () => {
  const base = exampleInputs("24h", EXAMPLE_NOW, ["codex"]);
  const cx = inputOf(base, "codex");
  const rl = cx.rateLimits?.[0];
  if (!rl) throw new Error("example inputs changed");
  const noise = { status: "PROJECTED", burnPercentPerHour: Number.NaN, fullAt: Number.POSITIVE_INFINITY, resetsAt: null, beforeReset: true, usedPercentAtReset: null, samples: 2 } as const;
  const bad = { ...rl, primary: { usedPercent: Number.NaN, windowMinutes: 300, resetsAt: null, projection: noise }, secondary: { usedPercent: -5, windowMinutes: 12.5, resetsAt: "not a time", projection: noise } };
  const m = buildCardModel({ ...base, providers: [{ ...cx, rateLimits: [bad] }] }, params());
  valid(m);
  const got = blockOf(m, "codex").rateLimits?.[0];
  assert.equal([got?.primary, got?.secondary], [null, { usedPercent: 0, windowMinutes: 13, resetsAt: null, projectedFullAt: null }]);
});

test("every provider set x detail x theme x lang x range validates against the zod schema and the JSON Schema", () => {
  for (const set of [ONE, TWO, ALL, ["claude-code"] as const]) {
    for (const detail of SNAPSHOT_DETAILS) {
      for (const theme of SNAPSHOT_THEMES) {
        for (const lang of SNAPSHOT_LANGS) {
          for (const range of ["30m", "6h", "24h"] as const) valid(buildCardModel(exampleInputs(range, EXAMPLE_NOW, set), params({ detail, theme, lang, range })));
        }
      }
    }
  }
  valid(buildCardModel(emptyInputs(), params({ demo: true })));
  const bad = { ...buildCardModel(exampleInputs(), params()), schemaVersion: 1 };
  assert.not.ok(validateJson(JSON.parse(JSON.stringify(bad))));
  assert.not.ok(cardModelSchema.safeParse(bad).success);
});

test("built from the real 2026.9.6 fixture through the read-model queries", async () => {
  const dir = copyFixture(SQLITE_FIXTURE);
  const clock = manualClock();
  const store = Store.open(join(makeTempDir(), "insights.db"), { clock });
  const registry = new SourceRegistry({ providers: [new OpenClawProvider({ stateDir: dir, env: {} })], store, clock, logger: new LogHub({ console: "off", level: "error" }).logger });
  try {
    await registry.refresh();
    const agents = registry.agentSnapshots();
    assert.ok(agents.length > 0);
    // The fixture was recorded at some point in the past: look at the day it was used.
    const last = Math.max(...agents.flatMap((a) => a.sessions.map((s) => s.updatedAt ?? 0)));
    clock.set(last + 60_000);
    const now = clock.now();
    const inputs: CardInputs = {
      appVersion: "0.1.0",
      health: null,
      providers: [
        {
          provider: "openclaw",
          gateway: { state: "UP", running: true, version: agents[0]?.appVersion ?? null, uptimeSeconds: 3600, pid: 1, updateAvailable: false, latestVersion: null },
          resources: null,
          channels: [],
          sources: agents.map((a) => ({ id: a.id, name: a.name, status: a.state.status, lastError: a.state.lastError })),
          agents: agents.map((a) => ({
        sourceId: a.id,
        sessions: querySessions(store, a, {}, now),
        metrics: queryMetrics(store, { sourceId: a.id, provider: a.provider }, { range: METRICS_RANGE["24h"], now, timeZone: "UTC" }),
        events: queryEvents(store, { sourceId: a.id, provider: a.provider }, { from: Math.floor((now - 86_400_000) / 1000), limit: MAX_EVENT_LIMIT }),
        lifetime: queryLifetimeStats(store, a, now),
      })),
          cronJobs: [],
        },
      ],
      timeZone: "UTC",
    };
    for (const detail of SNAPSHOT_DETAILS) {
      const m = buildCardModel(inputs, params({ detail, generatedAt: now }));
      valid(m);
      assert.ok((blockOf(m, "openclaw").summary.totalSessions ?? 0) > 0, "the fixture's sessions are on the card");
      assert.ok((blockOf(m, "openclaw").summary.tokens ?? 0) > 0, "its tokens of the last day too");
    }
  } finally {
    registry.close();
    store.close();
  }
});

test("the card's window ends when the card was made, not at the end of the last bucket", () => {
  // Half past the hour: hourly buckets would end half an hour from now.
  const now = EXAMPLE_NOW + 30 * 60_000 + 17_000;
  for (const inputs of [exampleInputs("24h", now), emptyInputs("24h", now)]) {
    const card = buildCardModel(inputs, params({ generatedAt: now }));
    assert.is(card.window.to, new Date(now).toISOString());
    const from = Date.parse(card.window.from);
    assert.ok(from < now && now - from <= 24 * 3_600_000, "the window starts at its first bucket, within the range");
  }
});

test.run();
