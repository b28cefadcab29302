// Alerts, daemon-wide (the same for every provider): what fires now, the rules (built-in, from
// config.json, yours) with mute and the rule editor, the notification channels with their write-
// only secrets and a "Send test" each, and the history with every channel's delivery outcome.
// Kept current by alertChanged.
import type { JSX } from "preact";
import { useState } from "preact/hooks";
import { deleteChannel, deleteRule, fetchAlertsView, testChannel, unmuteRule, updateChannel, type AlertsData } from "../api/alerts";
import { ApiError } from "../api/errors";
import type { ActiveAlert, AlertChannel, AlertDelivery, AlertEvent, AlertRule } from "../api/types";
import { Badge } from "../components/Badge";
import { ConfirmDialog } from "../components/ConfirmDialog";
import { Panel } from "../components/Panel";
import { Empty, ErrorNotice, Loading } from "../components/States";
import { ViewHeader } from "../components/ViewHeader";
import { t, tn } from "../i18n/i18n";
import { byUrgency, fmtAlertValue, fmtWhen, METRIC_LABEL, METRIC_META, paceText, ruleName, SEVERITY_LABEL, severityTone, WINDOW_LABEL } from "../lib/alerts";
import { fmtDateTime, fmtDuration, fmtFull } from "../lib/format";
import type { Tone } from "../lib/tones";
import { useLive } from "../lib/use-live";
import { serverNow } from "../state/clock";
import { hasSecretField, SecretEditor, urlIsSecret, ChannelForm } from "./alerts/ChannelForm";
import { MuteMenu } from "./alerts/MuteMenu";
import { RuleForm } from "./alerts/RuleForm";

type Editing = { kind: "rule"; rule: AlertRule | null } | { kind: "channel"; channel: AlertChannel | null } | null;
type Confirm = { kind: "rule"; rule: AlertRule } | { kind: "channel"; channel: AlertChannel } | null;

export function AlertsView(): JSX.Element {
  const live = useLive(fetchAlertsView, [], { alerts: true, pollMs: 30_000, minGapMs: 2000 });
  const [editing, setEditing] = useState<Editing>(null);
  const [confirm, setConfirm] = useState<Confirm>(null);
  const [actionError, setActionError] = useState<ApiError | null>(null);
  const data = live.data;

  const act = async (fn: () => Promise<unknown>): Promise<void> => {
    setActionError(null);
    try {
      await fn();
    } catch (err) {
      setActionError(err instanceof ApiError ? err : new ApiError("http", null, null));
    }
    live.reload();
  };
  const done = (): void => {
    setEditing(null);
    live.reload();
  };

  return (
    <div class="view alerts">
      <ViewHeader title={t("nav.alerts")} sub={t("alerts.sub")} />
      {live.error && !data ? <ErrorNotice error={live.error} onRetry={live.reload} /> : null}
      {actionError ? <ErrorNotice error={actionError} /> : null}
      {!data ? (
        live.error ? null : <Loading />
      ) : (
        <>
          <ActivePanel active={data.active} />
          <RulesPanel data={data} editing={editing} setEditing={setEditing} onConfirm={(rule) => setConfirm({ kind: "rule", rule })} act={act} done={done} />
          <ChannelsPanel data={data} editing={editing} setEditing={setEditing} onConfirm={(channel) => setConfirm({ kind: "channel", channel })} act={act} done={done} />
          <HistoryPanel data={data} />
        </>
      )}
      <ConfirmDialog
        open={confirm !== null}
        title={
          confirm?.kind === "rule"
            ? confirm.rule.origin === "BUILTIN"
              ? t("alerts.confirmResetRule", { id: confirm.rule.id })
              : t("alerts.confirmDeleteRule", { id: confirm.rule.id })
            : confirm?.kind === "channel"
              ? t("alerts.confirmDeleteChannel", { id: confirm.channel.id })
              : ""
        }
        confirmLabel={confirm?.kind === "rule" && confirm.rule.origin === "BUILTIN" ? t("alerts.reset") : t("alerts.delete")}
        danger
        onCancel={() => setConfirm(null)}
        onConfirm={() => {
          const c = confirm;
          setConfirm(null);
          if (c?.kind === "rule") void act(() => deleteRule(c.rule.id));
          else if (c?.kind === "channel") void act(() => deleteChannel(c.channel.id));
        }}
      >
        <p>{t("alerts.confirmBody")}</p>
      </ConfirmDialog>
    </div>
  );
}

