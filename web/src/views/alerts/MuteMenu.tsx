// Mute a rule: for an hour, eight hours, until tomorrow (the next midnight here), or until a time
// chosen. Times are measured on the daemon's clock (it refuses a time it sees as past), the
// custom one read in the browser's time zone. Any rule can be muted, config.json's included.
import type { JSX } from "preact";
import { useState } from "preact/hooks";
import { muteRule } from "../../api/alerts";
import { ApiError } from "../../api/errors";
import type { AlertRule } from "../../api/types";
import { errorMessage } from "../../components/States";
import { t } from "../../i18n/i18n";
import { ruleName } from "../../lib/alerts";
import { daemonNow } from "../../state/clock";

const HOUR = 3_600_000;

/** `yyyy-mm-ddThh:mm` in the browser's zone, for a datetime-local input. */
function localInput(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number): string => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The next midnight in the browser's zone, on the daemon's clock. */
function tomorrow(now: number): number {
  const d = new Date(now);
  d.setHours(24, 0, 0, 0);
  return d.getTime();
}

export function MuteMenu({ rule, onDone }: { rule: AlertRule; onDone: () => void }): JSX.Element {
  const [open, setOpen] = useState(false);
  const [custom, setCustom] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const name = ruleName(rule.id, rule.name);

  const mute = async (until: number): Promise<void> => {
    setBusy(true);
    setError(null);
    try {
      await muteRule(rule.id, new Date(until).toISOString());
      setOpen(false);
      setCustom(null);
      onDone();
    } catch (err) {
      const e = err instanceof ApiError ? err : new ApiError("http", null, null);
      setError(e.detail ?? errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  if (!open) {
    return (
      <button type="button" class="btn btn-sm" aria-expanded="false" onClick={() => setOpen(true)} data-testid="rule-mute">
        {t("alerts.mute")}
      </button>
    );
  }
  const customId = `mute-until-${rule.id}`;
  return (
    <div class="mute-menu" role="group" aria-label={t("alerts.muteFor", { name })} data-testid="mute-menu">
      <button type="button" class="btn btn-sm" disabled={busy} onClick={() => void mute(daemonNow() + HOUR)} data-testid="mute-1h">
        {t("alerts.mute1h")}
      </button>
      <button type="button" class="btn btn-sm" disabled={busy} onClick={() => void mute(daemonNow() + 8 * HOUR)} data-testid="mute-8h">
        {t("alerts.mute8h")}
      </button>
      <button type="button" class="btn btn-sm" disabled={busy} onClick={() => void mute(tomorrow(daemonNow()))} data-testid="mute-tomorrow">
        {t("alerts.muteTomorrow")}
      </button>
      {custom === null ? (
        <button type="button" class="btn btn-sm" disabled={busy} onClick={() => setCustom(localInput(daemonNow() + 2 * HOUR))} data-testid="mute-custom">
          {t("alerts.muteCustom")}
        </button>
      ) : (
        <form
          class="mute-custom"
          onSubmit={(e) => {
            e.preventDefault();
            const at = new Date(custom).getTime();
            if (Number.isFinite(at)) void mute(at);
          }}
        >
          <label for={customId} class="select-label">
            {t("alerts.muteUntil")}
          </label>
          <input id={customId} type="datetime-local" value={custom} onInput={(e) => setCustom(e.currentTarget.value)} required />
          <button type="submit" class="btn btn-sm btn-primary" disabled={busy}>
            {t("alerts.muteApply")}
          </button>
        </form>
      )}
      <button type="button" class="btn btn-sm btn-ghost" onClick={() => setOpen(false)}>
        {t("action.cancel")}
      </button>
      {error ? (
        <p class="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
