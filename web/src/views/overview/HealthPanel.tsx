// The health checks behind the overall level (any FAIL: unhealthy, any WARN: degraded).
import type { JSX } from "preact";
import type { SystemInfo } from "../../api/types";
import { Badge } from "../../components/Badge";
import { Icon } from "../../components/Icon";
import { Panel } from "../../components/Panel";
import { t, type MessageKey } from "../../i18n/i18n";
import { healthTone } from "../../lib/tones";

const LEVEL: Record<string, MessageKey> = { HEALTHY: "health.healthy", DEGRADED: "health.degraded", UNHEALTHY: "health.unhealthy" };
const CHECK: Record<string, MessageKey> = {
  gateway: "check.gateway",
  ready: "check.ready",
  "event-loop": "check.eventLoop",
  channels: "check.channels",
  sources: "check.sources",
  disk: "check.disk",
  store: "check.store",
};

// Said to screen readers (the icon shows it): in words, not the API's PASS/WARN/FAIL.
const STATUS: Record<string, MessageKey> = { PASS: "checkStatus.pass", WARN: "checkStatus.warn", FAIL: "checkStatus.fail" };
const statusWords = (s: string): string => {
  const key = STATUS[s];
  return key ? t(key) : s;
};

export function HealthPanel({ health }: { health: SystemInfo["health"] }): JSX.Element {
  const level = LEVEL[health.status];
  return (
    <Panel
      id="health"
      title={t("health.title")}
      actions={
        <Badge tone={healthTone(health.status)} dot>
          {level ? t(level) : health.status}
        </Badge>
      }
    >
      <ul class="checks" data-testid="health-checks">
        {health.checks.map((c) => {
          const tone = healthTone(c.status);
          const name = CHECK[c.name];
          return (
            <li key={c.name} class={`check tone-${tone}`}>
              <span class="check-icon" aria-hidden="true">
                <Icon name={c.status === "PASS" ? "check" : c.status === "WARN" ? "alert" : "x"} size={14} />
              </span>
              <span class="check-name">{name ? t(name) : c.name}</span>
              <span class="sr-only">{statusWords(c.status)}</span>
              <span class="check-msg" title={c.message ?? undefined}>
                {c.message ?? ""}
              </span>
            </li>
          );
        })}
      </ul>
    </Panel>
  );
}
