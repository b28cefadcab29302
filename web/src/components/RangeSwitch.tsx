// The overview's time range: a segmented control (30 minutes to 30 days) and the labels of each.
import type { JSX } from "preact";
import type { MetricsRange } from "../api/types";
import { t, type MessageKey } from "../i18n/i18n";
import { range, RANGES, setRange } from "../state/range";
import { Segmented } from "./Segmented";

export const RANGE_SHORT: Record<MetricsRange, MessageKey> = {
  THIRTY_MIN: "range.30m",
  ONE_HOUR: "range.1h",
  SIX_HOUR: "range.6h",
  TWELVE_HOUR: "range.12h",
  TWENTY_FOUR_HOUR: "range.24h",
  SEVEN_DAY: "range.7d",
  THIRTY_DAY: "range.30d",
};

export const RANGE_LONG: Record<MetricsRange, MessageKey> = {
  THIRTY_MIN: "range.long30m",
  ONE_HOUR: "range.long1h",
  SIX_HOUR: "range.long6h",
  TWELVE_HOUR: "range.long12h",
  TWENTY_FOUR_HOUR: "range.long24h",
  SEVEN_DAY: "range.long7d",
  THIRTY_DAY: "range.long30d",
};

export function RangeSwitch(): JSX.Element {
  return <Segmented<MetricsRange> label={t("range.label")} testId="range-switch" value={range.value} onChange={setRange} options={RANGES.map((x) => ({ value: x, label: t(RANGE_SHORT[x]), title: t(RANGE_LONG[x]) }))} />;
}
