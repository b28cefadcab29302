import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { manualClock } from "../clock.js";
import { LogHub } from "../log/logger.js";
import type { EventView } from "../queries/events.js";
import { MAX_EVENT_LIMIT, queryEvents } from "../queries/events.js";
import { queryLifetimeStats } from "../queries/lifetime.js";
import { queryMetrics } from "../queries/metrics.js";
import { querySessions } from "../queries/sessions.js";
import { OpenClawProvider } from "../sources/openclaw/provider.js";
import { SourceRegistry } from "../ingest/source-registry.js";
import { copyFixture, makeTempDir, removeTempDirs, SQLITE_FIXTURE } from "../sources/openclaw/test-fixtures.js";
import { Store } from "../store/store.js";
import { buildCardModel, CARD_LIMITS, mergeAgentEvents, type CardBuildParams } from "./build-model.js";
import { cardJsonSchema, cardModelSchema, type CardModel } from "./card-model.js";
import { emptyInputs, EXAMPLE_NOW, exampleInputs } from "./example-inputs.js";
import type { CardInputs } from "./inputs.js";
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

test("key numbers sum over agents; gateway-wide log lines count once", () => {
  const inputs = exampleInputs();
  const m = buildCardModel(inputs, params({ detail: "compact" }));
  const [main, ops] = inputs.agents;
  const tokens = (a: typeof main) => a?.metrics?.buckets.reduce((n, b) => n + b.tokens, 0) ?? 0;
  assert.is(m.summary.tokens, tokens(main) + tokens(ops));
  assert.ok(Math.abs((m.summary.costUsd ?? 0) - ((main?.metrics?.costUsd ?? 0) + (ops?.metrics?.costUsd ?? 0))) < 1e-6);
  assert.is(m.summary.costUsd, 5.110702, "rounded to the micro-dollar");
  assert.is(m.summary.turns, (main?.metrics?.totalTurns ?? 0) + (ops?.metrics?.totalTurns ?? 0));
  // main: 2 own errors, ops: 1, gateway-wide: 1 (listed by both agents, counted once)
  assert.is(m.summary.errors, 4);
  assert.is(m.summary.warnings, 2);
  assert.is(m.summary.uptimePercent, 99.6);
  // main: 6 top-level + 3 nested sub-agents; ops: 2
  assert.is(m.summary.totalSessions, 11);
  assert.is(m.summary.activeSessions, 4);
  assert.is(m.gateway.state, "degraded");
  assert.is(m.gateway.openclawVersion, "2026.9.6");
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

test("each detail level holds exactly its sections", () => {
  const inputs = exampleInputs();
  const compact = buildCardModel(inputs, params({ detail: "compact" }));
  const standard = buildCardModel(inputs, params({ detail: "standard" }));
  const full = buildCardModel(inputs, params({ detail: "full" }));
  const sections = ["tokenChart", "topSessions", "recentErrors", "subAgents", "events", "cron", "channels", "health", "system", "totals"] as const;
  const present = (m: CardModel) => sections.filter((s) => m[s] !== undefined);
  assert.equal(present(compact), []);
  assert.equal(present(standard), ["tokenChart", "topSessions", "recentErrors"]);
  assert.equal(present(full), [...sections]);
  assert.is(standard.topSessions?.items.length, CARD_LIMITS.standard.sessions);
  assert.is(full.topSessions?.items.length, 8);
  assert.is(standard.topSessions?.total, 8);
  const tokens = full.topSessions?.items.map((s) => s.totalTokens) ?? [];
  assert.equal(tokens, [...tokens].sort((a, b) => b - a), "most tokens first");
  assert.is(standard.recentErrors?.items.length, 3);
  assert.is(standard.recentErrors?.total, 4);
  assert.is(standard.tokenChart?.buckets.length, 24);
  assert.is(standard.tokenChart?.stepSeconds, 3600);
  assert.is(standard.tokenChart?.buckets.reduce((n, b) => n + b.tokens, 0), standard.summary.tokens);
  assert.is(standard.tokenChart?.buckets.reduce((n, b) => n + b.errors, 0), 4);
});

test("sub-agent tree, cron order, channels and totals of the full card", () => {
  const m = buildCardModel(exampleInputs(), params());
  assert.equal(
    m.subAgents?.rows.map((r) => `${r.depth} ${r.displayName}`),
    ["0 Alice (telegram)", "1 research: vendor pricing comparison", "1 summarise thread", "2 fetch attachments"],
  );
  assert.is(m.subAgents?.parents, 2);
  assert.is(m.subAgents?.sessions, 3);
  assert.is(m.subAgents?.more, 0);
  assert.equal(m.cron?.items.map((j) => j.id), ["nightly", "hb", "digest", "remind", "cleanup"]);
  assert.is(m.cron?.items.find((j) => j.id === "cleanup")?.nextRunAt, null, "a disabled job has no next run");
  assert.is(m.cron?.items[1]?.name, "Heartbeat (main)", "the gateway's display name wins");
  assert.is(m.channels?.items[0]?.provider, "whatsapp", "disconnected channels first");
  assert.is(m.totals?.transcripts, 359);
  assert.is(m.totals?.todayCostUsd, 4.53);
  assert.is(m.events?.total, 7);
  assert.is(m.system?.pid, 48877);
});

test("failed sources are null (shown as unavailable); no agents at all is zero, not failure", () => {
  const base = exampleInputs();
  const failed: CardInputs = {
    ...base,
    gateway: null,
    health: null,
    channels: null,
    cronJobs: null,
    resources: null,
    agents: base.agents.map((a) => ({ ...a, sessions: null, metrics: null, events: null, lifetime: null, usageCost: null })),
  };
  const m = buildCardModel(failed, params({ degradedSources: ["agent:main", "agent:ops", "gateway"] }));
  valid(m);
  assert.is(m.gateway.state, "unknown");
  assert.is(m.gateway.running, null);
  assert.equal(Object.values(m.summary), [null, null, null, null, null, null, null, null]);
  for (const s of ["tokenChart", "topSessions", "recentErrors", "subAgents", "events", "cron", "channels", "health", "totals"] as const) assert.is(m[s], null, s);
  assert.equal(m.degradedSources, ["agent:main", "agent:ops", "gateway"]);

  // One agent failing leaves the other's figures.
  const half = buildCardModel({ ...base, agents: [base.agents[0] ?? ({} as never), { ...(base.agents[1] ?? ({} as never)), sessions: null }] }, params());
  assert.is(half.summary.totalSessions, 9);

  const none = buildCardModel({ ...emptyInputs(), agents: [] }, params());
  valid(none);
  assert.is(none.summary.tokens, 0);
  assert.is(none.summary.totalSessions, 0);
  assert.is(none.tokenChart?.buckets.length, 24);
  assert.equal(none.topSessions, { total: 0, items: [] });
});

test("gateway state: stopped hides uptime; health maps to the pill", () => {
  const base = exampleInputs();
  const gw = base.gateway ?? ({} as never);
  const state = (over: Partial<CardInputs>) => buildCardModel({ ...base, ...over }, params({ detail: "compact" })).gateway;
  assert.equal([state({ gateway: { ...gw, running: false } }).state, state({ gateway: { ...gw, running: false } }).uptimeSeconds], ["stopped", null]);
  assert.is(state({ health: null }).state, "running");
  assert.is(state({ health: { status: "UNHEALTHY", checks: [] } }).state, "unhealthy");
  assert.is(state({ health: { status: "HEALTHY", checks: [] } }).state, "healthy");
});

test("every detail x theme x lang x range validates against the zod schema and the JSON Schema", () => {
  for (const detail of SNAPSHOT_DETAILS) {
    for (const theme of SNAPSHOT_THEMES) {
      for (const lang of SNAPSHOT_LANGS) {
        for (const range of ["30m", "6h", "24h"] as const) {
          valid(buildCardModel(exampleInputs(range), params({ detail, theme, lang, range })));
          valid(buildCardModel(emptyInputs(range), params({ detail, theme, lang, range, demo: true })));
        }
      }
    }
  }
  const bad = { ...buildCardModel(exampleInputs(), params()), schemaVersion: 2 };
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
      gateway: { running: true, version: agents[0]?.appVersion ?? null, appVersion: "0.1.0", uptimeSeconds: 3600, pid: 1, updateAvailable: false, latestVersion: null },
      resources: null,
      channels: [],
      health: null,
      sources: agents.map((a) => ({ id: a.id, name: a.name, status: a.state.status, lastError: a.state.lastError })),
      agents: agents.map((a) => ({
        agentId: a.agentId,
        sessions: querySessions(store, a, {}, now),
        metrics: queryMetrics(store, { sourceId: a.id, provider: a.provider }, { range: METRICS_RANGE["24h"], now, timeZone: "UTC" }),
        events: queryEvents(store, { sourceId: a.id, provider: a.provider }, { from: Math.floor((now - 86_400_000) / 1000), limit: MAX_EVENT_LIMIT }),
        lifetime: queryLifetimeStats(store, a, now),
      })),
      cronJobs: [],
      timeZone: "UTC",
    };
    for (const detail of SNAPSHOT_DETAILS) {
      const m = buildCardModel(inputs, params({ detail, generatedAt: now }));
      valid(m);
      assert.ok((m.summary.totalSessions ?? 0) > 0, "the fixture's sessions are on the card");
      assert.ok((m.summary.tokens ?? 0) > 0, "its tokens of the last day too");
    }
  } finally {
    registry.close();
    store.close();
  }
});

test.run();
