// The channel editor: a new channel (webhook, Slack, Discord, ntfy), or a change to one made here.
// Command channels are not offered: a program runs only because the operator wrote it into
// config.json (the API refuses them with FORBIDDEN_CHANNEL_TYPE); config-made ones are listed
// read-only. Secrets are write-only: a new channel takes its secret here once; afterwards the
// channel only says "secret set", and the channel list has Replace and Clear (SecretEditor). A
// new URL drops the secret, so the form offers to set it again in the same save. The typed secret
// is dropped from the page's state as soon as it is sent.
import type { JSX } from "preact";
import { useState } from "preact/hooks";
import { addChannel, updateChannel } from "../../api/alerts";
import { ApiError } from "../../api/errors";
import type { AlertChannel, AlertChannelPatch, AlertChannelType, AlertSeverity } from "../../api/types";
import { Panel } from "../../components/Panel";
import { ErrorNotice } from "../../components/States";
import { t } from "../../i18n/i18n";
import { described, Field, fieldErrorOf, numberOf } from "./form";

/** The types the form offers: every type but COMMAND (config.json only). */
export const CHANNEL_TYPES: readonly AlertChannelType[] = ["WEBHOOK", "SLACK", "DISCORD", "NTFY"];

/** Slack's and Discord's URL is the secret itself; a webhook's HMAC key and ntfy's token are a separate one. */
export const urlIsSecret = (type: AlertChannelType): boolean => type === "SLACK" || type === "DISCORD";
export const hasSecretField = (type: AlertChannelType): boolean => type === "WEBHOOK" || type === "NTFY";

interface Draft {
  id: string;
  type: AlertChannelType;
  name: string;
  url: string;
  secret: string;
  minSeverity: AlertSeverity;
  sendResolved: boolean;
  timeout: string;
  enabled: boolean;
}

function draftOf(c: AlertChannel | null): Draft {
  return c
    ? { id: c.id, type: c.type, name: c.name === c.id ? "" : c.name, url: "", secret: "", minSeverity: c.minSeverity, sendResolved: c.sendResolved, timeout: String(c.timeoutSeconds), enabled: c.enabled }
    : { id: "", type: "WEBHOOK", name: "", url: "", secret: "", minSeverity: "WARNING", sendResolved: true, timeout: "", enabled: true };
}

