// A one-paragraph plain-text summary of a card, beside the image in the MCP tool's answer and in
// the CLI's messages: an agent that cannot see images still gets the key numbers, per provider.
// English only: it is read by agents and scripts, whatever language the image is in.
import type { CardBlock, CardModel, CardSummary } from "./card-model.js";

const n = (v: number | null | undefined): string => (v === null || v === undefined ? "unknown" : v >= 10_000 ? `${(v / 1000).toFixed(1)}k` : String(Math.round(v * 100) / 100));
/** "1 turn", "3 turns", "unknown turns". */
const count = (v: number | null | undefined, word: string): string => `${n(v)} ${word}${v === 1 ? "" : "s"}`;
const NAMES: Readonly<Record<CardBlock["provider"], string>> = { openclaw: "OpenClaw", "claude-code": "Claude Code", codex: "Codex" };
const GATEWAY: Readonly<Record<string, string>> = { UP: "gateway running", DOWN: "gateway stopped", DEMO: "demo gateway", UNKNOWN: "gateway state unknown" };

/** Cost that is never "$0" for responses that could not be priced. */
function cost(s: CardSummary): string {
  if (s.costUsd === null) return "$unknown";
  if (s.unpricedResponses && s.costUsd === 0) return `unpriced (${count(s.unpricedResponses, "response")})`;
  return `$${s.costUsd.toFixed(4)}${s.unpricedResponses ? ` + ${count(s.unpricedResponses, "unpriced response")}` : ""}`;
}

function figures(s: CardSummary): string {
  return `${count(s.tokens, "token")}, ${cost(s)}, ${count(s.turns, "turn")}, ${count(s.errors, "error")}, ${count(s.warnings, "warning")}, sessions ${n(s.activeSessions)} active of ${n(s.totalSessions)}`;
}

function block(b: CardBlock): string {
  const head: string[] = [];
  if (b.provider === "openclaw") {
    const g = b.gateway;
    head.push(GATEWAY[g.state] ?? g.state.toLowerCase());
    if (g.version) head.push(`version ${g.version}`);
    if (g.uptimeSeconds !== null) head.push(`up ${Math.floor(g.uptimeSeconds / 3600)}h ${Math.floor((g.uptimeSeconds % 3600) / 60)}m`);
  } else if (b.cli) {
    head.push(b.cli.version ? `CLI ${b.cli.version}` : "CLI version unknown", `${count(b.cli.liveSessions, "session")} running`);
  } else head.push("CLI state unknown");
  if (b.provider === "codex" && b.rateLimits) {
    for (const r of b.rateLimits) {
      const w = [r.primary && `primary ${n(r.primary.usedPercent)}%`, r.secondary && `secondary ${n(r.secondary.usedPercent)}%`].filter(Boolean).join(", ");
      if (w) head.push(`rate limits ${w}${r.stale ? " (stale)" : ""}`);
    }
  }
  return `${NAMES[b.provider]}: ${head.join(", ")}; ${figures(b.summary)}`;
}

export function cardSummary(card: CardModel): string {
  const parts = [
    `gateway-insights ${card.insightsVersion} snapshot (${card.detail}, last ${card.range}${card.demo ? ", DEMO data" : ""})`,
    `health ${card.verdict ? card.verdict.toLowerCase() : "unknown"}`,
  ];
  if (card.allProviders) parts.push(`all providers: ${figures(card.allProviders)}`);
  for (const b of card.providers) parts.push(block(b));
  if (card.degradedSources.length) parts.push(`skipped sources: ${card.degradedSources.join(", ")}`);
  return parts.join("; ") + ".";
}
