// A one-paragraph plain-text summary of a card, beside the image in the MCP tool's answer and in
// the CLI's messages: an agent that cannot see images still gets the key numbers, per provider.
// In the card's language: an agent asked for a Chinese card reads a Chinese summary.
import type { CardBlock, CardModel, CardSummary } from "./card-model.js";
import { isGatewayBlock, isRateLimitedBlock } from "./blocks.js";
import { displayName } from "../providers/registry.js";
import { formatCompact, formatUsd } from "./format.js";

type Lang = CardModel["lang"];

/** The summary's words per language; counts in English take their plural only when not one. */
const WORDS = {
  en: {
    lang: "en",
    unknown: "unknown",
    count: (n: string, word: string, one: boolean): string => `${n} ${word}${one ? "" : "s"}`,
    token: "token",
    turn: "turn",
    error: "error",
    warning: "warning",
    response: "response",
    unpricedResponse: "unpriced response",
    unpriced: (n: string): string => `unpriced (${n})`,
    sessions: (active: string, total: string): string => `sessions ${active} active of ${total}`,
    gateway: { UP: "gateway running", DOWN: "gateway stopped", DEMO: "demo gateway", UNKNOWN: "gateway state unknown" } as Record<string, string>,
    version: (v: string): string => `version ${v}`,
    up: (h: number, m: number): string => `up ${h}h ${m}m`,
    cli: (v: string | null): string => (v ? `CLI ${v}` : "CLI version unknown"),
    running: (n: string, one: boolean): string => `${n} session${one ? "" : "s"} running`,
    cliUnknown: "CLI state unknown",
    rateLimits: (w: string, stale: boolean): string => `rate limits ${w}${stale ? " (stale)" : ""}`,
    primary: "primary",
    secondary: "secondary",
    head: (version: string, detail: string, range: string, demo: boolean): string => `gateway-insights ${version} snapshot (${detail}, last ${range}${demo ? ", DEMO data" : ""})`,
    health: (v: string): string => `health ${v}`,
    verdict: { OK: "ok", DEGRADED: "degraded", UNHEALTHY: "unhealthy", STARTING: "starting" } as Record<string, string>,
    all: "all providers",
    skipped: (list: string): string => `skipped sources: ${list}`,
    sep: "; ",
    comma: ", ",
    colon: ": ",
    end: ".",
  },
  zh: {
    lang: "zh",
    unknown: "未知",
    count: (n: string, word: string): string => `${word} ${n}`,
    token: "Token",
    turn: "轮次",
    error: "错误",
    warning: "警告",
    response: "响应",
    unpricedResponse: "未定价响应",
    unpriced: (n: string): string => `未定价（${n}）`,
    sessions: (active: string, total: string): string => `会话 ${active} 个活跃 / 共 ${total} 个`,
    gateway: { UP: "网关运行中", DOWN: "网关已停止", DEMO: "演示网关", UNKNOWN: "网关状态未知" } as Record<string, string>,
    version: (v: string): string => `版本 ${v}`,
    up: (h: number, m: number): string => `已运行 ${h} 小时 ${m} 分`,
    cli: (v: string | null): string => (v ? `CLI ${v}` : "CLI 版本未知"),
    running: (n: string): string => `${n} 个会话运行中`,
    cliUnknown: "CLI 状态未知",
    rateLimits: (w: string, stale: boolean): string => `用量限额 ${w}${stale ? "（已过期）" : ""}`,
    primary: "5 小时",
    secondary: "每周",
    head: (version: string, detail: string, range: string, demo: boolean): string => `gateway-insights ${version} 快照（${detail}，最近 ${range}${demo ? "，演示数据" : ""}）`,
    health: (v: string): string => `健康状态 ${v}`,
    verdict: { OK: "正常", DEGRADED: "降级", UNHEALTHY: "异常", STARTING: "启动中" } as Record<string, string>,
    all: "全部提供方",
    skipped: (list: string): string => `已跳过的数据源：${list}`,
    sep: "；",
    comma: "，",
    colon: "：",
    end: "。",
  },
} as const;

type Words = (typeof WORDS)[Lang];

/** Counts by the card's own rule (shared/i18n/numbers.ts): the summary beside a card never words a figure another way. */
const num = (w: Words, v: number | null | undefined): string => (v === null || v === undefined ? w.unknown : formatCompact(v, w.lang));
/** "1 turn", "3 turns", "unknown turns"; 轮次 3. */
const count = (w: Words, v: number | null | undefined, word: string): string => w.count(num(w, v), word, v === 1);

/** Cost that is never "$0" for responses that could not be priced. */
function cost(w: Words, s: CardSummary): string {
  if (s.costUsd === null) return `$${w.unknown}`;
  if (s.unpricedResponses && s.costUsd === 0) return w.unpriced(count(w, s.unpricedResponses, w.response));
  return `${formatUsd(s.costUsd, w.lang)}${s.unpricedResponses ? ` + ${count(w, s.unpricedResponses, w.unpricedResponse)}` : ""}`;
}

function figures(w: Words, s: CardSummary): string {
  return [count(w, s.tokens, w.token), cost(w, s), count(w, s.turns, w.turn), count(w, s.errors, w.error), count(w, s.warnings, w.warning), w.sessions(num(w, s.activeSessions), num(w, s.totalSessions))].join(w.comma);
}

function block(w: Words, b: CardBlock): string {
  const head: string[] = [];
  if (isGatewayBlock(b)) {
    const g = b.gateway;
    head.push(w.gateway[g.state] ?? g.state.toLowerCase());
    if (g.version) head.push(w.version(g.version));
    if (g.uptimeSeconds !== null) head.push(w.up(Math.floor(g.uptimeSeconds / 3600), Math.floor((g.uptimeSeconds % 3600) / 60)));
  } else if (b.cli) {
    head.push(w.cli(b.cli.version), w.running(num(w, b.cli.liveSessions), b.cli.liveSessions === 1));
  } else head.push(w.cliUnknown);
  if (isRateLimitedBlock(b) && b.rateLimits) {
    for (const r of b.rateLimits) {
      const win = [r.primary && `${w.primary} ${num(w, r.primary.usedPercent)}%`, r.secondary && `${w.secondary} ${num(w, r.secondary.usedPercent)}%`].filter(Boolean).join(w.comma);
      if (win) head.push(w.rateLimits(win, r.stale));
    }
  }
  return `${displayName(b.provider)}${w.colon}${head.join(w.comma)}${w.sep}${figures(w, b.summary)}`;
}

export function cardSummary(card: CardModel): string {
  const w: Words = WORDS[card.lang];
  const parts = [w.head(card.insightsVersion, card.detail, card.range, card.demo), w.health(card.verdict ? (w.verdict[card.verdict] ?? card.verdict.toLowerCase()) : w.unknown)];
  if (card.allProviders) parts.push(`${w.all}${w.colon}${figures(w, card.allProviders)}`);
  for (const b of card.providers) parts.push(block(w, b));
  if (card.degradedSources.length) parts.push(w.skipped(card.degradedSources.join(", ")));
  return parts.join(w.sep) + w.end;
}
