// An empty range is not an empty history: when the range holds no tokens but the sources were
// active before it, say when ("No activity in the last 24h; last activity 5 days ago"), so a
// quiet dashboard does not read as one that never saw anything.
import type { JSX } from "preact";
import { t } from "../i18n/i18n";
import { fmtDateTime, fmtRelative } from "../lib/format";
import { serverNow } from "../state/clock";

/** `lastActivityAt`: the newest of the sources' `metrics.lastActivityAt`; `from`: the range's start. */
export function IdleHint({ tokens, lastActivityAt, from, period }: { tokens: number; lastActivityAt: string | null; from: string; period: string }): JSX.Element | null {
  if (tokens > 0 || !lastActivityAt) return null;
  const last = Date.parse(lastActivityAt);
  if (!(last < Date.parse(from))) return null;
  return (
    <p class="idle-hint muted" data-testid="idle-hint" data-last={lastActivityAt}>
      {t("idle.hint", { period, ago: fmtRelative(lastActivityAt, serverNow.value), date: fmtDateTime(last) })}
    </p>
  );
}

/** The latest of ISO times (they sort as text); null when there is none. */
export function newestTime(times: ReadonlyArray<string | null | undefined>): string | null {
  return times.filter((x): x is string => typeof x === "string").sort().at(-1) ?? null;
}
