// A sentence the daemon writes, kept as data until someone reads it: a catalog id and its
// parameters. The code that decides what to say (the health checks) builds Messages and never
// formats text; the interfaces render them in the reader's language, with the one formatter for
// sizes and times (units.ts).
//
// Two renderings:
// - `localize(m, locale)`: for display. Numbers grouped, sizes in one unit picked by size
//   (51.1 GB), times in the language's unit.
// - `plainText(m)`: the API's English without a locale, exactly as it read before the catalog
//   existed (sizes in whole MB, numbers as JavaScript prints them), because scripts match on it.
import { CATALOG, type MessageId, type Template } from "./catalog.js";
import { formatMB, formatMs, formatNumber, INTL_LOCALE, type Locale } from "./units.js";

export interface Message {
  readonly id: MessageId;
  readonly params?: Readonly<Record<string, Param>>;
}

/** A size in megabytes, rendered in one unit by size. */
interface SizeParam {
  readonly kind: "mb";
  readonly mb: number | null;
}

/** A time in milliseconds. */
interface MsParam {
  readonly kind: "ms";
  readonly ms: number;
}

/** Items joined by the language's separator. */
interface ListParam {
  readonly kind: "list";
  readonly items: readonly Param[];
  readonly sep: "comma" | "semicolon";
}

/**
 * A parameter: text the daemon does not write itself (an id, an OS error), a count, a nested
 * Message, or a typed figure.
 */
type Param = string | number | Message | SizeParam | MsParam | ListParam;

export function msg(id: MessageId, params?: Readonly<Record<string, Param>>): Message {
  return params ? { id, params } : { id };
}

export const sizeMB = (mb: number | null): SizeParam => ({ kind: "mb", mb });
export const millis = (ms: number): MsParam => ({ kind: "ms", ms });
export const list = (items: readonly Param[], sep: ListParam["sep"] = "comma"): ListParam => ({ kind: "list", items, sep });

const isMessage = (p: Param): p is Message => typeof p === "object" && "id" in p;

type Mode = { plain: true } | { plain: false; locale: Locale };

const plurals = new Map<Locale, Intl.PluralRules>();
function pluralOf(locale: Locale, n: number): "one" | "other" {
  let rules = plurals.get(locale);
  if (!rules) {
    rules = new Intl.PluralRules(INTL_LOCALE[locale]);
    plurals.set(locale, rules);
  }
  return rules.select(n) === "one" ? "one" : "other";
}

function pick(template: Template, locale: Locale, params: Readonly<Record<string, Param>> | undefined): string {
  if (typeof template === "string") return template;
  const n = params?.n;
  return template[typeof n === "number" ? pluralOf(locale, n) : "other"];
}

function renderParam(p: Param, mode: Mode): string {
  if (typeof p === "string") return p;
  if (typeof p === "number") return mode.plain ? String(p) : formatNumber(p, mode.locale, Number.isInteger(p) ? 0 : 1);
  if (isMessage(p)) return render(p, mode);
  switch (p.kind) {
    case "mb":
      if (p.mb === null) return mode.plain ? "null MB" : "—";
      return mode.plain ? `${p.mb} MB` : formatMB(p.mb, mode.locale);
    case "ms":
      return mode.plain ? `${p.ms} ms` : formatMs(p.ms, mode.locale);
    case "list": {
      const locale = mode.plain ? "en" : mode.locale;
      return p.items.map((i) => renderParam(i, mode)).join(CATALOG[locale][p.sep === "comma" ? "list.comma" : "list.semicolon"] as string);
    }
  }
}

function render(m: Message, mode: Mode): string {
  const locale = mode.plain ? "en" : mode.locale;
  // A key missing from a language (never in a build: the test checks) falls back to English.
  const template = pick(CATALOG[locale][m.id] ?? CATALOG.en[m.id], locale, m.params);
  const params = m.params;
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    return value === undefined ? whole : renderParam(value, mode);
  });
}

/** The message for display in `locale`. */
export function localize(m: Message, locale: Locale): string {
  return render(m, { plain: false, locale });
}

/** The API's English without a locale, as it has always read. */
export function plainText(m: Message): string {
  return render(m, { plain: true });
}

/**
 * Items (health checks, …) with `message` rendered for `locale` from their `text`; an item
 * without a `text` keeps its message as it is.
 */
export function localizeMessages<T extends { message: string | null; text?: Message | null }>(items: readonly T[], locale: Locale): T[] {
  return items.map((i) => (i.text ? { ...i, message: localize(i.text, locale) } : i));
}
