// Turns a rule into the values it watches, from what the read model knows (passed in as
// AlertInputs, so this stays pure and testable): one sample per instance. Held conditions (the
// gateway down, a check failing) are timed by HeldConditions, which remembers when each began.
import type { ModelUsage } from "../queries/alert-metrics.js";
import { subLimitField } from "../providers/contract.js";
import { hasCapability, isProviderName } from "../providers/registry.js";
import { METRIC_INFO, type AlertRule } from "./rules.js";
import type { Sample } from "./evaluate.js";
import { localTime, project, windowRange } from "./windows.js";

export interface SourceInfo {
  id: string;
  provider: string;
}

export interface SessionInfo {
  sourceId: string;
  provider: string;
  key: string;
  displayName: string;
  model: string | null;
  usagePercent: number | null;
}

export interface CheckInfo {
  /** As the overall health names it: OpenClaw's plain (`gateway`), others `<provider>/<check>`. */
  name: string;
  provider: string;
  status: "PASS" | "WARN" | "FAIL";
  message: string | null;
  /** No first reading yet (the daemon is starting). */
  pending: boolean;
}

/** A window's projection as the alert reads it (shared/queries/rate-limit-projection.ts). */
export interface WindowProjectionInfo {
  status: string;
  burnPercentPerHour: number | null;
  fullAt: number | null;
  resetsAt: number | null;
  usedPercentAtReset: number | null;
}

export interface RateLimitInfo {
  source: string;
  limitId: string | null;
  primary: { usedPercent: number; projection?: WindowProjectionInfo } | null;
  secondary: { usedPercent: number; projection?: WindowProjectionInfo } | null;
  stale: boolean;
}

/** What rules read; the daemon builds it over the read model. Each is asked only when a rule needs it. */
export interface AlertInputs {
  now: number;
  timeZone: string;
  sources(): SourceInfo[];
  usage(a: { from: number; to: number; sourceIds: readonly string[] | null; project: string | null }): ModelUsage[];
  eventCount(a: { type: "error" | "warning"; from: number; to: number; provider: string | null; sourceId: string | null }): number;
  /** Active sessions (with their context use). */
  sessions(sourceIds: readonly string[]): SessionInfo[];
  /** OpenClaw's gateway: UP, DOWN, UNKNOWN or DEMO; null when OpenClaw is not read. */
  gatewayState(): "UP" | "DOWN" | "UNKNOWN" | "DEMO" | null;
  checks(): CheckInfo[];
  rateLimits(): RateLimitInfo[];
}

/** Checks that only repeat that the gateway is down; while it is, the gateway-down rule speaks for them. */
/**
 * "weekly window of codex:default (codex)"; a per-model weekly window is named by its own field:
 * "seven_day_opus window of claude-code:default (claude:seven_day_opus)", never as the plan's weekly one.
 */
function limitLabel(l: { source: string; limitId: string | null }, windowWord: string): string {
  const field = subLimitField(l.limitId);
  return `${field ?? windowWord} window of ${l.source}${l.limitId ? ` (${l.limitId})` : ""}`;
}

const GATEWAY_CHECKS = new Set(["gateway", "ready", "event-loop", "channels"]);

/** When each held condition began; conditions not seen in an update are forgotten. */
export class HeldConditions {
  private readonly since = new Map<string, number>();

  /** `unsure`: keys nothing is known about now (no reading yet); they are left as they were. */
  update(now: number, holding: Iterable<string>, unsure: (key: string) => boolean = () => false): void {
    const seen = new Set(holding);
    for (const k of [...this.since.keys()]) if (!seen.has(k) && !unsure(k)) this.since.delete(k);
    for (const k of seen) if (!this.since.has(k)) this.since.set(k, now);
  }

  /** A condition known to have begun at `since` (restored after a restart); kept only if it still holds at the next update. */
  seed(key: string, since: number): void {
    const s = this.since.get(key);
    if (s === undefined || since < s) this.since.set(key, since);
  }

  /** Seconds the condition has held, or null when it does not hold. */
  heldSeconds(key: string, now: number): number | null {
    const s = this.since.get(key);
    return s === undefined ? null : Math.max(0, (now - s) / 1000);
  }
}

/**
 * The keys of every condition that holds now, and which ones nothing is known about (for
 * HeldConditions.update): before the first probe the gateway is neither up nor down, and while any
 * check waits for its first reading (the daemon starting) the checks are not judged.
 */
export function holdingConditions(inputs: AlertInputs): { holding: string[]; unsure: (key: string) => boolean } {
  const holding: string[] = [];
  const gw = inputs.gatewayState();
  if (gw === "DOWN") holding.push("gateway");
  const checks = inputs.checks();
  const starting = checksStarting(checks);
  for (const c of checks) if (c.status === "FAIL") holding.push(`check:${c.name}`);
  return { holding, unsure: (key) => (key === "gateway" ? gw === "UNKNOWN" : key.startsWith("check:") && starting) };
}

const checksStarting = (checks: readonly CheckInfo[]): boolean => checks.some((c) => c.pending) && !checks.some((c) => c.status === "FAIL" && !c.pending);

/**
 * What a rule measures now, one sample per instance; null when it cannot be told now (no reading
 * yet): the evaluator then leaves the rule's alerts as they are rather than resolving them.
 */
