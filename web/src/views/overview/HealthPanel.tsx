// A provider's health checks behind its verdict: the daemon's one rule (any FAIL: unhealthy, any
// WARN: degraded, a check with no first reading yet: starting), read from Health.verdict.
import type { JSX } from "preact";
import type { Health } from "../../api/types";
import { Badge } from "../../components/Badge";
import { Icon } from "../../components/Icon";
import { Panel } from "../../components/Panel";
import { t, type MessageKey } from "../../i18n/i18n";
import { VERDICT_LABEL } from "../../lib/labels";
import { healthTone, verdictTone } from "../../lib/tones";

const CHECK: Record<string, MessageKey> = {
  gateway: "check.gateway",
  ready: "check.ready",
  "event-loop": "check.eventLoop",
  channels: "check.channels",
  sources: "check.sources",
  disk: "check.disk",
  store: "check.store",
  pricing: "check.pricing",
  "rate-limit": "check.rateLimit",
  detection: "check.detection",
};

// Said to screen readers (the icon shows it): in words, not the API's PASS/WARN/FAIL.
const STATUS: Record<string, MessageKey> = { PASS: "checkStatus.pass", WARN: "checkStatus.warn", FAIL: "checkStatus.fail" };
const statusWords = (s: string): string => {
  const key = STATUS[s];
  return key ? t(key) : s;
};

export function HealthPanel({ health, title }: { health: Health; title?: string }): JSX.Element {
  return (
    <Panel
      id="health"
      title={title ?? t("health.title")}
      actions={
        <span data-testid="health-verdict" data-verdict={health.verdict}>
          <Badge tone={verdictTone(health.verdict)} dot>
            {t(VERDICT_LABEL[health.verdict])}
          </Badge>
        </span>
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