export function ChannelForm({ channel, onDone, onCancel }: { channel: AlertChannel | null; onDone: () => void; onCancel: () => void }): JSX.Element {
  const adding = channel === null;
  const [d, setD] = useState<Draft>(() => draftOf(channel));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<ApiError | null>(null);
  const [saving, setSaving] = useState(false);
  const set = <K extends keyof Draft>(k: K, v: Draft[K]): void => setD((x) => ({ ...x, [k]: v }));
  const err = (k: string): string | null => errors[k] ?? null;

  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    const errs: Record<string, string> = {};
    if (adding && !d.id.trim()) errs.id = t("alerts.form.required");
    const timeout = numberOf(d.timeout);
    if (Number.isNaN(timeout)) errs.timeoutSeconds = t("alerts.form.number");
    if (adding && !d.url.trim()) errs.url = t("alerts.form.required");
    setErrors(errs);
    if (Object.keys(errs).length) return;
    const fields: Partial<AlertChannelPatch> = {
      name: d.name.trim() || null,
      enabled: d.enabled,
      minSeverity: d.minSeverity,
      sendResolved: d.sendResolved,
      timeoutSeconds: timeout,
      // Empty on a change: keep what is set (it is not shown, so it cannot be pre-filled).
      ...(d.url.trim() ? { url: d.url.trim() } : {}),
      // On a change, only with a new URL (which drops the old secret on the daemon).
      ...((adding || d.url.trim()) && hasSecretField(d.type) && d.secret ? { secret: d.secret } : {}),
    };
    setSaving(true);
    setFormError(null);
    try {
      if (adding) {
        const given = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== null));
        await addChannel({ ...given, id: d.id.trim(), type: d.type });
      } else await updateChannel(d.id, fields);
      // Never keep a secret (or a Slack URL) in the page longer than the request.
      setD((x) => ({ ...x, secret: "", url: "" }));
      onDone();
    } catch (caught) {
      const apiErr = caught instanceof ApiError ? caught : new ApiError("http", null, null);
      const fe = apiErr.code === "BAD_USER_INPUT" ? fieldErrorOf(apiErr) : { field: null, message: "" };
      if (fe.field) setErrors({ [fe.field]: fe.message });
      else setFormError(apiErr);
    } finally {
      setSaving(false);
    }
  };

  const urlLabel = urlIsSecret(d.type) ? t("alerts.cform.urlSecret") : t("alerts.cform.url");
  const urlHint = !adding && channel?.target ? t("alerts.cform.urlKeep", { target: channel.target }) : urlIsSecret(d.type) ? t("alerts.cform.secretHint") : null;
  const secretLabel = d.type === "NTFY" ? t("alerts.cform.secretNtfy") : t("alerts.cform.secretWebhook");
  // Changing the URL of a channel with a secret: it is dropped unless set again here.
  const secretAgain = !adding && hasSecretField(d.type) && d.url.trim() !== "";
  const secretHint = secretAgain && channel?.secretSet ? t("alerts.cform.secretDropped") : t("alerts.cform.secretHint");

  return (
    <Panel title={adding ? t("alerts.cform.addTitle") : t("alerts.cform.editTitle", { id: d.id })} class="editor" id="channel-editor">
      <form class="form" onSubmit={(e) => void submit(e)} noValidate data-testid="channel-form" autocomplete="off">
        <div class="form-grid">
          {adding ? (
            <Field id="channel-id" label={t("alerts.form.id")} hint={t("alerts.form.idHint")} error={err("id")}>
              <input id="channel-id" name="id" value={d.id} onInput={(e) => set("id", e.currentTarget.value)} spellcheck={false} {...described("channel-id", err("id"), t("alerts.form.idHint"))} />
            </Field>
          ) : null}
          <Field id="channel-type" label={t("alerts.cform.type")} hint={adding ? t("alerts.cform.commandConfigOnly") : null} error={err("type")}>
            <select id="channel-type" name="type" value={d.type} disabled={!adding} onChange={(e) => set("type", e.currentTarget.value as AlertChannelType)}>
              {CHANNEL_TYPES.map((x) => (
                <option key={x} value={x}>
                  {t(`alerts.channelType.${x}` as const)}
                </option>
              ))}
            </select>
          </Field>
          <Field id="channel-name" label={t("alerts.form.name")} error={err("name")}>
            <input id="channel-name" name="name" value={d.name} placeholder={d.id} onInput={(e) => set("name", e.currentTarget.value)} {...described("channel-name", err("name"))} />
          </Field>
          {/* Slack's and Discord's URL is their secret: replaced from the channel list, never shown here. */}
          {adding || !urlIsSecret(d.type) ? (
            <Field id="channel-url" label={urlLabel} hint={urlHint} error={err("url")} wide>
              {urlIsSecret(d.type) ? (
                <input id="channel-url" name="url" type="password" value={d.url} spellcheck={false} autocomplete="new-password" placeholder="https://" onInput={(e) => set("url", e.currentTarget.value)} {...described("channel-url", err("url"), urlHint)} />
              ) : (
                <input id="channel-url" name="url" type="url" inputMode="url" value={d.url} spellcheck={false} autocomplete="off" placeholder={d.type === "NTFY" ? "https://ntfy.sh/my-topic" : "https://"} onInput={(e) => set("url", e.currentTarget.value)} {...described("channel-url", err("url"), urlHint)} />
              )}
            </Field>
          ) : null}
          {(adding || secretAgain) && hasSecretField(d.type) ? (
            <Field id="channel-secret" label={secretLabel} hint={secretHint} error={err("secret")} wide>
              <input id="channel-secret" name="secret" type="password" autocomplete="new-password" value={d.secret} onInput={(e) => set("secret", e.currentTarget.value)} {...described("channel-secret", err("secret"), secretHint)} />
            </Field>
          ) : null}
          <Field id="channel-severity" label={t("alerts.cform.minSeverity")} error={err("minSeverity")}>
            <select id="channel-severity" name="minSeverity" value={d.minSeverity} onChange={(e) => set("minSeverity", e.currentTarget.value as AlertSeverity)}>
              <option value="WARNING">{t("alerts.allSeverities")}</option>
              <option value="CRITICAL">{t("alerts.onlyCritical")}</option>
            </select>
          </Field>
          <Field id="channel-timeout" label={t("alerts.cform.timeout")} error={err("timeoutSeconds")}>
            <input id="channel-timeout" name="timeoutSeconds" type="number" inputMode="numeric" min="1" max="120" step="1" placeholder="10" value={d.timeout} onInput={(e) => set("timeout", e.currentTarget.value)} {...described("channel-timeout", err("timeoutSeconds"))} />
          </Field>
        </div>
        <div class="form-checks">
          <label class="form-check">
            <input type="checkbox" name="sendResolved" checked={d.sendResolved} onChange={(e) => set("sendResolved", e.currentTarget.checked)} />
            <span>{t("alerts.cform.sendResolved")}</span>
          </label>
          <label class="form-check">
            <input type="checkbox" name="enabled" checked={d.enabled} onChange={(e) => set("enabled", e.currentTarget.checked)} />
            <span>{t("alerts.form.enabled")}</span>
          </label>
        </div>
        {formError ? <ErrorNotice error={formError} compact /> : null}
        <div class="form-actions">
          <button type="button" class="btn" onClick={onCancel}>
            {t("action.cancel")}
          </button>
          <button type="submit" class="btn btn-primary" disabled={saving} data-testid="channel-save">
            {t("alerts.cform.save")}
          </button>
        </div>
      </form>
    </Panel>
  );
}

