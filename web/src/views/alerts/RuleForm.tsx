// The rule editor: a new rule, or a change to one of yours or to a built-in one (rules from
// config.json are read-only here). The scope pickers offer what exists: the providers and sources
// read here, the projects and models their transcripts recorded. What the daemon refuses is shown
// on the field it names.
import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import { addRule, fetchScopeOptions, updateRule, type ScopeOptions } from "../../api/alerts";
import { ApiError } from "../../api/errors";
import type { AlertChannel, AlertMetric, AlertRule, AlertRulePatch, AlertWindow } from "../../api/types";
import { Panel } from "../../components/Panel";
import { ErrorNotice } from "../../components/States";
import { t } from "../../i18n/i18n";
import { METRIC_LABEL, METRIC_META, METRICS, WINDOW_LABEL, type ScopeField } from "../../lib/alerts";
import { isGatewaySystem, PROVIDER_NAME, PROVIDER_WORD, PROVIDERS } from "../../lib/providers";
import { providerOf } from "../../state/scope";
import { providers, shell, sources } from "../../state/shell";
import { described, Field, fieldErrorOf, numberOf, type FieldError } from "./form";

interface Draft {
  id: string;
  name: string;
  metric: AlertMetric;
  window: AlertWindow | "";
  scope: Record<ScopeField, string>;
  check: string;
  mode: "budget" | "thresholds";
  budget: string;
  warning: string;
  critical: string;
  cooldown: string;
  channels: string[];
  enabled: boolean;
}

const text = (n: number | null | undefined): string => (n === null || n === undefined ? "" : String(n));

function draftOf(r: AlertRule | null): Draft {
  if (!r) {
    return { id: "", name: "", metric: "COST", window: "DAY", scope: { provider: "", source: "", project: "", model: "" }, check: "", mode: "budget", budget: "", warning: "", critical: "", cooldown: "", channels: [], enabled: true };
  }
  const meta = METRIC_META[r.metric];
  // A budget rule whose thresholds are the budget's own 80 % and 100 % is edited as a budget.
  const budgetMode = meta.budget && (r.budget === null || (r.warning === r.budget * 0.8 && r.critical === r.budget));
  return {
    id: r.id,
    name: r.name,
    metric: r.metric,
    window: r.window ?? "",
    scope: { provider: r.scope.provider ?? "", source: r.scope.source ?? "", project: r.scope.project ?? "", model: r.scope.model ?? "" },
    check: r.check ?? "",
    mode: budgetMode ? "budget" : "thresholds",
    budget: text(r.budget),
    warning: budgetMode ? "" : text(r.warning),
    critical: budgetMode ? "" : text(r.critical),
    cooldown: String(r.cooldownMinutes),
    channels: r.channels ?? [],
    // A budget rule that is off only for want of a budget is meant to run once it has one.
    enabled: r.enabled || (meta.budget && r.budget === null && r.warning === null && r.critical === null),
  };
}

/** Every health check's name as rules name them: OpenClaw's plain, the others' as `claude-code/pricing`. */
function checkNames(): string[] {
  const names = new Set<string>();
  for (const sys of shell.value?.systems ?? []) {
    for (const c of sys.health.checks) names.add(isGatewaySystem(sys) || c.name === "disk" || c.name === "store" ? c.name : `${PROVIDER_WORD[sys.provider]}/${c.name}`);
  }
  return [...names].sort();
}

/** Options for a select: what exists, plus the current value when it is not among them (a rule from elsewhere). */
const withCurrent = (list: readonly string[], current: string): string[] => (current && !list.includes(current) ? [current, ...list] : [...list]);

