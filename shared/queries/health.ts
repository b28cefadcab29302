// The one health rule (README "GET /health", docs/graphql.md): every interface that states how
// things are derives it here, from the list of checks, so /health, `insightsctl status`, GraphQL
// `system.health` and the dashboard cannot disagree. Provider-neutral: a provider contributes
// checks (OpenClaw's are in system.ts); nothing here knows what a check looks at.
import type { Message } from "../i18n/message.js";

export type HealthLevel = "HEALTHY" | "DEGRADED" | "UNHEALTHY";
export type CheckStatus = "PASS" | "WARN" | "FAIL";

export interface HealthCheck {
  name: string;
  status: CheckStatus;
  /** In English, as the API gives it without a locale. */
  message: string | null;
  /** The same message as a catalog id and parameters (shared/i18n), for the interfaces to localize. */
  text?: Message | null;
  /**
   * No first reading yet (first probe or first scan still running). Such a check is a WARN, and
   * while one is pending and nothing FAILs the verdict is STARTING rather than DEGRADED.
   */
  pending?: boolean;
}

/** The level in words for people and supervisors: /health `status` and `insightsctl status` print it lower-cased. */
export type HealthVerdict = "STARTING" | "OK" | "DEGRADED" | "UNHEALTHY";

export interface Health {
  /** Spec HealthLevel: any FAIL -> UNHEALTHY, else any WARN -> DEGRADED, else HEALTHY. */
  status: HealthLevel;
  /** UNHEALTHY as above; else STARTING while a check is pending; else OK (HEALTHY) or DEGRADED. */
  verdict: HealthVerdict;
  checks: HealthCheck[];
  /** The checks that made it so: FAIL first, then WARN, in check order. */
  reasons: HealthCheck[];
}

export function overallHealth(checks: readonly HealthCheck[]): HealthLevel {
  if (checks.some((c) => c.status === "FAIL")) return "UNHEALTHY";
  if (checks.some((c) => c.status === "WARN")) return "DEGRADED";
  return "HEALTHY";
}

export function healthOf(checks: readonly HealthCheck[]): Health {
  const status = overallHealth(checks);
  const verdict: HealthVerdict = status === "UNHEALTHY" ? "UNHEALTHY" : checks.some((c) => c.pending) ? "STARTING" : status === "HEALTHY" ? "OK" : "DEGRADED";
  const reasons = [...checks.filter((c) => c.status === "FAIL"), ...checks.filter((c) => c.status === "WARN")];
  return { status, verdict, checks: [...checks], reasons };
}

/** `gateway FAIL: healthz did not answer; ready FAIL: the gateway is down` (for the CLI and logs). */
export function describeReasons(reasons: readonly Pick<HealthCheck, "name" | "status" | "message">[]): string {
  return reasons.map((c) => `${c.name} ${c.status}${c.message ? `: ${c.message}` : ""}`).join("; ");
}
