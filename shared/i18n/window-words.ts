// How a plan window is named, on the dashboard (RateLimitsPanel) and the status card alike: "Weekly
// window", "5-hour window", never "7d window" on one and "Weekly window" on the other. Each surface
// keeps the words in its catalog (quota.* on the dashboard, rate.* on the card); this picks which.
// Self-contained: the dashboard's bundler takes it as it is.

type WindowWords = { key: "weekly"; n: null } | { key: "windowDays" | "windowHours" | "windowMinutes"; n: number } | { key: "primary" | "secondary"; n: null };

/** The catalog key (after the surface's prefix) and number for a window of `minutes`; the slot's name when the length is unknown. */
export function windowWords(minutes: number | null | undefined, slot: "primary" | "secondary"): WindowWords {
  const m = minutes ?? 0;
  if (!(m > 0) || !Number.isInteger(m)) return { key: slot, n: null };
  if (m === 10_080) return { key: "weekly", n: null };
  if (m % 1440 === 0) return { key: "windowDays", n: m / 1440 };
  if (m % 60 === 0) return { key: "windowHours", n: m / 60 };
  return { key: "windowMinutes", n: m };
}
