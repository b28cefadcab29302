// What the API changes in channels: add, change, delete and test one. Command channels never come
// from here, a target the outbound policy refuses is refused at once, and a secret stays with the
// URL it was given for. Every change is audited by channel id only, never by its URL or secret.
import { InsightsError } from "../../shared/base/errors.js";
import type { NotificationInput } from "../../shared/alerts/format.js";
import { ChannelSchema, MAX_CHANNELS, secretFields, type AlertChannel, type ChannelInput } from "../../shared/alerts/rules.js";
import type { Caller, ChannelView, DeliveryView } from "../../shared/alerts/views.js";
import { badInput, forbiddenCommand, zodInput, type AlertApiDeps } from "./api-input.js";
import type { DeliveryQueue } from "./delivery-queue.js";
import { refusedUrl } from "./target-policy.js";
import { originOf } from "./transports.js";

export class ChannelApi {
  constructor(private readonly d: AlertApiDeps & { queue: DeliveryQueue; host: string }) {}

  views(): ChannelView[] {
    return this.d.inForce.channels.map((c) => channelView(c));
  }

  add(input: unknown, by: Caller): ChannelView {
    // Checked before anything else: a program runs only because the operator wrote it into a file they own.
    if (typeof input === "object" && input !== null && (input as { type?: unknown }).type === "command") throw forbiddenCommand();
    const parsed = ChannelSchema.safeParse(input);
    if (!parsed.success) throw zodInput(parsed.error, "channel");
    const c = parsed.data as ChannelInput;
    if (this.d.inForce.channel(c.id)) throw badInput(`an alert channel ${c.id} exists already`);
    if (this.d.db.channelRows().length >= MAX_CHANNELS) throw new InsightsError("LIMIT_REACHED", `${MAX_CHANNELS} alert channels made through the API is the most there can be; delete one first`);
    this.checkTarget(c.url);
    this.d.db.putChannel(c.id, JSON.stringify(c), this.d.clock.now());
    return this.afterChange("alert channel added", c.id, by);
  }

  /** `patch`: fields to change; `secret: null` removes the secret. The type cannot change. */
  update(id: string, patch: Record<string, unknown>, by: Caller): ChannelView {
    const current = this.d.inForce.channelOrThrow(id);
    if (patch.type === "command" || (patch.command !== undefined && patch.command !== null)) throw forbiddenCommand();
    if (current.origin === "config") throw badInput(`alert channel ${id} is defined in config.json: change it there and reload (SIGHUP)`);
    if (patch.type !== undefined && patch.type !== current.type) throw badInput("channel.type: a channel's type cannot be changed; add a new channel instead");
    const row = this.d.db.channelRows().find((r) => r.id === id);
    const before = (row ? JSON.parse(row.json) : {}) as Record<string, unknown>;
    const next: Record<string, unknown> = { ...before };
    for (const [k, v] of Object.entries(patch)) {
      if (v === undefined || k === "id") continue;
      if (v === null) delete next[k];
      else next[k] = v;
    }
    // A secret belongs to where it was sent: a new URL drops it unless this call sets one (else
    // whoever changes the URL to an address they own receives the ntfy token or signs with the key).
    if (typeof patch.url === "string" && patch.url !== before.url && patch.secret === undefined) delete next.secret;
    const parsed = ChannelSchema.safeParse({ ...next, id, type: current.type });
    if (!parsed.success) throw zodInput(parsed.error, "channel");
    if (typeof patch.url === "string") this.checkTarget(patch.url);
    this.d.db.putChannel(id, JSON.stringify(parsed.data), this.d.clock.now());
    // Which fields changed, never their values; a secret is said to have changed, nothing more.
    return this.afterChange("alert channel changed", id, by, Object.keys(patch).filter((k) => patch[k] !== undefined));
  }

  delete(id: string, by: Caller): { id: string } {
    const c = this.d.inForce.channelOrThrow(id);
    if (c.origin === "config") throw badInput(`alert channel ${id} is defined in config.json: remove it there and reload (SIGHUP)`);
    this.d.db.deleteChannel(id);
    this.afterChange("alert channel deleted", id, by);
    return { id };
  }

  /** Sends a test notification through one channel now and waits for the outcome: one try, bounded by the channel's timeout. */
  async test(id: string, by: Caller): Promise<DeliveryView & { channel: ChannelView }> {
    const channel = this.d.inForce.channelOrThrow(id);
    this.d.queue.checkTest(id);
    const now = this.d.clock.now();
    this.d.logger.info("alert channel test requested", { channel: id, by: by.auth, peer: by.peer });
    const rules = this.d.inForce.rules;
    const rule = rules.find((r) => r.enabled) ?? rules[0]!; // the built-ins are always there
    const threshold = rule.critical ?? rule.warning ?? 0;
    const eventId = this.d.db.event({ ts: now, alertId: null, ruleId: rule.id, subject: "", kind: "test", severity: "warning", value: threshold, threshold, notified: true, withheld: null, detail: `channel ${id}` });
    const n: NotificationInput = {
      event: "test",
      escalated: false,
      rule: { id: rule.id, name: rule.name, metric: rule.metric, scope: rule.scope, window: rule.window },
      alertId: `test-${now}`,
      subject: "",
      label: rule.name,
      severity: "warning",
      value: threshold,
      threshold,
      since: now,
      resolvedAt: null,
      projection: null,
      timeZone: this.d.inForce.timeZone,
      host: this.d.host,
      sentAt: now,
    };
    const r = await this.d.queue.sendOnce({ channel, notification: n, eventId });
    return { channelId: r.channelId, outcome: r.outcome, attempts: r.attempts, error: r.error, ts: this.d.clock.now(), channel: channelView(channel) };
  }

  /** A URL the outbound policy refuses (checked again, after DNS, on every delivery). */
  private checkTarget(url: string | undefined): void {
    if (url === undefined) return;
    const kind = refusedUrl(url, this.d.inForce.targetPolicy());
    if (kind) throw new InsightsError("TARGET_REFUSED", `channel.url: refused by policy, a ${kind} address; channels made through the API send to public addresses only (config.json alerts.allowedHosts or alerts.allowPrivateTargets allows others)`);
  }

  private afterChange(what: string, id: string, by: Caller, fields?: string[]): ChannelView {
    this.d.logger.info(what, { channel: id, ...(fields ? { fields } : {}), by: by.auth, peer: by.peer });
    this.d.inForce.refresh();
    this.d.feed.emit({ kind: "CHANNELS_CHANGED", ruleId: null, alertId: null });
    const c = this.d.inForce.channel(id);
    return c ? channelView(c) : ({ id } as ChannelView);
  }
}

function channelView(c: AlertChannel): ChannelView {
  const secrets = secretFields(c.type);
  return {
    id: c.id,
    type: c.type,
    name: c.name,
    enabled: c.enabled,
    target: c.type === "command" ? (c.command?.[0] ?? null) : originOf(c.url),
    secretSet: secrets.some((f) => c[f] !== null),
    minSeverity: c.minSeverity,
    sendResolved: c.sendResolved,
    timeoutSeconds: c.timeoutSeconds,
    origin: c.origin,
    editable: c.origin === "api",
  };
}
