import { Resvg } from "@resvg/resvg-js";
import { crc32, inflateSync } from "node:zlib";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { InsightsError } from "../base/errors.js";
import { buildCardModel, type CardBuildParams } from "./build-model.js";
import { cardModelSchema, type CardModel } from "./card-model.js";
import { emptyInputs, EXAMPLE_NOW, exampleInputs } from "../../test/helpers/example-inputs.js";
import { formatCompact, formatInt, formatPercent, formatUsd } from "./format.js";
import type { SessionView } from "../queries/sessions.js";
import type { CardInputs, CliCardInputs, OpenClawCardInputs } from "./inputs.js";
import { SNAPSHOT_DETAILS, SNAPSHOT_LANGS, SNAPSHOT_THEMES } from "./params.js";
import { renderCard } from "./render.js";
import { warmRenderer } from "./warm.js";

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * Decodes a PNG far enough to know it is whole: signature, every chunk's CRC, IHDR, the inflated
 * IDAT stream holding exactly one filtered scanline per row, each with a valid filter byte.
 */
function pngSize(png: Buffer): { width: number; height: number } {
  assert.ok(png.subarray(0, 8).equals(PNG_SIGNATURE), "PNG signature");
  let off = 8;
  let ihdr: Buffer | null = null;
  const idat: Buffer[] = [];
  let ended = false;
  while (off + 12 <= png.length) {
    const len = png.readUInt32BE(off);
    const type = png.subarray(off + 4, off + 8);
    const data = png.subarray(off + 8, off + 8 + len);
    assert.is(png.readUInt32BE(off + 8 + len), crc32(Buffer.concat([type, data])) >>> 0, `CRC of ${type.toString("latin1")}`);
    if (type.toString("latin1") === "IHDR") ihdr = data;
    else if (type.toString("latin1") === "IDAT") idat.push(data);
    else if (type.toString("latin1") === "IEND") ended = true;
    off += 12 + len;
  }
  assert.ok(ihdr && ended, "IHDR and IEND");
  const width = (ihdr as Buffer).readUInt32BE(0);
  const height = (ihdr as Buffer).readUInt32BE(4);
  const channels = { 2: 3, 6: 4 }[(ihdr as Buffer)[9] as number];
  assert.ok((ihdr as Buffer)[8] === 8 && channels, "8-bit RGB or RGBA");
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * (channels as number) + 1;
  assert.is(raw.length, stride * height, "one scanline per row");
  for (let y = 0; y < height; y++) assert.ok((raw[y * stride] as number) <= 4, `filter byte of row ${y}`);
  return { width, height };
}

/** Parses the SVG with resvg (no rendering): throws on malformed XML. */
function svgSize(svg: Buffer): { width: number; height: number } {
  const text = svg.toString("utf8");
  assert.match(text, /^<svg [^>]*width="390"/);
  assert.ok(text.trimEnd().endsWith("</svg>"));
  const parsed = new Resvg(text, { font: { loadSystemFonts: false } });
  return { width: parsed.width, height: parsed.height };
}

const params = (p: Partial<CardBuildParams>): CardBuildParams => ({ detail: "standard", range: "24h", theme: "dark", lang: "en", generatedAt: EXAMPLE_NOW, demo: false, degradedSources: [], ...p });

test("warmRenderer loads fonts and both renderers", async () => {
  const { ms } = await warmRenderer();
  assert.ok(ms >= 0);
});

test("every format x detail x theme x lang renders, for 1, 2 and 3 providers; PNG is 780 wide, SVG 390; heights grow with detail", async () => {
  for (const providers of [["openclaw"], ["claude-code", "codex"], ["openclaw", "claude-code", "codex"]] as const) {
    const inputs = exampleInputs("24h", EXAMPLE_NOW, providers);
    for (const theme of SNAPSHOT_THEMES) {
      for (const lang of SNAPSHOT_LANGS) {
        const heights: number[] = [];
        for (const detail of SNAPSHOT_DETAILS) {
          const model = buildCardModel(inputs, params({ detail, theme, lang }));
          const png = pngSize(await renderCard(model, "png"));
          assert.is(png.width, 780, `${providers.join("+")} ${detail} ${theme} ${lang}`);
          const svg = svgSize(await renderCard(model, "svg"));
          assert.is(svg.width, 390);
          assert.is(png.height, Math.round(svg.height * 2));
          heights.push(png.height);
          const json: unknown = JSON.parse(JSON.stringify(model));
          assert.ok(cardModelSchema.safeParse(json).success);
        }
        assert.ok((heights[0] as number) < (heights[1] as number) && (heights[1] as number) < (heights[2] as number), `${theme} ${lang}: ${heights.join(" < ")}`);
      }
    }
  }
});

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

