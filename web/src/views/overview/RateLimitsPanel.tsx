// The plan quota of a provider that records it (the `rateLimits` capability: Codex, Claude Code): a
// gauge per window (the 5-hour and the weekly one) with the used share, the warn (80 %) and
// critical (100 %) colours of the daemon's rate-limit check, a live "resets in" countdown and, when
// the last half hour's burn rate fills the window before it resets, when ("full ≈15:40, resets
// 16:10"); a "stale" mark when the figures may no longer hold, and a chart of both windows' used %
// over the last 7 days. The quota belongs to the account: figures are shown, never summed.
import type { JSX } from "preact";
import { fetchRateLimits } from "../../api/queries";
import type { Provider, RateLimits, RateLimitWindow } from "../../api/types";
import { Badge } from "../../components/Badge";
import { LineChart } from "../../components/LineChart";
import { Panel } from "../../components/Panel";
import { Empty, ErrorNotice, Loading } from "../../components/States";
import { t } from "../../i18n/i18n";
import { fmtClock, fmtCountdown, fmtDateTime, fmtDecimal, fmtFull, fmtPercent, fmtRelative } from "../../lib/format";
import { PROVIDER_NAME } from "../../lib/providers";
import { GAUGE, gaugeArc, gaugePoint } from "../../lib/gauge";
import { quotaTone } from "../../lib/tones";
import { windowWords } from "../../../../shared/i18n/window-words";
import { useCountdownNow } from "../../lib/use-countdown";
import { useLive } from "../../lib/use-live";
import { serverNow } from "../../state/clock";

const HISTORY_DAYS = 7;
const DAY = 86_400_000;

/** "5-hour window", "Weekly window", …, as the card names them; the slot's name when the length is not known. */
function windowLabel(w: RateLimitWindow, slot: "primary" | "secondary"): string {
  const words = windowWords(w.windowMinutes, slot);
  return words.n === null ? t(`quota.${words.key}`) : t(`quota.${words.key}`, { n: words.n });
}

/** HH:MM in the browser's zone; with the date when not today (a weekly window's). */
function when(ms: number, now: number): string {
  return new Date(ms).toDateString() === new Date(now).toDateString() ? fmtClock(ms, false) : fmtDateTime(ms);
}

/** The early warning: the window fills before it resets at the last half hour's rate (the daemon's projection). */
function Projection({ w, id, now }: { w: RateLimitWindow; id: string; now: number }): JSX.Element | null {
  const p = w.projection;
  if (p.status !== "PROJECTED" || p.beforeReset !== true || !p.fullAt || !p.resetsAt) return null;
  return (
    <p class="gauge-projection" data-testid={`gauge-${id}-projection`} data-full-at={p.fullAt} title={t("quota.burnHint", { rate: fmtDecimal(p.burnPercentPerHour ?? 0) })}>
      {t("quota.projected", { full: when(Date.parse(p.fullAt), now), reset: when(Date.parse(p.resetsAt), now) })}
    </p>
  );
}

/**
 * A limit inside the plan's (Claude Code's per-model weekly windows, `claude:seven_day_opus`): the
 * field after the colon, named by its model ("opus"); null for the plan's own limit.
 */
function modelOf(limitId: string | null): string | null {
  const at = limitId?.indexOf(":") ?? -1;
  return limitId && at >= 0 ? limitId.slice(at + 1).replace(/^seven_day_/, "") : null;
}

/**
 * A half-circle gauge of the used share; the arc stops at 100 % (the label says how far past).
 * `model`: a per-model window's, labelled with its model and test ids of its own.
 */
function Gauge({ w, slot, stale, model = null }: { w: RateLimitWindow; slot: "primary" | "secondary"; stale: boolean; model?: string | null }): JSX.Element {
  const reset = w.resetsAt ? Date.parse(w.resetsAt) : null;
  const now = useCountdownNow(reset);
  const tone = quotaTone(w.usedPercent);
  const label = model === null ? windowLabel(w, slot) : t("quota.modelWindow", { window: windowLabel(w, slot), model });
  const id = model === null ? slot : `model-${model}`;
  const p = Math.max(0, Math.min(100, w.usedPercent)) / 100;
  const [wx1, wy1] = gaugePoint(0.8);
  const [wx2, wy2] = gaugePoint(0.8, GAUGE.r - 11);
  const left = reset !== null ? fmtCountdown(reset - now) : null;
  return (
    <div class={`gauge tone-${tone}`} data-testid={`gauge-${id}`} data-used={w.usedPercent} data-tone={tone}>
      <p class="gauge-label">{label}</p>
      <div class="gauge-dial" role="meter" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(w.usedPercent * 10) / 10} aria-valuetext={t("quota.usedOf", { percent: fmtPercent(w.usedPercent) })}>
        <svg viewBox="0 0 160 92" aria-hidden="true" focusable="false">
          <path class="gauge-track" d={gaugeArc(1)} />
          {p > 0 ? <path class="gauge-fill" d={gaugeArc(p)} /> : null}
          {/* The 80 % mark, where the daemon starts to warn. */}
          <line class="gauge-mark" x1={wx1} y1={wy1} x2={wx2} y2={wy2} />
        </svg>
        <p class="gauge-value num" data-testid={`gauge-${id}-value`}>
          {fmtPercent(w.usedPercent)}
        </p>
        <p class="gauge-sub">{t("quota.used")}</p>
      </div>
      <p class="gauge-reset" data-testid={`gauge-${id}-reset`} data-resets-at={w.resetsAt ?? ""} title={w.resetsAt ? fmtFull(w.resetsAt) : undefined}>
        {reset === null ? t("quota.resetUnknown") : left ? t("quota.resetsIn", { time: left }) : t("quota.resetPassed")}
      </p>
      {stale ? null : <Projection w={w} id={id} now={now} />}
    </div>
  );
}

