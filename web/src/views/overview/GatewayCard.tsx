// The gateway at a glance: its state (up, down, demo, not probed yet: the daemon's one label,
// Gateway.state), version, uptime, process and probe figures, resources.
import type { JSX } from "preact";
import type { SystemInfo } from "../../api/types";
import { Badge } from "../../components/Badge";
import { t } from "../../i18n/i18n";
import { fmtDuration, fmtFull, fmtMB, fmtMs, fmtPercent, fmtRelative } from "../../lib/format";
import { GATEWAY_LABEL } from "../../lib/labels";
import { gatewayTone } from "../../lib/tones";
import { serverNow } from "../../state/clock";

export function GatewayCard({ system }: { system: SystemInfo }): JSX.Element {
  const gw = system.gateway;
  const res = system.resources;
  const now = serverNow.value;
  // Why it is down, from the gateway check: the daemon writes that in the page's language, where
  // gateway.error is the probe's raw English ("demo mode: no gateway").
  const why = system.health.checks.find((c) => c.name === "gateway")?.message ?? gw.error;
  // Demo mode is never "down": what the probe found is said, but as a note, not in red.
  const showWhy = !gw.running && (gw.state === "DOWN" || gw.state === "DEMO") && !!why;
  const update =
    gw.updateAvailable === true ? (
      <Badge tone="accent">{t("gateway.updateTo", { version: gw.latestVersion ?? "?" })}</Badge>
    ) : gw.updateAvailable === false ? (
      t("gateway.upToDate")
    ) : (
      <span class="muted">{t("gateway.unknown")}</span>
    );
  return (
    <section class={`panel gw-card tone-${gatewayTone(gw.state)}`} aria-labelledby="gw-title" data-testid="gateway-card" data-state={gw.state}>
      <div class="gw-state">
        <span class="gw-state-dot" aria-hidden="true" />
        <div>
          <h2 id="gw-title" class="gw-state-title">
            {t(GATEWAY_LABEL[gw.state])}
          </h2>
          <p class="gw-state-sub">
            {gw.version ? `OpenClaw v${gw.version}` : "OpenClaw"}
            {gw.running && gw.uptime !== null ? ` · ${t("gateway.upFor", { duration: fmtDuration(gw.uptime * 1000) })}` : ""}
          </p>
          {showWhy ? (
            <p class={gw.state === "DEMO" ? "gw-note" : "gw-error"} data-testid="gateway-why">
              {why}
            </p>
          ) : null}
        </div>
      </div>
      <dl class="facts">
        <div>
          <dt>{t("gateway.pid")}</dt>
          <dd class="num">{gw.pid ?? "—"}</dd>
        </div>
        <div>
          <dt>{t("gateway.port")}</dt>
          <dd class="num">{gw.port ?? "—"}</dd>
        </div>
        <div>
          <dt>{t("gateway.latency")}</dt>
          <dd class="num">{gw.latencyMs !== null ? fmtMs(gw.latencyMs) : "—"}</dd>
        </div>
        <div>
          <dt>{t("gateway.checked")}</dt>
          <dd title={gw.checkedAt ? fmtFull(gw.checkedAt) : undefined}>{fmtRelative(gw.checkedAt, now)}</dd>
        </div>
        <div>
          <dt>{t("gateway.cpu")}</dt>
          <dd class="num">{res.cpu !== null ? fmtPercent(res.cpu) : "—"}</dd>
        </div>
        <div>
          <dt>{t("gateway.memory")}</dt>
          <dd class="num">{res.memoryMB !== null ? fmtMB(res.memoryMB) : "—"}</dd>
        </div>
        <div>
          <dt>{t("gateway.stateDisk")}</dt>
          <dd class="num">{res.diskMB !== null ? fmtMB(res.diskMB) : "—"}</dd>
        </div>
        <div>
          <dt>{t("gateway.diskFree")}</dt>
          <dd class="num">{res.diskFreeMB !== null ? fmtMB(res.diskFreeMB) : "—"}</dd>
        </div>
        <div class="facts-wide">
          <dt>{t("gateway.update")}</dt>
          <dd>{update}</dd>
        </div>
      </dl>
    </section>
  );
}
