// A one-paragraph plain-text summary of a card, beside the image in the MCP tool's answer and in
// the CLI's messages: an agent that cannot see images still gets the key numbers. English only:
// it is read by agents and scripts, whatever language the image is in.
import type { CardModel } from "./card-model.js";

const n = (v: number | null | undefined): string => (v === null || v === undefined ? "unknown" : v >= 10_000 ? `${(v / 1000).toFixed(1)}k` : String(Math.round(v * 100) / 100));
/** "1 turn", "3 turns", "unknown turns". */
const count = (v: number | null | undefined, word: string): string => `${n(v)} ${word}${v === 1 ? "" : "s"}`;

export function cardSummary(card: CardModel): string {
  const g = card.gateway;
  const s = card.summary;
  const state = g.running === null ? "gateway state unknown" : g.running ? "gateway running" : "gateway stopped";
  const parts = [
    `gateway-insights ${g.insightsVersion} snapshot (${card.detail}, last ${card.range}${card.demo ? ", DEMO data" : ""})`,
    `${state}${g.health ? `, health ${g.health}` : ""}${g.openclawVersion ? `, OpenClaw ${g.openclawVersion}` : ""}${g.uptimeSeconds !== null ? `, up ${Math.floor(g.uptimeSeconds / 3600)}h ${Math.floor((g.uptimeSeconds % 3600) / 60)}m` : ""}`,
    `${count(s.tokens, "token")}, $${s.costUsd === null ? "unknown" : s.costUsd.toFixed(4)}, ${count(s.turns, "turn")}, ${count(s.errors, "error")}, ${count(s.warnings, "warning")}`,
    `sessions: ${n(s.activeSessions)} active of ${n(s.totalSessions)}`,
  ];
  if (card.degradedSources.length) parts.push(`skipped sources: ${card.degradedSources.join(", ")}`);
  return parts.join("; ") + ".";
}
