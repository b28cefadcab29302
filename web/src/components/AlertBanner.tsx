// The alerts firing now, on every view, under the navigation: critical first, each with its
// severity, the rule's name, the value against the threshold crossed, since when, a budget's pace
// ("at this pace $20.00 is reached at 17:40") and, for a muted rule, until when. Kept current by
// alertChanged (and dataChanged: a firing alert's value moves with the data), with a slow poll
// as a safety net.
import type { JSX } from "preact";
import { useEffect } from "preact/hooks";
import { fetchActiveAlerts } from "../api/alerts";
import type { ActiveAlert } from "../api/types";
import { t } from "../i18n/i18n";
import { byUrgency, fmtAlertValue, fmtWhen, paceText, ruleName, SEVERITY_LABEL, severityTone } from "../lib/alerts";
import { useLive } from "../lib/use-live";
import { activeAlerts } from "../state/alerts";
import { serverNow } from "../state/clock";
import { route } from "../state/router";
import { href } from "../state/scope";
import { Badge } from "./Badge";
import { Icon } from "./Icon";

/** Rows the banner lists; the alerts view has the rest. */
const SHOWN = 3;

export function AlertBanner(): JSX.Element | null {
  const live = useLive(fetchActiveAlerts, [], { alerts: true, pollMs: 30_000, minGapMs: 2000 });
  useEffect(() => {
    if (live.data) activeAlerts.value = live.data;
  }, [live.data]);
  const list = byUrgency(live.data ?? []);
  if (!list.length) return null;
  const critical = list.some((a) => a.severity === "CRITICAL");
  const onAlerts = route.value.name === "alerts";
  return (
    <section class={`alert-banner tone-${critical ? "err" : "warn"}`} aria-label={t("alerts.bannerLabel")} data-testid="alert-banner">
      <Icon name="alert" class="alert-banner-icon" />
      <ul class="alert-banner-list">
        {list.slice(0, SHOWN).map((a) => (
          <AlertLine key={a.id} a={a} />
        ))}
        {list.length > SHOWN ? <li class="alert-banner-more">{t("alerts.moreFiring", { n: list.length - SHOWN })}</li> : null}
      </ul>
      {onAlerts ? null : (
        <a class="btn btn-sm" href={href({ name: "alerts" })} data-testid="alert-banner-link">
          {t("alerts.viewAll")}
        </a>
      )}
    </section>
  );
}

function AlertLine({ a }: { a: ActiveAlert }): JSX.Element {
  const now = serverNow.value;
  const name = ruleName(a.ruleId, a.rule?.name ?? a.ruleName);
  const pace = paceText({ ...a, window: a.rule?.window ?? null }, now);
  const mutedUntil = a.rule?.muted && a.rule.mutedUntil ? a.rule.mutedUntil : null;
  return (
    <li class={`alert-line${mutedUntil ? " is-muted" : ""}`} data-testid="alert-banner-item" data-rule={a.ruleId} data-severity={a.severity}>
      <Badge tone={severityTone(a.severity)} dot>
        {t(SEVERITY_LABEL[a.severity])}
      </Badge>
      <strong class="alert-name">{a.subject ? `${name} · ${a.label}` : name}</strong>
      <span class="alert-value num">{t("alerts.valueOf", { value: fmtAlertValue(a.value, a.unit), threshold: fmtAlertValue(a.threshold, a.unit) })}</span>
      <span class="alert-meta">{t("alerts.since", { time: fmtWhen(a.since, now) })}</span>
      {pace ? <span class="alert-pace">{pace}</span> : null}
      {mutedUntil ? <span class="alert-muted">{t("alerts.mutedUntil", { time: fmtWhen(mutedUntil, now) })}</span> : null}
    </li>
  );
}
