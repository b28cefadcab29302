import { Resvg } from "@resvg/resvg-js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { InsightsError } from "../errors.js";
import { buildCardModel, type CardBuildParams } from "./build-model.js";
import { cardModelSchema, type CardModel } from "./card-model.js";
import { emptyInputs, EXAMPLE_NOW, exampleInputs } from "./example-inputs.js";
import { formatCompact, formatInt, formatPercent, formatUsd } from "./format.js";
import type { CardInputs } from "./inputs.js";
import { SNAPSHOT_DETAILS, SNAPSHOT_LANGS, SNAPSHOT_THEMES } from "./params.js";
import { renderCard } from "./render.js";
import { warmRenderer } from "./warm.js";

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function pngSize(png: Buffer): { width: number; height: number } {
  assert.ok(png.subarray(0, 8).equals(PNG_SIGNATURE), "PNG signature");
  assert.is(png.readUInt32BE(8), 13, "IHDR length");
  assert.is(png.subarray(12, 16).toString("latin1"), "IHDR");
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
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

test("every format x detail x theme x lang renders; PNG is 780 wide, SVG 390; heights grow with detail", async () => {
  const inputs = exampleInputs();
  for (const theme of SNAPSHOT_THEMES) {
    for (const lang of SNAPSHOT_LANGS) {
      const heights: number[] = [];
      for (const detail of SNAPSHOT_DETAILS) {
        const model = buildCardModel(inputs, params({ detail, theme, lang }));
        const png = pngSize(await renderCard(model, "png"));
        assert.is(png.width, 780, `${detail} ${theme} ${lang}`);
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

test("the image shows the model's numbers, formatted per language", async () => {
  for (const lang of SNAPSHOT_LANGS) {
    const model = buildCardModel(exampleInputs(), params({ detail: "full", lang }));
    const text = await cardText(model);
    const s = model.summary;
    const expected = [
      formatCompact(s.tokens ?? NaN, lang),
      formatUsd(s.costUsd ?? NaN),
      formatCompact(s.turns ?? NaN, lang),
      `${s.errors}/${s.warnings}`,
      formatPercent(s.uptimePercent ?? NaN, lang),
      formatInt(s.activeSessions ?? NaN),
      formatCompact(model.tokenChart?.peakTokens ?? NaN, lang),
      ...(model.topSessions?.items ?? []).flatMap((r) => [formatCompact(r.totalTokens, lang), formatUsd(r.costUsd)]),
      formatUsd(model.totals?.costUsd ?? NaN),
      model.gateway.openclawVersion ?? "",
    ];
    for (const v of expected) assert.ok(text.includes(v.replace(/\s+/g, "")), `${lang}: ${JSON.stringify(v)} not on the card`);
  }
  const zh = await cardText(buildCardModel(exampleInputs(), params({ lang: "zh" })));
  assert.ok(zh.includes("万"), "zh counts in 万");
});

test("the card's own words: plurals, sub-second runs, one size unit, check names and messages in the card's language", async () => {
  const base = exampleInputs();
  // A session with a single turn (one whose line is short enough not to be cut); a job whose
  // last run took 291 ms and failed once.
  const oneTurn = (list: CardInputs["agents"][number]["sessions"]): typeof list => list?.map((x) => (x.displayName === "on-call (slack)" ? { ...x, turnCount: 1 } : x)) ?? null;
  const inputs: CardInputs = {
    ...base,
    agents: base.agents.map((a) => ({ ...a, sessions: oneTurn(a.sessions) })),
    cronJobs: base.cronJobs?.map((j) => (j.id === "hb" ? { ...j, lastDurationMs: 291, consecutiveErrors: 1 } : j)) ?? null,
  };
  const en = await cardText(buildCardModel(inputs, params({ detail: "full", lang: "en" })));
  for (const words of ["slack · 1 turn", "· 291 ms", "1 failure in a row", "47.1 GB free", "Event loop", "p99 delay 240 ms", "State dir"]) assert.ok(en.includes(words.replace(/\s+/g, "")), `en: ${words}`);
  for (const wrong of ["1turns", "1failuresinarow", "·0s", "48213MB", "event-loop"]) assert.not.ok(en.includes(wrong), `en: no ${wrong}`);
  const zh = await cardText(buildCardModel(inputs, params({ detail: "full", lang: "zh" })));
  for (const words of ["291 毫秒", "连续失败 1 次", "事件循环", "p99 延迟 240 毫秒", "可用 47.1 GB", "已断开：whatsapp", "2 个智能体已连接", "状态目录", "Token 用量"]) assert.ok(zh.toLowerCase().includes(words.replace(/\s+/g, "").toLowerCase()), `zh: ${words}`);
  for (const english of ["healthz answered", "agents connected", "MB free", "event-loop", "令牌"]) assert.not.ok(zh.includes(english.replace(/\s+/g, "")), `zh: no ${english}`);
});

test("empty, agent-less and failed inputs render at every detail, saying what is missing", async () => {
  const base = exampleInputs();
  const failed: CardInputs = { ...base, gateway: null, health: null, channels: null, cronJobs: null, resources: null, agents: base.agents.map((a) => ({ ...a, sessions: null, metrics: null, events: null, lifetime: null })) };
  const cases: Array<[string, CardInputs, Partial<CardBuildParams>]> = [
    ["empty", emptyInputs(), {}],
    ["no agents", { ...emptyInputs(), agents: [] }, {}],
    ["failed", failed, { degradedSources: ["agent:main", "gateway"], demo: true }],
  ];
  for (const [name, inputs, over] of cases) {
    for (const detail of SNAPSHOT_DETAILS) {
      const model = buildCardModel(inputs, params({ detail, ...over }));
      assert.is(pngSize(await renderCard(model, "png")).width, 780, `${name} ${detail}`);
    }
  }
  const empty = await cardText(buildCardModel(emptyInputs(), params({ detail: "full" })));
  for (const words of ["No sessions", "No token usage in this range", "No errors in this range", "No cron jobs", "No channels configured"]) assert.ok(empty.includes(words.replace(/\s+/g, "")), words);
  const bad = await cardText(buildCardModel(failed, params({ detail: "full", degradedSources: ["agent:main", "gateway"], demo: true })));
  for (const words of ["Unavailable: this source failed", "Missing data from: agent:main, gateway", "Demo data"]) assert.ok(bad.includes(words.replace(/\s+/g, "")), words);
});

test("hostile data: long keys, huge numbers, glyphs no font has, long lists", async () => {
  const base = exampleInputs();
  const main = base.agents[0];
  const first = main?.sessions?.[0];
  if (!main?.sessions || !first) throw new Error("example inputs changed");
  const long = "agent:main:telegram:group:-1001234567890123:topic:98765432109876543210:thread:".repeat(3);
  const many = Array.from({ length: 60 }, (_, i) => ({ ...first, key: `${long}${i}`, displayName: i % 2 ? `${long}${i}` : `🦀 𓀀 龘 ${i} ☃`, totalTokens: 9.87e12 - i, costUsd: 123_456.78, turnCount: 9_999_999, subAgents: [] }));
  const events = Array.from({ length: 1000 }, (_, i) => ({ ts: EXAMPLE_NOW / 1000 - i * 60, time: new Date(EXAMPLE_NOW - i * 60_000).toISOString(), type: "error" as const, level: "error", module: long, message: long, agentId: "main", sessionKey: null }));
  const inputs: CardInputs = { ...base, agents: [{ ...main, sessions: many, events }] };
  for (const lang of SNAPSHOT_LANGS) {
    const model = buildCardModel(inputs, params({ detail: "full", lang }));
    assert.is(model.summary.errors, 1000);
    assert.is(pngSize(await renderCard(model, "png")).width, 780);
    assert.is(svgSize(await renderCard(model, "svg")).width, 390);
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
