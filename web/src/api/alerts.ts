// The alerting part of the API (docs/alerting.md): what fires now, the rules, the channels (never
// their secrets: only `secretSet`), the history with each channel's delivery, and the mutations
// that change them. Mutations go through gql(), which sends the session's CSRF header.
import { gql } from "./graphql";
import type { ActiveAlert, AlertChannel, AlertChannelInput, AlertChannelPatch, AlertDelivery, AlertEvent, AlertRule, AlertRuleInput, AlertRulePatch } from "./types";

const ALERT_FIELDS = `id ruleId ruleName metric subject label severity value threshold unit since notified
  projection { target projectedTotal reachesAt windowEnd }
  rule { name window muted mutedUntil }`;
const RULE_FIELDS = `id name enabled metric window unit budget warning critical check cooldownMinutes channels origin overridden editable muted mutedUntil mutedBy
  scope { provider source project model }`;
const CHANNEL_FIELDS = "id type name enabled target secretSet minSeverity sendResolved timeoutSeconds origin editable";
const DELIVERY_FIELDS = "channelId outcome attempts error at";

/** The banner's query: the alerts firing now. */
export async function fetchActiveAlerts(signal: AbortSignal): Promise<ActiveAlert[]> {
  return (await gql<{ alerts: ActiveAlert[] }>(`query ActiveAlerts { alerts(state: ACTIVE, limit: 100) { ${ALERT_FIELDS} } }`, {}, signal)).alerts;
}

export interface AlertsData {
  active: ActiveAlert[];
  rules: AlertRule[];
  channels: AlertChannel[];
  history: AlertEvent[];
}

const ALERTS_VIEW = `query AlertsView {
  active: alerts(state: ACTIVE, limit: 100) { ${ALERT_FIELDS} }
  rules: alertRules { ${RULE_FIELDS} }
  channels: alertChannels { ${CHANNEL_FIELDS} }
  history: alertHistory(limit: 50) { id at alertId ruleId subject kind severity value threshold notified withheld detail deliveries { ${DELIVERY_FIELDS} } }
}`;

export function fetchAlertsView(signal: AbortSignal): Promise<AlertsData> {
  return gql<AlertsData>(ALERTS_VIEW, {}, signal);
}

export interface ScopeOptions {
  projects: string[];
  models: string[];
}

const SCOPE_OPTIONS = `query AlertScopeOptions($sel: SourceSelector!) {
  source(selector: $sel) { ... on AgentNamespace { projects(limit: 200) { project } usageCost { byModel { model } } } }
}`;

/** The projects and models recorded by these sources: what a rule's scope can name. */
export async function fetchScopeOptions(sourceIds: readonly string[], signal: AbortSignal): Promise<ScopeOptions> {
  type Answer = { source: { projects?: Array<{ project: string | null }>; usageCost?: { byModel: Array<{ model: string }> } } };
  // A source that cannot be read now offers nothing; the others still do.
  const answers = await Promise.all(sourceIds.map((id) => gql<Answer>(SCOPE_OPTIONS, { sel: { id } }, signal).catch((): Answer => ({ source: {} }))));
  const projects = new Set<string>();
  const models = new Set<string>();
  for (const a of answers) {
    for (const p of a.source.projects ?? []) if (p.project) projects.add(p.project);
    for (const m of a.source.usageCost?.byModel ?? []) if (m.model) models.add(m.model);
  }
  return { projects: [...projects].sort(), models: [...models].sort() };
}

// Mutations. Each answers the changed object; the view refetches on alertChanged anyway.

export async function addRule(input: Partial<AlertRuleInput> & Pick<AlertRuleInput, "id" | "metric">): Promise<AlertRule> {
  return (await gql<{ addAlertRule: AlertRule }>(`mutation AddRule($i: AlertRuleInput!) { addAlertRule(input: $i) { ${RULE_FIELDS} } }`, { i: input })).addAlertRule;
}

export async function updateRule(id: string, patch: Partial<AlertRulePatch>): Promise<AlertRule> {
  return (await gql<{ updateAlertRule: AlertRule }>(`mutation UpdateRule($id: String!, $p: AlertRulePatch!) { updateAlertRule(id: $id, input: $p) { ${RULE_FIELDS} } }`, { id, p: patch })).updateAlertRule;
}

export async function deleteRule(id: string): Promise<{ id: string; reset: boolean }> {
  return (await gql<{ deleteAlertRule: { id: string; reset: boolean } }>(`mutation DeleteRule($id: String!) { deleteAlertRule(id: $id) { id reset } }`, { id })).deleteAlertRule;
}

export async function muteRule(id: string, until: string): Promise<AlertRule> {
  return (await gql<{ muteAlertRule: AlertRule }>(`mutation MuteRule($id: String!, $until: String!) { muteAlertRule(id: $id, until: $until) { ${RULE_FIELDS} } }`, { id, until })).muteAlertRule;
}

export async function unmuteRule(id: string): Promise<AlertRule> {
  return (await gql<{ unmuteAlertRule: AlertRule }>(`mutation UnmuteRule($id: String!) { unmuteAlertRule(id: $id) { ${RULE_FIELDS} } }`, { id })).unmuteAlertRule;
}

export async function addChannel(input: Partial<AlertChannelInput> & Pick<AlertChannelInput, "id" | "type">): Promise<AlertChannel> {
  return (await gql<{ addAlertChannel: AlertChannel }>(`mutation AddChannel($i: AlertChannelInput!) { addAlertChannel(input: $i) { ${CHANNEL_FIELDS} } }`, { i: input })).addAlertChannel;
}

/** `secret: null` removes the secret. */
export async function updateChannel(id: string, patch: Partial<AlertChannelPatch>): Promise<AlertChannel> {
  return (await gql<{ updateAlertChannel: AlertChannel }>(`mutation UpdateChannel($id: String!, $p: AlertChannelPatch!) { updateAlertChannel(id: $id, input: $p) { ${CHANNEL_FIELDS} } }`, { id, p: patch })).updateAlertChannel;
}

export async function deleteChannel(id: string): Promise<void> {
  await gql(`mutation DeleteChannel($id: String!) { deleteAlertChannel(id: $id) { id } }`, { id });
}

/** Sends a test notification now; answers how it went (within the channel's tries and timeout). */
export async function testChannel(id: string): Promise<AlertDelivery> {
  return (await gql<{ testAlertChannel: AlertDelivery }>(`mutation TestChannel($id: String!) { testAlertChannel(id: $id) { ${DELIVERY_FIELDS} } }`, { id })).testAlertChannel;
}

export const ALERT_CHANGED_SUBSCRIPTION = "subscription AlertChanged { alertChanged { kind ruleId alertId ts } }";
