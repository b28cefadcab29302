// The colour theme: the user's choice (system, light or dark), remembered, and the resolved theme
// written to <html data-theme> so the CSS custom properties of styles/tokens.css apply.
import { computed, effect, signal } from "@preact/signals";
import { readPref, writePref } from "../lib/storage";

export type ThemeChoice = "system" | "light" | "dark";
export type Theme = "light" | "dark";

const saved = readPref("theme");
export const themeChoice = signal<ThemeChoice>(saved === "light" || saved === "dark" ? saved : "system");

const media = window.matchMedia("(prefers-color-scheme: dark)");
const systemDark = signal(media.matches);
media.addEventListener("change", (e) => (systemDark.value = e.matches));

export const theme = computed<Theme>(() => (themeChoice.value === "system" ? (systemDark.value ? "dark" : "light") : themeChoice.value));

export function setThemeChoice(choice: ThemeChoice): void {
  themeChoice.value = choice;
  writePref("theme", choice === "system" ? null : choice);
}

/** Applies the theme to the document now and whenever it changes. */
export function applyTheme(): void {
  effect(() => {
    document.documentElement.dataset.theme = theme.value;
  });
}