test("the image shows each block's numbers, formatted per language, in provider order", async () => {
  for (const lang of SNAPSHOT_LANGS) {
    const model = buildCardModel(exampleInputs(), params({ detail: "full", lang }));
    const text = await cardText(model);
    const all = model.allProviders;
    const expected = [formatCompact(all?.tokens ?? NaN, lang), formatUsd(all?.costUsd ?? NaN, lang)];
    for (const b of model.providers) {
      const s = b.summary;
      expected.push(formatCompact(s.tokens ?? NaN, lang), formatUsd(s.costUsd ?? NaN, lang), formatCompact(s.turns ?? NaN, lang), `${s.errors}/${s.warnings}`, formatInt(s.activeSessions ?? NaN));
      for (const r of b.topSessions?.items ?? []) expected.push(formatCompact(r.totalTokens, lang));
      if (b.provider === "openclaw") expected.push(formatPercent(b.gateway.uptimePercent ?? NaN, lang), b.gateway.version ?? "");
      else expected.push(b.cli?.version ?? "");
    }
    for (const v of expected) assert.ok(text.includes(squeeze(v)), `${lang}: ${JSON.stringify(v)} not on the card`);
    // One block after the other: OpenClaw, Claude Code, Codex.
    const at = (name: string): number => text.indexOf(squeeze(name));
    assert.ok(at("OpenClaw") < at("ClaudeCode") && at("ClaudeCode") < at("Codex"), "blocks in provider order");
  }
  const zh = await cardText(buildCardModel(exampleInputs(), params({ lang: "zh" })));
  assert.ok(zh.includes("万"), "zh counts in 万");
  assert.ok(zh.includes("全部提供方") && zh.includes("Token"), "zh headings");
});

test("the demo card says demo and never Stopped, in either language", async () => {
  const base = exampleInputs("24h", EXAMPLE_NOW, ["openclaw"]);
  const oc = base.providers[0] as OpenClawCardInputs;
  // In demo mode no demo gateway may answer: running is false, the state is DEMO.
  const demo: CardInputs = { ...base, providers: [{ ...oc, gateway: { ...(oc.gateway as NonNullable<OpenClawCardInputs["gateway"]>), state: "DEMO", running: false, uptimeSeconds: null } }] };
  for (const detail of SNAPSHOT_DETAILS) {
    const en = await cardText(buildCardModel(demo, params({ detail, demo: true })));
    assert.ok(en.includes("Demo"), `${detail}: the gateway pill says Demo`);
    assert.not.ok(en.includes("Stopped"), `${detail}: never Stopped in demo mode`);
    assert.not.ok(en.includes("notrunning"), `${detail}: nor "not running"`);
    const zh = await cardText(buildCardModel(demo, params({ detail, demo: true, lang: "zh" })));
    assert.ok(zh.includes("演示"));
    assert.not.ok(zh.includes("已停止"));
  }
  // A gateway that is really down does say so.
  const down: CardInputs = { ...base, providers: [{ ...oc, gateway: { ...(oc.gateway as NonNullable<OpenClawCardInputs["gateway"]>), state: "DOWN", running: false } }] };
  assert.ok((await cardText(buildCardModel(down, params({ detail: "compact" })))).includes("Stopped"));
});

test("the pill is the verdict: Healthy, Degraded, Unhealthy, Starting, Unknown", async () => {
  const base = exampleInputs("24h", EXAMPLE_NOW, ["codex"]);
  const cases: Array<[CardInputs["health"], string]> = [
    [{ status: "HEALTHY", verdict: "OK", checks: [] }, "Healthy"],
    [{ status: "DEGRADED", verdict: "DEGRADED", checks: [] }, "Degraded"],
    [{ status: "UNHEALTHY", verdict: "UNHEALTHY", checks: [] }, "Unhealthy"],
    [{ status: "DEGRADED", verdict: "STARTING", checks: [] }, "Starting"],
    [null, "Unknown"],
  ];
  for (const [health, word] of cases) {
    const text = await cardText(buildCardModel({ ...base, health }, params({ detail: "compact" })));
    assert.ok(text.startsWith(`Agentstatuslast24h${word}`), `${word}: ${text.slice(0, 40)}`);
  }
});

