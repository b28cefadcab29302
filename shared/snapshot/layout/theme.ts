// Colours of the two themes. Status colours are tuned per theme so that green/amber/red keep
// their contrast on both the dark and the light background (text on a tint of its own colour).
import type { SnapshotTheme } from "../params.js";
import { perProvider, type ProviderName } from "../../providers/registry.js";

export interface Palette {
  bg: string;
  surface: string;
  border: string;
  text: string;
  muted: string;
  faint: string;
  accent: string;
  bar: string;
  barEmpty: string;
  ok: string;
  warn: string;
  bad: string;
  idle: string;
  /** One colour per provider: its block's heading and its part of the stacked token chart. */
  provider: Readonly<Record<ProviderName, string>>;
}

export const PALETTES: Readonly<Record<SnapshotTheme, Palette>> = {
  dark: {
    bg: "#0d1117",
    surface: "#161b22",
    border: "#2a313c",
    text: "#e6edf3",
    muted: "#9198a1",
    faint: "#6e7681",
    accent: "#58a6ff",
    bar: "#4493f8",
    barEmpty: "#21262d",
    ok: "#3fb950",
    warn: "#d29922",
    bad: "#f85149",
    idle: "#8b949e",
    provider: perProvider((p) => p.colors.card.dark),
  },
  light: {
    bg: "#ffffff",
    surface: "#f6f8fa",
    border: "#d8dee4",
    text: "#1f2328",
    muted: "#59636e",
    faint: "#818b98",
    accent: "#0969da",
    bar: "#0969da",
    barEmpty: "#eaeef2",
    ok: "#1a7f37",
    warn: "#9a6700",
    bad: "#cf222e",
    idle: "#6e7781",
    provider: perProvider((p) => p.colors.card.light),
  },
};

/** `#rrggbb` at `alpha`, for tinted backgrounds behind status text. */
export function tint(hex: string, alpha: number): string {
  const n = parseInt(hex.slice(1), 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
}