/** Replaces a channel's secret (or Slack's/Discord's URL) with a new one typed here; the field empties once it is sent. */
export function SecretEditor({ channel, onDone, onCancel }: { channel: AlertChannel; onDone: () => void; onCancel: () => void }): JSX.Element {
  const [value, setValue] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const id = `secret-${channel.id}`;
  const label = urlIsSecret(channel.type) ? t("alerts.cform.urlSecret") : channel.type === "NTFY" ? t("alerts.cform.secretNtfy") : t("alerts.cform.secretWebhook");
  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    if (!value) {
      setError(t("alerts.form.required"));
      return;
    }
    setSaving(true);
    try {
      await updateChannel(channel.id, urlIsSecret(channel.type) ? { url: value } : { secret: value });
      setValue("");
      onDone();
    } catch (caught) {
      const apiErr = caught instanceof ApiError ? caught : new ApiError("http", null, null);
      setError(fieldErrorOf(apiErr).message || apiErr.message);
    } finally {
      setSaving(false);
    }
  };
  return (
    <form class="secret-editor" onSubmit={(e) => void submit(e)} noValidate autocomplete="off" data-testid="secret-form">
      <Field id={id} label={label} hint={t("alerts.cform.secretHint")} error={error}>
        <input id={id} type="password" autocomplete="new-password" value={value} onInput={(e) => setValue(e.currentTarget.value)} {...described(id, error, t("alerts.cform.secretHint"))} />
      </Field>
      <div class="form-actions">
        <button type="button" class="btn btn-sm" onClick={onCancel}>
          {t("action.cancel")}
        </button>
        <button type="submit" class="btn btn-sm btn-primary" disabled={saving}>
          {urlIsSecret(channel.type) ? t("alerts.replaceUrl") : t("alerts.replaceSecret")}
        </button>
      </div>
    </form>
  );
}
