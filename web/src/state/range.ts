// The overview's time range, remembered like the theme and language.
import { signal } from "@preact/signals";
import type { MetricsRange } from "../api/types";
import { readPref, writePref } from "../lib/storage";

export const RANGES: MetricsRange[] = ["THIRTY_MIN", "ONE_HOUR", "SIX_HOUR", "TWELVE_HOUR", "TWENTY_FOUR_HOUR", "SEVEN_DAY", "THIRTY_DAY"];

const saved = readPref("range");
export const range = signal<MetricsRange>(RANGES.includes(saved as MetricsRange) ? (saved as MetricsRange) : "SIX_HOUR");

export function setRange(r: MetricsRange): void {
  range.value = r;
  writePref("range", r);
}