function ActivePanel({ active }: { active: ActiveAlert[] }): JSX.Element {
  const now = serverNow.value;
  const list = byUrgency(active);
  return (
    <Panel title={t("alerts.activeTitle")} id="alerts-active" actions={list.length ? <Badge tone={list.some((a) => a.severity === "CRITICAL") ? "err" : "warn"}>{tn("count.alerts", list.length)}</Badge> : null}>
      {list.length ? (
        <ul class="rows" data-testid="alerts-active">
          {list.map((a) => {
            const pace = paceText({ ...a, window: a.rule?.window ?? null }, now);
            const name = ruleName(a.ruleId, a.rule?.name ?? a.ruleName);
            return (
              <li key={a.id} class="row alert-row" data-testid="alert-active" data-rule={a.ruleId} data-severity={a.severity}>
                <Badge tone={severityTone(a.severity)} dot>
                  {t(SEVERITY_LABEL[a.severity])}
                </Badge>
                <div class="row-main">
                  <span class="row-title">{a.subject ? `${name} · ${a.label}` : name}</span>
                  <span class="row-sub wrap">
                    <span class="num">{t("alerts.valueOf", { value: fmtAlertValue(a.value, a.unit), threshold: fmtAlertValue(a.threshold, a.unit) })}</span>
                    {" · "}
                    <span title={fmtFull(a.since)}>{t("alerts.since", { time: fmtWhen(a.since, now) })}</span>
                    {a.rule?.muted && a.rule.mutedUntil ? ` · ${t("alerts.mutedUntil", { time: fmtWhen(a.rule.mutedUntil, now) })}` : ""}
                  </span>
                  {pace ? <span class="row-sub wrap alert-pace">{pace}</span> : null}
                </div>
              </li>
            );
          })}
        </ul>
      ) : (
        <Empty title={t("alerts.noneActive")} hint={t("alerts.noneActiveHint")} />
      )}
    </Panel>
  );
}

const ORIGIN_TONE: Record<AlertRule["origin"], Tone> = { BUILTIN: "neutral", CONFIG: "info", API: "accent" };

interface RulesProps {
  data: AlertsData;
  editing: Editing;
  setEditing: (e: Editing) => void;
  onConfirm: (rule: AlertRule) => void;
  act: (fn: () => Promise<unknown>) => Promise<void>;
  done: () => void;
}

/** "Cost · per day · claude-code · budget $20.00 · every channel · cooldown 30 min". */
function ruleSummary(r: AlertRule, channels: readonly AlertChannel[]): string {
  const meta = METRIC_META[r.metric];
  const parts: string[] = [t(METRIC_LABEL[r.metric])];
  if (r.window) parts.push(t(WINDOW_LABEL[r.window]));
  const scope = [r.scope.provider, r.scope.source, r.scope.project, r.scope.model, r.check].filter((x): x is string => !!x);
  parts.push(scope.length ? scope.join(", ") : t("alerts.scopeAll"));
  if (meta.budget && r.budget !== null) parts.push(t("alerts.budgetOf", { value: fmtAlertValue(r.budget, r.unit) }));
  if (r.warning !== null) parts.push(t("alerts.warningAt", { value: fmtAlertValue(r.warning, r.unit) }));
  if (r.critical !== null) parts.push(t("alerts.criticalAt", { value: fmtAlertValue(r.critical, r.unit) }));
  const names = (r.channels ?? []).map((id) => channels.find((c) => c.id === id)?.name ?? id);
  parts.push(names.length ? t("alerts.channelsSome", { channels: names.join(", ") }) : t("alerts.channelsAll"));
  parts.push(t("alerts.cooldown", { duration: fmtDuration(r.cooldownMinutes * 60_000) }));
  return parts.join(" · ");
}

function ruleStatus(r: AlertRule): { tone: Tone; label: string } {
  if (r.muted) return { tone: "warn", label: t("alerts.muted") };
  if (r.enabled) return { tone: "ok", label: t("alerts.on") };
  const waitsForBudget = METRIC_META[r.metric].budget && r.budget === null && r.warning === null && r.critical === null;
  return { tone: "neutral", label: waitsForBudget ? t("alerts.offNoBudget") : t("alerts.off") };
}

