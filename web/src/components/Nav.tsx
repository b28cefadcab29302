// The view tabs. Plain links to hash routes, so Enter, middle-click and "open in new tab" work.
// Each carries the chosen source; the tabs of OpenClaw's gateway (cron, log, control) show only
// for an OpenClaw source, and "All providers" has the overview and the sessions.
import type { JSX } from "preact";
import { t, type MessageKey } from "../i18n/i18n";
import { route, type Route } from "../state/router";
import { href, scopeId, viewFits } from "../state/scope";

const TABS: Array<{ route: Route; label: MessageKey }> = [
  { route: { name: "overview" }, label: "nav.overview" },
  { route: { name: "sessions" }, label: "nav.sessions" },
  { route: { name: "events" }, label: "nav.events" },
  { route: { name: "cron" }, label: "nav.cron" },
  { route: { name: "logs" }, label: "nav.logs" },
  { route: { name: "control" }, label: "nav.control" },
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
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