test("unpriced responses are never shown as $0", async () => {
  const base = exampleInputs("24h", EXAMPLE_NOW, ["claude-code"]);
  const cc = base.providers[0] as CliCardInputs;
  const agent = cc.agents[0];
  if (!agent?.metrics || !agent.sessions) throw new Error("example inputs changed");
  // Every response of the range was of a model with no known price.
  const metrics = { ...agent.metrics, costUsd: 0, unpricedResponses: 40, buckets: agent.metrics.buckets.map((b) => ({ ...b, costUsd: 0 })) };
  const sessions = agent.sessions.map((x) => ({ ...x, costUsd: 0, unpricedResponses: 9, subAgents: [] }));
  const inputs: CardInputs = { ...base, providers: [{ ...cc, agents: [{ ...agent, metrics, sessions, lifetime: agent.lifetime ? { ...agent.lifetime, totalCostUsd: 0, unpricedResponses: 40 } : null }] }] };
  for (const detail of SNAPSHOT_DETAILS) {
    const text = await cardText(buildCardModel(inputs, params({ detail })));
    assert.not.ok(text.includes("$0.00"), `${detail}: no $0.00 on the card`);
    assert.ok(text.includes("unpriced"), `${detail}: says unpriced`);
    assert.ok(text.includes(squeeze("+40 unpriced")), `${detail}: counts them`);
  }
  // Part priced: the dollars and the note.
  const part = await cardText(buildCardModel(exampleInputs("24h", EXAMPLE_NOW, ["claude-code"]), params({ detail: "standard" })));
  assert.ok(part.includes(squeeze("+14 unpriced")));
  const zh = await cardText(buildCardModel(inputs, params({ detail: "standard", lang: "zh" })));
  assert.ok(zh.includes("未定价") && !zh.includes("$0.00"));
});

test("Codex's rate limits: used share, window and reset on every detail; stale figures say so", async () => {
  const base = exampleInputs("24h", EXAMPLE_NOW, ["codex"]);
  for (const detail of SNAPSHOT_DETAILS) {
    const text = await cardText(buildCardModel(base, params({ detail })));
    // (Section titles are drawn upper-case.) The windows in the dashboard's words: it said "7d window" there.
    for (const words of ["Rate limits", "plan plus", "5-hour window", "62%", "resets in 2h", "Weekly window", "84%", "resets in 3d"]) assert.ok(text.toLowerCase().includes(squeeze(words).toLowerCase()), `${detail}: ${words}`);
  }
  const zh = await cardText(buildCardModel(base, params({ lang: "zh" })));
  for (const words of ["速率限制", "5 小时窗口", "2小时后重置", "每周窗口"]) assert.ok(zh.includes(squeeze(words)), `zh: ${words}`);
  const cx = base.providers[0] as CliCardInputs;
  const stale: CardInputs = { ...base, providers: [{ ...cx, rateLimits: (cx.rateLimits ?? []).map((r) => ({ ...r, stale: true, updatedAt: new Date(EXAMPLE_NOW - 6 * 3_600_000).toISOString() })) }] };
  assert.ok((await cardText(buildCardModel(stale, params({ detail: "compact" })))).includes(squeeze("as of 6h ago; the window has reset since")));
  const none: CardInputs = { ...base, providers: [{ ...cx, rateLimits: [] }] };
  assert.ok((await cardText(buildCardModel(none, params({ detail: "compact" })))).includes(squeeze("No rate limits recorded yet")));
});

