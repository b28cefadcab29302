// What every section builder needs: the model, the language's messages, the theme's colours and
// the clock the relative times are measured from (the card's own generation time, never "now",
// so the same model always draws the same image).
import type { CardGatewayState, CardModel, CardVerdict } from "../card-model.js";
import { t, tn, type Lang, type MessageKey, type PluralKey } from "../messages.js";
import { PALETTES, type Palette } from "./theme.js";

export interface Ctx {
  m: CardModel;
  lang: Lang;
  p: Palette;
  timeZone: string;
  now: number;
  t: (key: MessageKey, vars?: Readonly<Record<string, string | number>>) => string;
  /** A counted phrase in the card's language: "1 turn", "2 turns". */
  tn: (key: PluralKey, n: number) => string;
}

export function makeCtx(m: CardModel): Ctx {
  return { m, lang: m.lang, p: PALETTES[m.theme], timeZone: m.timeZone, now: Date.parse(m.generatedAt), t: (key, vars) => t(m.lang, key, vars), tn: (key, n) => tn(m.lang, key, n) };
}

/** The header pill's colour: the daemon's verdict (null: it could not be read). */
export function verdictColor(p: Palette, v: CardVerdict | null): string {
  return v === "OK" ? p.ok : v === "DEGRADED" ? p.warn : v === "UNHEALTHY" ? p.bad : v === "STARTING" ? p.accent : p.idle;
}

/** OpenClaw's gateway pill: demo is neither up nor down. */
export function gatewayColor(p: Palette, s: CardGatewayState): string {
  return s === "UP" ? p.ok : s === "DOWN" ? p.bad : s === "DEMO" ? p.accent : p.idle;
}

export function sessionColor(p: Palette, s: "ACTIVE" | "IDLE" | "DONE" | "FAILED"): string {
  return s === "ACTIVE" ? p.ok : s === "FAILED" ? p.bad : s === "IDLE" ? p.accent : p.idle;
}

export function levelColor(p: Palette, s: "PASS" | "WARN" | "FAIL" | "error" | "warning" | "restart"): string {
  return s === "PASS" ? p.ok : s === "WARN" || s === "warning" ? p.warn : s === "FAIL" || s === "error" ? p.bad : p.accent;
}
