// A cost figure that says when part of it is unknown: responses of a model with no known price
// count their tokens but add nothing to the cost, so "$0.12 +" with a tooltip, never a silent $0.
import type { JSX } from "preact";
import { tn } from "../i18n/i18n";
import { fmtUsd } from "../lib/format";

export function Cost({ usd, unpriced = 0 }: { usd: number; unpriced?: number }): JSX.Element {
  if (!unpriced) return <>{fmtUsd(usd)}</>;
  return (
    <span class="cost-partial" title={tn("count.unpriced", unpriced)}>
      {fmtUsd(usd)}
      <span class="cost-plus" aria-hidden="true">
        +
      </span>
      <span class="sr-only">{tn("count.unpriced", unpriced)}</span>
    </span>
  );
}
