// Claude Code's or Codex's system at a glance (ProviderBSystem / ProviderCSystem): the CLI
// versions its files show, its installs, and the processes running now with their CPU and memory.
import type { JSX } from "preact";
import type { CliSystem } from "../../api/types";
import { Badge } from "../../components/Badge";
import { t, tn } from "../../i18n/i18n";
import { fmtMB, fmtPercent, fmtRelative } from "../../lib/format";
import { PROVIDER_KEY, PROVIDER_NAME, projectName } from "../../lib/providers";
import { verdictTone } from "../../lib/tones";
import { serverNow } from "../../state/clock";
import { href, sourcesOf } from "../../state/scope";

export function CliSystemCard({ system }: { system: CliSystem }): JSX.Element {
  const name = PROVIDER_NAME[system.provider];
  const installs = sourcesOf(system.provider);
  const live = system.liveSessions;
  const cpu = live.reduce<number | null>((a, l) => (l.cpu === null ? a : (a ?? 0) + l.cpu), null);
  const mem = live.reduce<number | null>((a, l) => (l.memoryMB === null ? a : (a ?? 0) + l.memoryMB), null);
  const now = serverNow.value;
  return (
    <section class={`panel gw-card cli-card tone-${verdictTone(system.health.verdict)}`} aria-labelledby="cli-title" data-testid="cli-system" data-provider={system.provider}>
      <div class="gw-state">
        <span class={`gw-state-dot prov-dot-lg ${PROVIDER_KEY[system.provider]}`} aria-hidden="true" />
        <div>
          <h2 id="cli-title" class="gw-state-title">
            {name}
          </h2>
          <p class="gw-state-sub">
            {system.versions.length ? t("cli.versions", { versions: system.versions.map((v) => `v${v}`).join(", ") }) : t("cli.noVersion")}
            {" · "}
            {live.length ? tn("count.running", live.length) : t("cli.idle")}
          </p>
        </div>
      </div>
      <dl class="facts">
        <div>
          <dt>{t("cli.installs")}</dt>
          <dd class="num">{installs.length}</dd>
        </div>
        <div>
          <dt>{t("cli.running")}</dt>
          <dd class="num" data-testid="cli-running">
            {live.length}
          </dd>
        </div>
        <div>
          <dt>{t("gateway.cpu")}</dt>
          <dd class="num">{cpu !== null ? fmtPercent(cpu) : "—"}</dd>
        </div>
        <div>
          <dt>{t("gateway.memory")}</dt>
          <dd class="num">{mem !== null ? fmtMB(mem) : "—"}</dd>
        </div>
        <div class="facts-wide">
          <dt>{t("cli.installList")}</dt>
          <dd class="badges">
            {installs.map((s) => (
              <Badge key={s.id} tone={s.status === "CONNECTED" ? "neutral" : s.status === "ERROR" ? "err" : "warn"} title={s.id}>
                {s.name}
              </Badge>
            ))}
          </dd>
        </div>
      </dl>
      {live.length ? (
        <ul class="rows live-list" data-testid="live-sessions" aria-label={t("cli.running")}>
          {live.map((l) => (
            <li key={`${l.source} ${l.sessionKey} ${l.pid ?? ""}`} class="row">
              <div class="row-main">
                <a class="row-title mono" href={href({ name: "session", key: l.sessionKey }, l.source)}>
                  {l.project ? projectName(l.project) : l.sessionKey}
                </a>
                <span class="row-sub">
                  {[l.status, l.pid !== null ? `PID ${l.pid}` : null, l.startedAt ? t("cli.since", { when: fmtRelative(l.startedAt, now) }) : null].filter(Boolean).join(" · ")}
                </span>
              </div>
              <span class="num muted" title={t("gateway.cpu")}>
                {l.cpu !== null ? fmtPercent(l.cpu) : "—"}
              </span>
              <span class="num" title={t("cli.rss")}>
                {l.memoryMB !== null ? fmtMB(l.memoryMB) : "—"}
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p class="muted small">{t("cli.noneRunning", { name })}</p>
      )}
    </section>
  );
}
