// The strip under the navigation that says when the page is not live: the event stream dropped
// (reconnecting) or the daemon does not answer at all (unreachable), with the time of the data
// still on screen. A short blip (under two seconds) is not worth a banner.
import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import { nudgeChanges } from "../api/changes";
import { t } from "../i18n/i18n";
import { fmtClock } from "../lib/format";
import { lastDataAt, reachable, stream } from "../state/connection";
import { Icon } from "./Icon";

const GRACE_MS = 2000;

export function ConnectionBanner({ onRetry }: { onRetry: () => void }): JSX.Element | null {
  const problem = !reachable.value ? "unreachable" : stream.value === "down" ? "reconnecting" : null;
  const [shown, setShown] = useState<typeof problem>(null);

  useEffect(() => {
    if (!problem) {
      setShown(null);
      return;
    }
    const timer = window.setTimeout(() => setShown(problem), GRACE_MS);
    return () => window.clearTimeout(timer);
  }, [problem]);

  if (!shown || !problem) return null;
  const asOf = lastDataAt.value;
  return (
    <div class={`banner tone-${problem === "unreachable" ? "err" : "warn"}`} role="status" data-testid="connection-banner" data-state={problem}>
      <span class="spinner spinner-sm" aria-hidden="true" />
      <p>
        <strong>{problem === "unreachable" ? t("banner.unreachable") : t("banner.reconnecting")}</strong>{" "}
        {asOf ? <span>{t("banner.asOf", { time: fmtClock(asOf, false) })}</span> : null}
      </p>
      <button
        type="button"
        class="btn btn-sm"
        onClick={() => {
          nudgeChanges();
          onRetry();
        }}
      >
        <Icon name="refresh" />
        {t("action.retryNow")}
      </button>
    </div>
  );
}