function RulesPanel({ data, editing, setEditing, onConfirm, act, done }: RulesProps): JSX.Element {
  const now = serverNow.value;
  const editingRule = editing?.kind === "rule" ? editing : null;
  return (
    <Panel
      title={t("alerts.rulesTitle")}
      id="alerts-rules"
      actions={
        <button type="button" class="btn btn-sm btn-primary" onClick={() => setEditing({ kind: "rule", rule: null })} disabled={editingRule !== null} data-testid="add-rule">
          {t("alerts.addRule")}
        </button>
      }
    >
      {editingRule ? <RuleForm rule={editingRule.rule} channels={data.channels} onDone={done} onCancel={() => setEditing(null)} /> : null}
      {data.rules.length ? (
        <ul class="rows">
          {data.rules.map((r) => {
            const status = ruleStatus(r);
            return (
              <li key={r.id} class="row item-row" data-testid="alert-rule" data-rule={r.id}>
                <div class="row-main">
                  <div class="item-title">
                    <span class="row-title">{ruleName(r.id, r.name)}</span>
                    <code class="item-id">{r.id}</code>
                    <Badge tone={ORIGIN_TONE[r.origin]}>{t(`alerts.origin.${r.origin}` as const)}</Badge>
                    {/* A built-in rule that config.json changes is read-only here, like config.json's own. */}
                    {r.origin === "BUILTIN" && !r.editable ? <Badge tone={ORIGIN_TONE.CONFIG}>{t("alerts.origin.CONFIG")}</Badge> : null}
                    <span data-testid="rule-status">
                      <Badge tone={status.tone} dot>
                        {status.label}
                      </Badge>
                    </span>
                  </div>
                  <p class="item-sub">{ruleSummary(r, data.channels)}</p>
                  {r.muted && r.mutedUntil ? (
                    <p class="item-note tone-text-warn" data-testid="rule-muted-until" title={r.mutedBy ?? undefined}>
                      {t("alerts.mutedUntil", { time: fmtWhen(r.mutedUntil, now) })}
                    </p>
                  ) : null}
                  {r.editable ? null : <p class="item-note">{t("alerts.configHint")}</p>}
                </div>
                <div class="item-actions">
                  {r.editable ? (
                    <button type="button" class="btn btn-sm" onClick={() => setEditing({ kind: "rule", rule: r })} disabled={editingRule !== null} data-testid="rule-edit">
                      {t("alerts.edit")}
                    </button>
                  ) : null}
                  {r.muted ? (
                    <button type="button" class="btn btn-sm" onClick={() => void act(() => unmuteRule(r.id))} data-testid="rule-unmute">
                      {t("alerts.unmute")}
                    </button>
                  ) : (
                    <MuteMenu rule={r} onDone={done} />
                  )}
                  {r.editable && (r.origin === "API" || r.overridden) ? (
                    <button type="button" class="btn btn-sm btn-ghost" onClick={() => onConfirm(r)} data-testid="rule-delete">
                      {r.origin === "BUILTIN" ? t("alerts.reset") : t("alerts.delete")}
                    </button>
                  ) : null}
                </div>
              </li>
            );
          })}
        </ul>
      ) : (
        <Empty title={t("alerts.noRules")} />
      )}
    </Panel>
  );
}

interface ChannelsProps {
  data: AlertsData;
  editing: Editing;
  setEditing: (e: Editing) => void;
  onConfirm: (channel: AlertChannel) => void;
  act: (fn: () => Promise<unknown>) => Promise<void>;
  done: () => void;
}

function ChannelsPanel({ data, editing, setEditing, onConfirm, act, done }: ChannelsProps): JSX.Element {
  const editingChannel = editing?.kind === "channel" ? editing : null;
  return (
    <Panel
      title={t("alerts.channelsTitle")}
      id="alerts-channels"
      actions={
        <button type="button" class="btn btn-sm btn-primary" onClick={() => setEditing({ kind: "channel", channel: null })} disabled={editingChannel !== null} data-testid="add-channel">
          {t("alerts.addChannel")}
        </button>
      }
    >
      {editingChannel ? <ChannelForm channel={editingChannel.channel} onDone={done} onCancel={() => setEditing(null)} /> : null}
      {data.channels.length ? (
        <ul class="rows">
          {data.channels.map((c) => (
            <ChannelRow key={c.id} c={c} busy={editingChannel !== null} onEdit={() => setEditing({ kind: "channel", channel: c })} onDelete={() => onConfirm(c)} act={act} done={done} />
          ))}
        </ul>
      ) : editingChannel ? null : (
        <Empty title={t("alerts.noChannels")} hint={t("alerts.noChannelsHint")} />
      )}
    </Panel>
  );
}

