// The usage report's parameters (`insightsctl usage` flags, the control socket's `usage` params,
// docs/usage.md): the report kinds, days, zones, providers and week starts, checked the same way
// for both. Apart from the report because they change with the CLI's language, not with how the
// figures are read or summed.
import { InsightsError } from "../base/errors.js";
import { displayName, parseProviderWord, PROVIDER_NAMES as PROVIDERS, type ProviderName } from "../providers/registry.js";
import { DAY } from "./time.js";

export const USAGE_REPORTS = ["daily", "weekly", "monthly", "session", "project", "blocks"] as const;
export type UsageReportKind = (typeof USAGE_REPORTS)[number];
/** The day a week of the weekly report starts on (`weekStart`, `--week-start`); Monday by default. */
export const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export interface UsageReportParams {
  report: UsageReportKind;
  provider: ProviderName | null;
  /** First and last day (inclusive, `YYYY-MM-DD` in timeZone); null: unbounded. */
  since: string | null;
  until: string | null;
  /** A canonical IANA zone. */
  timeZone: string;
  breakdown: boolean;
  /** weekly: the day weeks start on. */
  weekStart: Weekday;
}


const invalid = (message: string, param: string): InsightsError => new InsightsError("INVALID_PARAM", message, { param });

/** `YYYY-MM-DD` or `YYYYMMDD` (ccusage's form) as a real calendar day, normalized to `YYYY-MM-DD`. */
export function parseDay(value: string, flag: string): string {
  const m = /^(\d{4})(-?)(\d{2})\2(\d{2})$/.exec(value);
  const bad = (): never => {
    throw invalid(`invalid ${flag} ${JSON.stringify(value.slice(0, 40))}: expected a day as YYYY-MM-DD or YYYYMMDD`, flag);
  };
  if (!m) bad();
  const [y, mo, d] = [Number(m?.[1]), Number(m?.[3]), Number(m?.[4])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  if (t.getUTCFullYear() !== y || t.getUTCMonth() !== mo - 1 || t.getUTCDate() !== d) bad();
  return `${m?.[1]}-${m?.[3]}-${m?.[4]}`;
}

/**
 * The zone as the user wrote it, once Intl knows it; only its case is Intl's (`europe/berlin` is
 * `Europe/Berlin`). Intl's own name may be an older alias (`Asia/Kolkata` resolves to
 * `Asia/Calcutta`): a report says the name its reader typed. INVALID_PARAM when it is no zone.
 */
export function parseTimeZone(value: string): string {
  if (value.length > 0 && value.length <= 100) {
    try {
      const resolved = new Intl.DateTimeFormat("en-US", { timeZone: value }).resolvedOptions().timeZone;
      return resolved.toLowerCase() === value.toLowerCase() ? resolved : value;
    } catch {
      // not a zone: said below
    }
  }
  throw invalid(`invalid --timezone ${JSON.stringify(value.slice(0, 100))}: not an IANA time zone (e.g. Europe/Berlin, America/New_York, UTC)`, "--timezone");
}

export function parseProvider(value: string): ProviderName {
  // `--provider` values: the names, and the interface's enum (PROVIDER_A/B/C), any case.
  const p = parseProviderWord(value);
  if (p) return p;
  const allowed = PROVIDERS.map((n) => `${n} (${displayName(n)})`).join(", ");
  throw invalid(`invalid --provider ${JSON.stringify(value.slice(0, 40))}; allowed: ${allowed}`, "--provider");
}

function parseReportKind(value: string): UsageReportKind {
  if ((USAGE_REPORTS as readonly string[]).includes(value)) return value as UsageReportKind;
  throw invalid(`invalid report ${JSON.stringify(value.slice(0, 40))}; allowed: ${USAGE_REPORTS.join(", ")}`, "report");
}

function parseWeekday(value: string): Weekday {
  const v = value.toLowerCase();
  const day = WEEKDAYS.find((d) => d === v || d.slice(0, 3) === v);
  if (day) return day;
  throw invalid(`invalid --week-start ${JSON.stringify(value.slice(0, 40))}; allowed: ${WEEKDAYS.join(", ")} (or their first three letters)`, "--week-start");
}

const PARAM_KEYS = new Set(["report", "provider", "since", "until", "timeZone", "breakdown", "weekStart"]);

/**
 * Checks the params of a report (the control socket's `usage`, or the CLI's flags turned into
 * these names): unknown keys, wrong types and bad values are INVALID_PARAM naming the flag.
 * `defaultZone` applies when no timeZone is given, `defaultWeekStart` (the config's `weekStart`) when no weekStart is.
 * `checkZone`: the CLI asking a daemon leaves the zone to the daemon's own check (Intl, which
 * costs a process that has not loaded it yet more than the rest of the command).
 */
export function parseUsageParams(raw: Record<string, unknown>, defaultZone: string, defaultWeekStart: Weekday = "monday", checkZone: (zone: string) => string = parseTimeZone): UsageReportParams {
  for (const k of Object.keys(raw)) if (!PARAM_KEYS.has(k)) throw invalid(`unknown usage parameter ${JSON.stringify(k.slice(0, 40))}; known: ${[...PARAM_KEYS].join(", ")}`, k);
  const str = (k: string, flag: string): string | null => {
    const v = raw[k];
    if (v === undefined || v === null) return null;
    if (typeof v !== "string") throw invalid(`${flag} must be a string`, flag);
    return v;
  };
  const report = str("report", "report");
  const provider = str("provider", "--provider");
  const since = str("since", "--since");
  const until = str("until", "--until");
  const zone = str("timeZone", "--timezone");
  const weekStart = str("weekStart", "--week-start");
  const breakdown = raw.breakdown;
  if (breakdown !== undefined && breakdown !== null && typeof breakdown !== "boolean") throw invalid("--breakdown must be true or false", "--breakdown");
  const out: UsageReportParams = {
    report: report === null ? "daily" : parseReportKind(report),
    provider: provider === null ? null : parseProvider(provider),
    since: since === null ? null : parseDay(since, "--since"),
    until: until === null ? null : parseDay(until, "--until"),
    timeZone: checkZone(zone ?? defaultZone),
    breakdown: breakdown === true,
    weekStart: weekStart === null ? defaultWeekStart : parseWeekday(weekStart),
  };
  if (out.since !== null && out.until !== null && out.since > out.until) throw invalid(`--since ${out.since} is after --until ${out.until}`, "--since");
  return out;
}


/** The first day (`YYYY-MM-DD`) of the week `day` is in, weeks starting on `start`. */
export function weekOf(day: string, start: Weekday): string {
  const t = Date.parse(`${day}T00:00:00Z`);
  const back = (new Date(t).getUTCDay() - WEEKDAYS.indexOf(start) + 7) % 7;
  return new Date(t - back * DAY).toISOString().slice(0, 10);
}
