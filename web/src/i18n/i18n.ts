// Runtime language switch between the two catalogs (en, zh). Every visible label goes through
// t(); components read the `lang` signal through it, so a switch re-renders them in place.
import { computed, effect, signal } from "@preact/signals";
import { readPref, writePref } from "../lib/storage";
import { en, type MessageKey } from "./en";
import { zh } from "./zh";

export type Lang = "en" | "zh";
export type { MessageKey };

const catalogs: Record<Lang, Record<MessageKey, string>> = { en, zh };

function initialLang(): Lang {
  const saved = readPref("lang");
  if (saved === "en" || saved === "zh") return saved;
  // First visit: follow the browser's preferred languages.
  const preferred = navigator.languages?.length ? navigator.languages : [navigator.language];
  return preferred.some((l) => l.toLowerCase().startsWith("zh")) ? "zh" : "en";
}

export const lang = signal<Lang>(initialLang());

/** The BCP 47 locale for Intl formatting and for the API's QueryContext. */
export const locale = computed(() => (lang.value === "zh" ? "zh-CN" : "en-US"));

export function setLang(next: Lang): void {
  lang.value = next;
  writePref("lang", next);
}

/** The message for `key` in the current language, with `{name}` placeholders filled. */
export function t(key: MessageKey, vars?: Record<string, string | number>): string {
  const text = catalogs[lang.value][key] ?? en[key];
  if (!vars) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}

type PluralBase<K> = K extends `${infer B}.one` ? B : never;
export type PluralKey = PluralBase<MessageKey>;

/** A counted phrase: `{key}.one` or `{key}.other`, with `{n}` filled. */
export function tn(key: PluralKey, n: number, vars?: Record<string, string | number>): string {
  const rule = new Intl.PluralRules(locale.value).select(n) === "one" ? "one" : "other";
  return t(`${key}.${rule}` as MessageKey, { n: new Intl.NumberFormat(locale.value).format(n), ...vars });
}

/** Keeps <html lang> in step with the language (the shell sets the title per view). */
export function applyLang(): void {
  effect(() => {
    document.documentElement.lang = lang.value === "zh" ? "zh-CN" : "en";
  });
}
