// The view tabs. Plain links to hash routes, so Enter, middle-click and "open in new tab" work.
// Each carries the chosen source; the tabs of OpenClaw's gateway (cron, log, control) show only
// for an OpenClaw source, and "All providers" has the overview, the sessions and the alerts. The
// alerts tab (daemon-wide, every source) counts the alerts firing now.
import type { JSX } from "preact";
import { t, tn, type MessageKey } from "../i18n/i18n";
import { activeAlerts } from "../state/alerts";
import { route, type Route } from "../state/router";
import { href, scopeId, viewFits } from "../state/scope";

const TABS: Array<{ route: Route; label: MessageKey }> = [
  { route: { name: "overview" }, label: "nav.overview" },
  { route: { name: "sessions" }, label: "nav.sessions" },
  { route: { name: "events" }, label: "nav.events" },
  { route: { name: "cron" }, label: "nav.cron" },
  { route: { name: "logs" }, label: "nav.logs" },
  { route: { name: "control" }, label: "nav.control" },
  { route: { name: "alerts" }, label: "nav.alerts" },
];

export function Nav(): JSX.Element {
  const current = route.value.name === "session" ? "sessions" : route.value.name;
  const id = scopeId.value;
  return (
    <nav class="tabs" aria-label={t("nav.label")}>
      <ul>
        {TABS.filter((tab) => id === null || viewFits(tab.route.name, id)).map((tab) => (
          <li key={tab.route.name}>
            <a href={href(tab.route)} class="tab" aria-current={tab.route.name === current ? "page" : undefined} data-view={tab.route.name}>
              {t(tab.label)}
              {tab.route.name === "alerts" ? <AlertCount /> : null}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** How many alerts fire now, in the colour of the worst; nothing while none does. */
function AlertCount(): JSX.Element | null {
  const list = activeAlerts.value;
  if (!list.length) return null;
  const critical = list.some((a) => a.severity === "CRITICAL");
  return (
    <span class={`tab-count tone-${critical ? "err" : "warn"}`} data-testid="alerts-tab-count" title={tn("count.alerts", list.length)}>
      {list.length}
    </span>
  );
}