test("a window projected full before its reset shows when, against the reset, in the card's zone, for every provider with rate limits", async () => {
  const base = exampleInputs("24h", EXAMPLE_NOW, ["claude-code", "codex"]);
  const full = EXAMPLE_NOW + 40 * 60_000;
  const reset = EXAMPLE_NOW + 70 * 60_000;
  const projection = { status: "PROJECTED", burnPercentPerHour: 30, fullAt: full, resetsAt: reset, beforeReset: true, usedPercentAtReset: 115, samples: 4 } as const;
  const late = { ...projection, fullAt: reset + 60_000, beforeReset: false };
  const limits = (source: string, p: typeof projection | typeof late) => [
    { source, limitId: null, planType: null, credits: null, updatedAt: new Date(EXAMPLE_NOW).toISOString(), stale: false, primary: { usedPercent: 80, windowMinutes: 300, resetsAt: new Date(reset).toISOString(), projection: p }, secondary: null },
  ];
  const inputs = (p: typeof projection | typeof late, timeZone: string): CardInputs => ({
    ...base,
    timeZone,
    providers: base.providers.map((b) => ({ ...(b as CliCardInputs), rateLimits: limits(`${b.provider}:default`, p) })),
  });
  // Expected clock times from the inputs: UTC, then a zone 5:30 ahead (no daylight saving).
  const hhmm = (ms: number, offsetMin: number): string => new Date(ms + offsetMin * 60_000).toISOString().slice(11, 16);
  for (const [zone, offset] of [["UTC", 0], ["Asia/Kolkata", 330]] as const) {
    const text = await cardText(buildCardModel(inputs(projection, zone), params({ detail: "standard" })));
    const said = squeeze(`full ≈${hhmm(full, offset)}, resets ${hhmm(reset, offset)}`);
    assert.is(text.split(said).length - 1, 2, `${zone}: one line per provider (${said})`);
  }
  const zh = await cardText(buildCardModel(inputs(projection, "UTC"), params({ lang: "zh" })));
  assert.ok(zh.includes(squeeze(`预计 ${hhmm(full, 0)} 用尽，${hhmm(reset, 0)} 重置`)));
  // Filling only after the reset is no warning.
  assert.not.ok((await cardText(buildCardModel(inputs(late, "UTC"), params({ detail: "standard" })))).includes("full≈"));
});

test("the card's own words: plurals, sub-second runs, overdue jobs, one size unit, check names and messages in the card's language", async () => {
  const base = exampleInputs("24h", EXAMPLE_NOW, ["openclaw", "claude-code"]);
  const oc = base.providers[0] as OpenClawCardInputs;
  // A session with a single turn; a job whose last run took 291 ms and failed once.
  const oneTurn = (list: SessionView[] | null): SessionView[] | null => list?.map((x) => (x.displayName === "on-call (slack)" ? { ...x, turnCount: 1 } : x)) ?? null;
  const inputs: CardInputs = {
    ...base,
    providers: [
      { ...oc, agents: oc.agents.map((a) => ({ ...a, sessions: oneTurn(a.sessions) })), cronJobs: oc.cronJobs?.map((j) => (j.id === "hb" ? { ...j, lastDurationMs: 291, consecutiveErrors: 1 } : j)) ?? null },
      ...base.providers.slice(1),
    ],
  };
  const en = await cardText(buildCardModel(inputs, params({ detail: "full", lang: "en" })));
  for (const words of ["slack · 1 turn", "· 291 ms", "1 failure in a row", "overdue 25m", "47.1 GB free", "Event loop", "p99 delay 240 ms", "State dir", "Claude Code · Pricing", "2 sessions running", "webshop"])
    assert.ok(en.includes(squeeze(words)), `en: ${words}`);
  for (const wrong of ["1turns", "1failuresinarow", "·0s", "48213MB", "event-loop", "claude-code/pricing"]) assert.not.ok(en.includes(wrong), `en: no ${wrong}`);
  const zh = await cardText(buildCardModel(inputs, params({ detail: "full", lang: "zh" })));
  for (const words of ["291 毫秒", "连续失败 1 次", "已逾期 25分钟", "事件循环", "p99 延迟 240 毫秒", "可用 47.1 GB", "已断开：whatsapp", "2 个智能体已连接", "状态目录", "Token 用量", "Claude Code · 定价", "2 个会话运行中"])
    assert.ok(zh.toLowerCase().includes(squeeze(words).toLowerCase()), `zh: ${words}`);
  for (const english of ["healthz answered", "agents connected", "MB free", "event-loop", "令牌", "overdue"]) assert.not.ok(zh.includes(squeeze(english)), `zh: no ${english}`);
});

