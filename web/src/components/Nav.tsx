// The view tabs. Plain links to hash routes, so Enter, middle-click and "open in new tab" work.
import type { JSX } from "preact";
import { t, type MessageKey } from "../i18n/i18n";
import { route, type Route } from "../state/router";

const TABS: Array<{ name: Route["name"]; href: string; label: MessageKey }> = [
  { name: "overview", href: "#/", label: "nav.overview" },
  { name: "sessions", href: "#/sessions", label: "nav.sessions" },
  { name: "events", href: "#/events", label: "nav.events" },
  { name: "cron", href: "#/cron", label: "nav.cron" },
  { name: "logs", href: "#/logs", label: "nav.logs" },
  { name: "control", href: "#/control", label: "nav.control" },
];

export function Nav(): JSX.Element {
  const current = route.value.name === "session" ? "sessions" : route.value.name;
  return (
    <nav class="tabs" aria-label={t("nav.label")}>
      <ul>
        {TABS.map((tab) => (
          <li key={tab.name}>
            <a href={tab.href} class="tab" aria-current={tab.name === current ? "page" : undefined} data-view={tab.name}>
              {t(tab.label)}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