type TestState = { status: "idle" } | { status: "sending" } | { status: "done"; result: AlertDelivery } | { status: "failed"; error: ApiError };

function ChannelRow({ c, busy, onEdit, onDelete, act, done }: { c: AlertChannel; busy: boolean; onEdit: () => void; onDelete: () => void; act: (fn: () => Promise<unknown>) => Promise<void>; done: () => void }): JSX.Element {
  const [test, setTest] = useState<TestState>({ status: "idle" });
  const [replacing, setReplacing] = useState(false);
  const secretKind = urlIsSecret(c.type) || hasSecretField(c.type);
  const send = async (): Promise<void> => {
    setTest({ status: "sending" });
    try {
      setTest({ status: "done", result: await testChannel(c.id) });
    } catch (err) {
      setTest({ status: "failed", error: err instanceof ApiError ? err : new ApiError("http", null, null) });
    }
  };
  const facts = [c.target, c.minSeverity === "CRITICAL" ? t("alerts.onlyCritical") : t("alerts.allSeverities"), c.sendResolved ? t("alerts.sendsResolved") : null, t("alerts.timeout", { duration: fmtDuration(c.timeoutSeconds * 1000) })].filter(
    (x): x is string => !!x,
  );
  return (
    <li class="row item-row" data-testid="alert-channel" data-channel={c.id}>
      <div class="row-main">
        <div class="item-title">
          <span class="row-title">{c.name}</span>
          {c.name !== c.id ? <code class="item-id">{c.id}</code> : null}
          <Badge>{t(`alerts.channelType.${c.type}` as const)}</Badge>
          <Badge tone={c.origin === "CONFIG" ? "info" : "accent"}>{t(`alerts.origin.${c.origin}` as const)}</Badge>
          {c.enabled ? null : <Badge>{t("alerts.off")}</Badge>}
          {secretKind ? (
            <span data-testid="channel-secret">
              <Badge tone={c.secretSet ? "ok" : "neutral"} dot>
                {c.secretSet ? (urlIsSecret(c.type) ? t("alerts.urlSet") : t("alerts.secretSet")) : t("alerts.noSecret")}
              </Badge>
            </span>
          ) : null}
        </div>
        <p class="item-sub">{facts.join(" · ")}</p>
        {c.origin === "CONFIG" ? <p class="item-note">{t("alerts.channelConfigHint")}</p> : null}
        {replacing ? (
          <SecretEditor
            channel={c}
            onCancel={() => setReplacing(false)}
            onDone={() => {
              setReplacing(false);
              done();
            }}
          />
        ) : null}
        <TestResult state={test} />
      </div>
      <div class="item-actions">
        <button type="button" class="btn btn-sm" onClick={() => void send()} disabled={test.status === "sending"} data-testid="channel-test">
          {test.status === "sending" ? t("alerts.testing") : t("alerts.sendTest")}
        </button>
        {c.editable ? (
          <>
            <button type="button" class="btn btn-sm" onClick={onEdit} disabled={busy} data-testid="channel-edit">
              {t("alerts.edit")}
            </button>
            {secretKind && !replacing ? (
              <button type="button" class="btn btn-sm" onClick={() => setReplacing(true)} data-testid="channel-replace-secret">
                {urlIsSecret(c.type) ? t("alerts.replaceUrl") : t("alerts.replaceSecret")}
              </button>
            ) : null}
            {hasSecretField(c.type) && c.secretSet ? (
              <button type="button" class="btn btn-sm btn-ghost" onClick={() => void act(() => updateChannel(c.id, { secret: null }))} data-testid="channel-clear-secret">
                {t("alerts.clearSecret")}
              </button>
            ) : null}
            <button type="button" class="btn btn-sm btn-ghost" onClick={onDelete} data-testid="channel-delete">
              {t("alerts.delete")}
            </button>
          </>
        ) : null}
      </div>
    </li>
  );
}

function TestResult({ state }: { state: TestState }): JSX.Element | null {
  if (state.status === "idle" || state.status === "sending") return null;
  if (state.status === "failed") return <ErrorNotice error={state.error} compact />;
  const r = state.result;
  const text = r.outcome === "SENT" ? tn("alerts.testSent", r.attempts) : r.outcome === "DROPPED" ? t("alerts.testDropped") : t("alerts.testFailed", { error: r.error ?? "?" });
  return (
    <p class={`item-note test-result tone-text-${r.outcome === "SENT" ? "ok" : "err"}`} role="status" data-testid="channel-test-result" data-outcome={r.outcome}>
      {text}
    </p>
  );
}