test("empty, agent-less and failed inputs render at every detail, saying what is missing", async () => {
  const base = exampleInputs();
  const failed: CardInputs = {
    ...base,
    health: null,
    providers: base.providers.map((p) =>
      p.provider === "openclaw"
        ? { ...p, gateway: null, channels: null, cronJobs: null, resources: null, agents: p.agents.map((a) => ({ ...a, sessions: null, metrics: null, events: null, lifetime: null })) }
        : { ...p, cli: null, ...(p.provider === "codex" ? { rateLimits: null } : {}) },
    ),
  };
  const e = emptyInputs();
  const cases: Array<[string, CardInputs, Partial<CardBuildParams>]> = [
    ["empty", e, {}],
    ["no agents", { ...e, providers: e.providers.map((p) => ({ ...p, agents: [] })) }, {}],
    ["no providers", { ...e, providers: [] }, {}],
    ["failed", failed, { degradedSources: ["agent:main", "gateway"], demo: true }],
  ];
  for (const [name, inputs, over] of cases) {
    for (const detail of SNAPSHOT_DETAILS) {
      const model = buildCardModel(inputs, params({ detail, ...over }));
      assert.is(pngSize(await renderCard(model, "png")).width, 780, `${name} ${detail}`);
    }
  }
  const empty = await cardText(buildCardModel(e, params({ detail: "full" })));
  for (const words of ["No sessions", "No token usage in this range", "No errors in this range", "No cron jobs", "No channels configured"]) assert.ok(empty.includes(squeeze(words)), words);
  const bad = await cardText(buildCardModel(failed, params({ detail: "full", degradedSources: ["agent:main", "gateway"], demo: true })));
  for (const words of ["Unavailable: this source failed", "Missing data from: agent:main, gateway", "Demo data", "Unknown", "CLI state unavailable"]) assert.ok(bad.includes(squeeze(words)), words);
});

test("hostile data: long keys, huge numbers, glyphs no font has, long lists", async () => {
  const base = exampleInputs();
  const oc = base.providers[0] as OpenClawCardInputs;
  const main = oc.agents[0];
  const first = main?.sessions?.[0];
  if (!main?.sessions || !first) throw new Error("example inputs changed");
  const long = "agent:main:telegram:group:-1001234567890123:topic:98765432109876543210:thread:".repeat(3);
  const many = Array.from({ length: 60 }, (_, i) => ({ ...first, key: `${long}${i}`, displayName: i % 2 ? `${long}${i}` : `🦀 𓀀 龘 ${i} ☃`, project: i % 3 ? `/${long}/${i}` : null, totalTokens: 9.87e12 - i, costUsd: 123_456.78, unpricedResponses: i, turnCount: 9_999_999, subAgents: [] }));
  const events = Array.from({ length: 1000 }, (_, i) => ({ ts: EXAMPLE_NOW / 1000 - i * 60, time: new Date(EXAMPLE_NOW - i * 60_000).toISOString(), type: "error" as const, level: "error", module: long, message: long, agentId: "main", sessionKey: null }));
  const huge = "9".repeat(300);
  const cli = (p: CardInputs["providers"][number]): CardInputs["providers"][number] =>
    p.provider === "openclaw" ? p : { ...p, cli: { versions: [huge], liveSessions: 1e9 }, ...(p.provider === "codex" ? { rateLimits: (p.rateLimits ?? []).map((r) => ({ ...r, planType: huge, primary: r.primary && { ...r.primary, usedPercent: 1e9, windowMinutes: 1e9 } })) } : {}) };
  const inputs: CardInputs = {
    ...base,
    providers: [{ ...oc, gateway: oc.gateway && { ...oc.gateway, version: huge, latestVersion: huge }, agents: [{ ...main, sessions: many, events }] }, ...base.providers.slice(1).map(cli)],
  };
  for (const lang of SNAPSHOT_LANGS) {
    const model = buildCardModel(inputs, params({ detail: "full", lang }));
    assert.is(model.providers[0]?.summary.errors, 1000);
    assert.is(pngSize(await renderCard(model, "png")).width, 780);
    assert.is(svgSize(await renderCard(model, "svg")).width, 390);
    // Nothing drawn past the card's right edge: every text run starts inside it.
    const svg = (await renderCard(model, "svg", { textAsText: true })).toString("utf8");
    const xs = [...svg.matchAll(/<text[^>]* x="([\d.-]+)"/g)].map((m) => Number(m[1]));
    assert.ok(xs.length > 0 && xs.every((x) => x < 390), `text at x ${Math.max(...xs)}`);
  }
});

test("a renderer failure is RENDER_FAILED", async () => {
  const model = buildCardModel(exampleInputs(), params({}));
  try {
    await renderCard({ ...model, lang: "xx" } as unknown as CardModel, "png");
    assert.unreachable("should have failed");
  } catch (err) {
    assert.instance(err, InsightsError);
    assert.is((err as InsightsError).code, "RENDER_FAILED");
  }
});

test.run();
