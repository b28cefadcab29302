// Catalog keys for the API's enum-like values, shared by the views that show them.
import type { GatewayState, HealthVerdict, SessionStatus } from "../api/types";
import type { MessageKey } from "../i18n/i18n";

export const STATUS_LABEL: Record<SessionStatus, MessageKey> = { ACTIVE: "status.active", IDLE: "status.idle", DONE: "status.done", FAILED: "status.failed" };

const KIND_LABEL: Record<string, MessageKey> = { direct: "kind.direct", group: "kind.group", cron: "kind.cron", subagent: "kind.subagent" };

/** The catalog key of a session kind; unknown kinds are shown as the API spells them. */
export function kindKey(kind: string): MessageKey | null {
  return KIND_LABEL[kind] ?? null;
}

export const VERDICT_LABEL: Record<HealthVerdict, MessageKey> = { OK: "health.healthy", DEGRADED: "health.degraded", UNHEALTHY: "health.unhealthy", STARTING: "health.starting" };

export const GATEWAY_LABEL: Record<GatewayState, MessageKey> = { UP: "gateway.running", DOWN: "gateway.down", DEMO: "gateway.demo", UNKNOWN: "gateway.checking" };