const KIND_TONE: Record<string, Tone> = { FIRING: "warn", ESCALATED: "err", DEESCALATED: "warn", RESOLVED: "ok", TEST: "info", MUTED: "neutral", UNMUTED: "neutral" };
const DELIVERY_TONE: Record<string, Tone> = { SENT: "ok", FAILED: "err", DROPPED: "err" };
const KINDS = ["FIRING", "ESCALATED", "DEESCALATED", "RESOLVED", "TEST", "MUTED", "UNMUTED"] as const;

function HistoryPanel({ data }: { data: AlertsData }): JSX.Element {
  const rules = new Map(data.rules.map((r) => [r.id, r]));
  return (
    <Panel title={t("alerts.historyTitle")} id="alerts-history">
      {data.history.length ? (
        <ul class="rows" data-testid="alerts-history">
          {data.history.map((e) => (
            <HistoryRow key={e.id} e={e} rule={rules.get(e.ruleId) ?? null} />
          ))}
        </ul>
      ) : (
        <Empty title={t("alerts.noHistory")} />
      )}
    </Panel>
  );
}

function HistoryRow({ e, rule }: { e: AlertEvent; rule: AlertRule | null }): JSX.Element {
  const now = serverNow.value;
  const kind = (KINDS as readonly string[]).includes(e.kind) ? (e.kind as (typeof KINDS)[number]) : null;
  const unit = rule?.unit ?? "count";
  const mute = e.kind === "MUTED" || e.kind === "UNMUTED";
  // A test is about a channel, not the rule it borrows its figures from.
  const test = e.kind === "TEST";
  const sent = mute ? null : e.notified ? t("alerts.sent") : e.withheld === "MUTED" || e.withheld === "COOLDOWN" || e.withheld === "NO_CHANNEL" ? t(`alerts.withheld.${e.withheld}`) : t("alerts.notSent");
  const until = e.kind === "MUTED" ? /^until (\S+)/.exec(e.detail ?? "")?.[1] : undefined;
  const testChannel = test ? (e.deliveries[0]?.channelId ?? /^channel (\S+)/.exec(e.detail ?? "")?.[1] ?? "") : "";
  const facts = [
    !test && !mute && e.value !== null && e.threshold !== null ? t("alerts.valueOf", { value: fmtAlertValue(e.value, unit), threshold: fmtAlertValue(e.threshold, unit) }) : null,
    until ? t("alerts.mutedUntil", { time: fmtWhen(until, now) }) : null,
    sent,
  ].filter((x): x is string => !!x);
  return (
    <li class="row item-row history-row" data-testid="alert-event" data-kind={e.kind}>
      <span class="history-time num" title={fmtFull(e.at)}>
        {fmtDateTime(e.at, true)}
      </span>
      <div class="row-main">
        <div class="item-title">
          <Badge tone={KIND_TONE[e.kind] ?? "neutral"}>{kind ? t(`alerts.kind.${kind}`) : e.kind}</Badge>
          {e.severity && !test ? <Badge tone={severityTone(e.severity)}>{t(SEVERITY_LABEL[e.severity])}</Badge> : null}
          <span class="row-title">{test ? t("alerts.channelsSome", { channels: testChannel }) : rule ? ruleName(rule.id, rule.name) : e.ruleId}</span>
          {e.subject ? <span class="item-sub">{e.subject}</span> : null}
        </div>
        {facts.length ? <p class="item-sub">{facts.join(" · ")}</p> : null}
        {e.deliveries.length ? (
          <div class="badges deliveries">
            {e.deliveries.map((d, i) => (
              <span key={`${d.channelId}-${i}`} data-testid="alert-delivery" data-channel={d.channelId} data-outcome={d.outcome} title={d.error ?? undefined}>
                <Badge tone={DELIVERY_TONE[d.outcome] ?? "neutral"} dot>
                  {`${d.channelId}: ${(["SENT", "FAILED", "DROPPED"] as const).includes(d.outcome as "SENT") ? t(`alerts.delivery.${d.outcome as "SENT" | "FAILED" | "DROPPED"}`) : d.outcome}${d.error ? ` (${d.error})` : ""}`}
                </Badge>
              </span>
            ))}
          </div>
        ) : null}
      </div>
    </li>
  );
}