/**
 * `sourceId`: this install's figures (the newest of any install when it has none of its own); null
 * on the all-providers view: the provider's newest, the panel titled with its name.
 */
export function RateLimitsPanel({ provider, sourceId }: { provider: Provider; sourceId: string | null }): JSX.Element {
  const live = useLive((signal) => fetchRateLimits(provider, HISTORY_DAYS, signal), [provider], sourceId ? { sources: [sourceId] } : {});
  const d = live.data;
  const rl: RateLimits | null = d ? ((sourceId ? d.rateLimitsBySource.find((r) => r.source === sourceId) : undefined) ?? d.rateLimits) : null;
  // The same install's per-model weekly windows, each a gauge after the plan's own.
  const models = rl && d ? d.rateLimitsBySource.filter((r) => r.source === rl.source && modelOf(r.limitId) !== null && r.secondary) : [];
  const name = PROVIDER_NAME[provider];
  const now = serverNow.value;
  return (
    <Panel
      id={sourceId ? "rate-limits" : `rate-limits-${provider}`}
      class="rate-limits"
      title={sourceId ? t("quota.title") : t("quota.titleOf", { provider: name })}
      actions={
        rl ? (
          <>
            {rl.stale ? (
              <span data-testid="quota-stale" title={t("quota.staleHint", { provider: name })}>
                <Badge tone="warn">{t("quota.stale")}</Badge>
              </span>
            ) : null}
            {rl.planType ? <Badge>{t("quota.plan", { plan: rl.planType })}</Badge> : null}
            <span class="muted" title={fmtFull(rl.updatedAt)}>
              {t("quota.asOf", { when: fmtRelative(rl.updatedAt, now) })}
            </span>
          </>
        ) : null
      }
    >
      {live.error && !d ? (
        <ErrorNotice error={live.error} onRetry={live.reload} />
      ) : !d ? (
        <Loading />
      ) : !rl || (!rl.primary && !rl.secondary) ? (
        <Empty title={t("quota.none")} hint={t("quota.noneHint", { provider: name })} />
      ) : (
        <div class={`quota${rl.stale ? " is-stale" : ""}`} data-testid="rate-limits" data-provider={provider} data-source={rl.source}>
          <div class="gauges">
            {rl.primary ? <Gauge w={rl.primary} slot="primary" stale={rl.stale} /> : null}
            {rl.secondary ? <Gauge w={rl.secondary} slot="secondary" stale={rl.stale} /> : null}
            {models.map((m) => (m.secondary ? <Gauge key={m.limitId} w={m.secondary} slot="secondary" stale={m.stale} model={modelOf(m.limitId)} /> : null))}
          </div>
          <div class="quota-history">
            <p class="section-title">{t("quota.history")}</p>
            <LineChart
              testId="quota-history"
              label={t("quota.history")}
              times={rl.history.map((h) => Date.parse(h.time))}
              domain={[now - HISTORY_DAYS * DAY, now]}
              yMin={100}
              thresholds={[
                { value: 80, tone: "warn" },
                { value: 100, tone: "err" },
              ]}
              format={(n) => fmtPercent(n, 0)}
              height={170}
              series={[
                { key: "quota-primary", label: rl.primary ? windowLabel(rl.primary, "primary") : t("quota.primary"), values: rl.history.map((h) => h.primaryUsedPercent) },
                { key: "quota-secondary", label: rl.secondary ? windowLabel(rl.secondary, "secondary") : t("quota.secondary"), values: rl.history.map((h) => h.secondaryUsedPercent) },
              ]}
            />
          </div>
          {rl.credits && (rl.credits.unlimited || rl.credits.balance) ? (
            <p class="muted small">{rl.credits.unlimited ? t("quota.creditsUnlimited") : t("quota.credits", { balance: rl.credits.balance ?? "" })}</p>
          ) : null}
          <p class="muted small quota-updated">{t("quota.recorded", { provider: name, time: fmtDateTime(rl.updatedAt) })}</p>
        </div>
      )}
    </Panel>
  );
}