export function RuleForm({ rule, channels, onDone, onCancel }: { rule: AlertRule | null; channels: AlertChannel[]; onDone: () => void; onCancel: () => void }): JSX.Element {
  const adding = rule === null;
  const [initial] = useState(() => draftOf(rule));
  const [d, setD] = useState<Draft>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<ApiError | null>(null);
  const [saving, setSaving] = useState(false);
  const [options, setOptions] = useState<ScopeOptions>({ projects: [], models: [] });
  const meta = METRIC_META[d.metric];
  const unit = t(`alerts.unit.${meta.unit}` as const);

  useEffect(() => {
    const ac = new AbortController();
    fetchScopeOptions(
      sources.value.map((s) => s.id),
      ac.signal,
    )
      .then(setOptions)
      .catch(() => undefined); // the pickers then offer what is typed in the rule only
    return () => ac.abort();
  }, []);

  const set = <K extends keyof Draft>(k: K, v: Draft[K]): void => setD((x) => ({ ...x, [k]: v }));
  const setScope = (k: ScopeField, v: string): void => setD((x) => ({ ...x, scope: { ...x.scope, [k]: v, ...(k === "provider" ? { source: "" } : {}) } }));

  const changeMetric = (m: AlertMetric): void => {
    const next = METRIC_META[m];
    setD((x) => ({
      ...x,
      metric: m,
      window: next.windows.includes(x.window as AlertWindow) ? x.window : (next.defaultWindow ?? ""),
      mode: next.budget ? x.mode : "thresholds",
      scope: Object.fromEntries((["provider", "source", "project", "model"] as const).map((k) => [k, next.scopes.includes(k) ? x.scope[k] : ""])) as Draft["scope"],
    }));
  };

  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    const errs: Record<string, string> = {};
    if (adding && !d.id.trim()) errs.id = t("alerts.form.required");
    const num = (k: "budget" | "warning" | "critical" | "cooldown"): number | null => {
      const n = numberOf(d[k]);
      if (Number.isNaN(n)) errs[k === "cooldown" ? "cooldownMinutes" : k] = t("alerts.form.number");
      return n;
    };
    const budgetMode = meta.budget && d.mode === "budget";
    const budget = budgetMode ? num("budget") : null;
    if (budgetMode && budget === null) errs.budget = t("alerts.form.required");
    const warning = budgetMode ? null : num("warning");
    const critical = budgetMode ? null : num("critical");
    const cooldown = num("cooldown");
    setErrors(errs);
    if (Object.keys(errs).length) return;

    const scope = Object.fromEntries(Object.entries(d.scope).filter(([k, v]) => v && meta.scopes.includes(k as ScopeField))) as AlertRulePatch["scope"];
    const fields: Partial<AlertRulePatch> = {
      name: d.name.trim() || null,
      enabled: d.enabled,
      scope,
      window: d.window || null,
      ...(meta.budget ? { budget } : {}),
      warning,
      critical,
      check: d.metric === "HEALTH_CHECK" ? d.check || null : null,
      cooldownMinutes: cooldown,
      channels: d.channels.length ? d.channels : null,
    };
    setSaving(true);
    setFormError(null);
    try {
      if (adding) {
        // On add, a field not given takes its default: leave the empty ones out.
        const given = Object.fromEntries(Object.entries(fields).filter(([k, v]) => v !== null && !(k === "check" && d.metric !== "HEALTH_CHECK")));
        await addRule({ ...given, id: d.id.trim(), metric: d.metric });
      } else {
        // A change sends what the form shows (null: back to the default); the name only when edited,
        // so a rule keeps following its default name.
        const patch = { ...fields };
        if (d.name === initial.name) delete patch.name;
        if (d.metric !== "HEALTH_CHECK") delete patch.check;
        await updateRule(d.id, patch);
      }
      onDone();
    } catch (err) {
      const apiErr = err instanceof ApiError ? err : new ApiError("http", null, null);
      const fe: FieldError = apiErr.code === "BAD_USER_INPUT" ? fieldErrorOf(apiErr) : { field: null, message: "" };
      if (fe.field) setErrors({ [fe.field]: fe.message });
      else setFormError(apiErr);
    } finally {
      setSaving(false);
    }
  };

  const err = (k: string): string | null => errors[k] ?? null;
  const scopeError = (k: ScopeField): string | null => errors[`scope.${k}`] ?? (k === "provider" ? (errors.scope ?? null) : null);
  const providerWords = providers.value.map((p) => PROVIDER_WORD[p]);
  const sourceIds = sources.value.filter((s) => !d.scope.provider || PROVIDER_WORD[providerOf(s)] === d.scope.provider).map((s) => s.id);
  const scopeChoices: Record<ScopeField, string[]> = {
    provider: withCurrent(providerWords, d.scope.provider),
    source: withCurrent(sourceIds, d.scope.source),
    project: withCurrent(options.projects, d.scope.project),
    model: withCurrent(options.models, d.scope.model),
  };
  const providerLabel = (v: string): string => {
    const e = PROVIDERS.find((p) => PROVIDER_WORD[p] === v);
    return e ? PROVIDER_NAME[e] : v;
  };

  return (
    <Panel title={adding ? t("alerts.form.addTitle") : t("alerts.form.editTitle", { id: d.id })} class="editor" id="rule-editor">
      <form class="form" onSubmit={(e) => void submit(e)} noValidate data-testid="rule-form">
        <div class="form-grid">
          {adding ? (
            <Field id="rule-id" label={t("alerts.form.id")} hint={t("alerts.form.idHint")} error={err("id")}>
              <input id="rule-id" name="id" value={d.id} onInput={(e) => set("id", e.currentTarget.value)} autocomplete="off" spellcheck={false} required {...described("rule-id", err("id"), t("alerts.form.idHint"))} />
            </Field>
          ) : null}
          <Field id="rule-name" label={t("alerts.form.name")} hint={t("alerts.form.nameHint")} error={err("name")}>
            <input id="rule-name" name="name" value={d.name} onInput={(e) => set("name", e.currentTarget.value)} autocomplete="off" {...described("rule-name", err("name"), t("alerts.form.nameHint"))} />
          </Field>
          <Field id="rule-metric" label={t("alerts.form.metric")} error={err("metric")}>
            <select id="rule-metric" name="metric" value={d.metric} disabled={!adding} onChange={(e) => changeMetric(e.currentTarget.value as AlertMetric)} {...described("rule-metric", err("metric"))}>
              {METRICS.map((m) => (
                <option key={m} value={m}>
                  {t(METRIC_LABEL[m])}
                </option>
              ))}
            </select>
          </Field>
          {meta.windows.length ? (
            <Field id="rule-window" label={t("alerts.form.window")} error={err("window")}>
              <select id="rule-window" name="window" value={d.window} onChange={(e) => set("window", e.currentTarget.value as AlertWindow | "")} {...described("rule-window", err("window"))}>
                <option value="">{meta.defaultWindow ? t("alerts.form.windowDefault", { window: t(WINDOW_LABEL[meta.defaultWindow]) }) : t("alerts.form.windowBoth")}</option>
                {meta.windows.map((w) => (
                  <option key={w} value={w}>
                    {t(WINDOW_LABEL[w])}
                  </option>
                ))}
              </select>
            </Field>
          ) : null}
        </div>

        {meta.scopes.length ? (
          <fieldset class="form-group">
            <legend>{t("alerts.form.scope")}</legend>
            <div class="form-grid">
              {meta.scopes.map((k) => (
                <Field key={k} id={`rule-scope-${k}`} label={t(`alerts.form.${k}` as const)} error={scopeError(k)}>
                  <select id={`rule-scope-${k}`} name={`scope.${k}`} value={d.scope[k]} onChange={(e) => setScope(k, e.currentTarget.value)} {...described(`rule-scope-${k}`, scopeError(k))}>
                    <option value="">{t("alerts.form.any")}</option>
                    {scopeChoices[k].map((v) => (
                      <option key={v} value={v}>
                        {k === "provider" ? providerLabel(v) : v}
                      </option>
                    ))}
                  </select>
                </Field>
              ))}
            </div>
          </fieldset>
        ) : null}

        {d.metric === "HEALTH_CHECK" ? (
          <div class="form-grid">
            <Field id="rule-check" label={t("alerts.form.check")} error={err("check")}>
              <select id="rule-check" name="check" value={d.check} onChange={(e) => set("check", e.currentTarget.value)} {...described("rule-check", err("check"))}>
                <option value="">{t("alerts.form.anyCheck")}</option>
                {withCurrent(checkNames(), d.check).map((c) => (
                  <option key={c} value={c}>
                    {c}
                  </option>
                ))}
              </select>
            </Field>
          </div>
        ) : null}

        <fieldset class="form-group">
          <legend>{t("alerts.form.limit")}</legend>
          {meta.budget ? (
            <div class="segmented segmented-sm" role="group" aria-label={t("alerts.form.limit")}>
              {(["budget", "thresholds"] as const).map((m) => (
                <button key={m} type="button" class="segment" aria-pressed={d.mode === m} onClick={() => set("mode", m)} data-testid={`rule-mode-${m}`}>
                  {m === "budget" ? t("alerts.form.useBudget") : t("alerts.form.useThresholds")}
                </button>
              ))}
            </div>
          ) : null}
          <div class="form-grid">
            {meta.budget && d.mode === "budget" ? (
              <Field id="rule-budget" label={t("alerts.form.budget")} hint={t("alerts.form.budgetHint", { unit })} error={err("budget")}>
                <input id="rule-budget" name="budget" type="number" inputMode="decimal" step="any" min="0" value={d.budget} onInput={(e) => set("budget", e.currentTarget.value)} {...described("rule-budget", err("budget"), t("alerts.form.budgetHint", { unit }))} />
              </Field>
            ) : (
              (["warning", "critical"] as const).map((k) => {
                const fallback = meta.defaults[k];
                const hint = t("alerts.form.thresholdHint", { unit });
                return (
                  <Field key={k} id={`rule-${k}`} label={t(`alerts.form.${k}` as const)} hint={hint} error={err(k)}>
                    <input id={`rule-${k}`} name={k} type="number" inputMode="decimal" step="any" min="0" value={d[k]} placeholder={fallback === null ? "" : String(fallback)} onInput={(e) => set(k, e.currentTarget.value)} {...described(`rule-${k}`, err(k), hint)} />
                  </Field>
                );
              })
            )}
            <Field id="rule-cooldown" label={t("alerts.form.cooldown")} hint={t("alerts.form.cooldownHint")} error={err("cooldownMinutes")}>
              <input id="rule-cooldown" name="cooldownMinutes" type="number" inputMode="numeric" step="1" min="0" placeholder="30" value={d.cooldown} onInput={(e) => set("cooldown", e.currentTarget.value)} {...described("rule-cooldown", err("cooldownMinutes"), t("alerts.form.cooldownHint"))} />
            </Field>
          </div>
        </fieldset>

        <fieldset class="form-group" aria-describedby="rule-channels-hint">
          <legend>{t("alerts.form.channels")}</legend>
          <div class="form-checks">
            {channels.map((c) => (
              <label key={c.id} class="form-check">
                <input type="checkbox" name="channels" value={c.id} checked={d.channels.includes(c.id)} onChange={(e) => set("channels", e.currentTarget.checked ? [...d.channels, c.id] : d.channels.filter((x) => x !== c.id))} />
                <span>{c.name === c.id ? c.id : `${c.name} (${c.id})`}</span>
              </label>
            ))}
          </div>
          {errors.channels ? (
            <p class="field-error" role="alert" data-testid="error-rule-channels">
              {errors.channels}
            </p>
          ) : (
            <p class="field-hint" id="rule-channels-hint">
              {t("alerts.form.channelsHint")}
            </p>
          )}
        </fieldset>

        <label class="form-check">
          <input type="checkbox" name="enabled" checked={d.enabled} onChange={(e) => set("enabled", e.currentTarget.checked)} />
          <span>{t("alerts.form.enabled")}</span>
        </label>

        {formError ? <ErrorNotice error={formError} compact /> : null}
        <div class="form-actions">
          <button type="button" class="btn" onClick={onCancel}>
            {t("action.cancel")}
          </button>
          <button type="submit" class="btn btn-primary" disabled={saving} data-testid="rule-save">
            {t("alerts.form.save")}
          </button>
        </div>
      </form>
    </Panel>
  );
}
