// The one line `insightsctl statusline` prints (docs/statusline.md): the parts `--format` names,
// in its order, joined by " · ". Colours are ANSI SGR codes, which Claude Code's status line shows;
// `color: false` gives the same text without them. No imports beyond the input's types: this runs
// after every message.
// Money by the project's one rule (shared/i18n/numbers.ts), as on the card and in the CLI.
import { formatUsd } from "../i18n/numbers.js";
import type { StatusInput, StatusWindow } from "./input.js";

export const PARTS = ["model", "session", "today", "5h", "week", "context"] as const;
export type Part = (typeof PARTS)[number];
export const DEFAULT_FORMAT = PARTS.join(",");

/** The parts a `--format` value names; a string naming the first unknown part when there is one. */
export function parseFormat(format: string): Part[] | string {
  const parts: Part[] = [];
  for (const word of format.split(",").map((w) => w.trim()).filter(Boolean)) {
    if (!(PARTS as readonly string[]).includes(word)) return word;
    if (!parts.includes(word as Part)) parts.push(word as Part);
  }
  return parts;
}

export interface RenderOptions {
  parts: readonly Part[];
  color: boolean;
  now: number;
  /** Today's cost over every provider the daemon reads; null with no daemon (the part is left out). */
  todayUsd: number | null;
}

const SGR = { dim: "2", red: "31", green: "32", yellow: "33", cyan: "36" } as const;
type Colour = keyof typeof SGR;

/** Time left to a reset, the largest two units: `4d3h`, `2h10m`, `7m`. */
export function untilReset(resetsAt: number, now: number): string {
  const s = Math.max(0, Math.floor((resetsAt - now) / 1000));
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d > 0) return `${d}d${h}h`;
  if (h > 0) return `${h}h${m}m`;
  return `${m}m`;
}

const pct = (p: number): string => `${Math.round(p)}%`;
/** Green below half, yellow from 50 %, red from 80 % (the rate-limit check's warning line). */
const level = (p: number): Colour => (p >= 80 ? "red" : p >= 50 ? "yellow" : "green");

export function renderStatusLine(input: StatusInput, o: RenderOptions): string {
  const paint = (c: Colour, text: string): string => (o.color ? `\x1b[${SGR[c]}m${text}\x1b[0m` : text);
  const windowText = (label: string, w: StatusWindow | null | undefined): string | null => {
    if (!w) return null;
    const reset = w.resetsAt !== null && w.resetsAt > o.now ? ` ${paint("dim", `↻${untilReset(w.resetsAt, o.now)}`)}` : "";
    return `${label} ${paint(level(w.usedPercent), pct(w.usedPercent))}${reset}`;
  };
  const out: string[] = [];
  for (const part of o.parts) {
    let text: string | null = null;
    switch (part) {
      case "model":
        text = input.modelName ?? input.modelId ? paint("cyan", (input.modelName ?? input.modelId) as string) : null;
        break;
      case "session":
        text = input.sessionCostUsd !== null ? `session ${formatUsd(input.sessionCostUsd, "en")}` : null;
        break;
      case "today":
        text = o.todayUsd !== null ? `today ${formatUsd(o.todayUsd, "en")}` : null;
        break;
      case "5h":
        text = windowText("5h", input.rateLimits?.fiveHour);
        break;
      case "week":
        text = windowText("week", input.rateLimits?.sevenDay);
        break;
      case "context":
        text = input.contextPercent !== null ? `ctx ${paint(level(input.contextPercent), pct(input.contextPercent))}` : null;
        break;
    }
    if (text) out.push(text);
  }
  return out.join(o.color ? paint("dim", " · ") : " · ");
}

/** What is printed when the input is missing or not Claude Code's: plain, so it never looks broken. */
export const PLAIN_LINE = "gateway-insights: no status input";
