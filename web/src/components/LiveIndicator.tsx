// The small "Live" / "Reconnecting" / "Offline" mark in the header.
import type { JSX } from "preact";
import { t } from "../i18n/i18n";
import { reachable, stream } from "../state/connection";

export function LiveIndicator(): JSX.Element {
  const state = !reachable.value ? "offline" : stream.value;
  const label = state === "live" ? t("live.live") : state === "offline" ? t("live.offline") : state === "down" ? t("live.reconnecting") : t("live.connecting");
  return (
    <span class={`live live-${state}`} data-testid="live-indicator" data-state={state} role="status" title={label}>
      <span class="live-dot" aria-hidden="true" />
      <span class="live-label">{label}</span>
    </span>
  );
}