export function measure(rule: AlertRule, inputs: AlertInputs, held: HeldConditions): Sample[] | null {
  if (rule.metric === "gateway_down" && inputs.gatewayState() === "UNKNOWN") return null;
  if (rule.metric === "health_check" && checksStarting(inputs.checks())) return null;
  return measureNow(rule, inputs, held);
}

function scopedSources(rule: AlertRule, inputs: AlertInputs): string[] | null {
  const { provider, source } = rule.scope;
  if (source !== undefined) return [source];
  if (provider !== undefined) return inputs.sources().filter((s) => s.provider === provider).map((s) => s.id);
  return null;
}

function measureNow(rule: AlertRule, inputs: AlertInputs, held: HeldConditions): Sample[] {
  const now = inputs.now;
  const info = METRIC_INFO[rule.metric];
  switch (rule.metric) {
    case "cost":
    case "tokens":
    case "unpriced": {
      const range = windowRange(rule.window ?? "day", now, inputs.timeZone);
      const sourceIds = scopedSources(rule, inputs);
      if (sourceIds !== null && sourceIds.length === 0) return [];
      const rows = inputs.usage({ from: range.start, to: now + 1, sourceIds, project: rule.scope.project ?? null }).filter((r) => rule.scope.model === undefined || r.model === rule.scope.model);
      if (rule.metric === "unpriced") return rows.filter((r) => r.unpriced > 0).map((r) => ({ subject: r.model, label: `model ${r.model}`, value: r.unpriced }));
      const value = rows.reduce((a, r) => a + (rule.metric === "cost" ? r.costUsd : r.tokens), 0);
      const target = rule.budget ?? rule.critical;
      return [{ subject: "", label: rule.name, value, projection: info.budget ? project(value, target, range, now, inputs.timeZone) : null }];
    }
    case "errors":
    case "warnings": {
      const range = windowRange(rule.window ?? "hour", now, inputs.timeZone);
      const value = inputs.eventCount({ type: rule.metric === "errors" ? "error" : "warning", from: range.start, to: now + 1, provider: rule.scope.provider ?? null, sourceId: rule.scope.source ?? null });
      return [{ subject: "", label: rule.name, value }];
    }
    case "context": {
      const sourceIds = scopedSources(rule, inputs) ?? inputs.sources().map((s) => s.id);
      return inputs
        .sessions(sourceIds)
        .filter((s) => s.usagePercent !== null && (rule.scope.model === undefined || s.model === rule.scope.model))
        .map((s) => ({ subject: `${s.sourceId}/${s.key}`, label: `session ${s.displayName} (${s.sourceId})`, value: s.usagePercent as number }));
    }
    case "gateway_down": {
      const secs = held.heldSeconds("gateway", now);
      return secs === null ? [] : [{ subject: "", label: "OpenClaw gateway", value: secs }];
    }
    case "health_check": {
      const down = inputs.gatewayState() === "DOWN";
      const out: Sample[] = [];
      for (const c of inputs.checks()) {
        if (c.status !== "FAIL") continue;
        if (rule.check !== null ? c.name !== rule.check : (down && isProviderName(c.provider) && hasCapability(c.provider, "gateway") && GATEWAY_CHECKS.has(c.name)) || c.name.endsWith("rate-limit")) continue;
        if (rule.scope.provider !== undefined && c.provider !== rule.scope.provider) continue;
        const secs = held.heldSeconds(`check:${c.name}`, now);
        if (secs !== null) out.push({ subject: c.name, label: `check ${c.name}${c.message ? `: ${c.message}` : ""}`, value: secs });
      }
      return out;
    }
    case "rate_limit": {
      const out: Sample[] = [];
      for (const l of inputs.rateLimits()) {
        if (l.stale || (rule.scope.source !== undefined && l.source !== rule.scope.source)) continue;
        for (const w of ["primary", "secondary"] as const) {
          const win = l[w];
          if (!win || (rule.window !== null && rule.window !== w)) continue;
          const name = `${l.source}/${l.limitId ?? "default"}/${w}`;
          out.push({ subject: name, label: limitLabel(l, w === "primary" ? "5 h" : "weekly"), value: win.usedPercent });
        }
      }
      return out;
    }
    case "rate_limit_projection": {
      // The value is the used % the window reaches by its reset; a window already full is the
      // rate_limit rule's, one with no projection (too few readings, not rising) measures nothing.
      const out: Sample[] = [];
      for (const l of inputs.rateLimits()) {
        if (l.stale || (rule.scope.source !== undefined && l.source !== rule.scope.source)) continue;
        for (const w of ["primary", "secondary"] as const) {
          const p = l[w]?.projection;
          if (!p || p.status !== "PROJECTED" || p.usedPercentAtReset === null || p.fullAt === null || p.resetsAt === null || (rule.window !== null && rule.window !== w)) continue;
          out.push({
            subject: `${l.source}/${l.limitId ?? "default"}/${w}`,
            label: limitLabel(l, w === "primary" ? "5-hour" : "weekly"),
            value: p.usedPercentAtReset,
            projection: {
              ratePerHour: p.burnPercentPerHour ?? 0,
              projectedTotal: p.usedPercentAtReset,
              target: 100,
              reachesAt: p.fullAt,
              reachesAtLocal: localTime(p.fullAt, now, inputs.timeZone),
              windowEnd: p.resetsAt,
            },
          });
        }
      }
      return out;
    }
  }
}
