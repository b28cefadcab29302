// The alerts firing now as the read model hands them to the status card: each active episode with
// its rule's window and mute. The daemon passes this to openData, so shared/ reads alert state
// without importing the daemon's alert service.
import type { ActiveAlertFigure } from "../../shared/queries/read-model.js";
import type { AlertService } from "./alert-service.js";

export function activeAlertFigures(service: AlertService, now: number): ActiveAlertFigure[] {
  const rules = new Map(service.ruleViews().map((r) => [r.id, r]));
  return service.activeAlerts().map((a) => {
    const rule = rules.get(a.ruleId);
    const mutedUntil = rule?.mutedUntil ?? null;
    const p = a.projection;
    return {
      ruleId: a.ruleId,
      ruleName: rule?.name ?? a.ruleName,
      subject: a.subject,
      label: a.label,
      metric: a.metric,
      unit: a.unit,
      severity: a.severity,
      value: a.value,
      threshold: a.threshold,
      window: rule?.window ?? null,
      since: a.since,
      mutedUntil: mutedUntil !== null && mutedUntil > now ? mutedUntil : null,
      projection: p ? { target: p.target, projectedTotal: p.projectedTotal, reachesAt: p.reachesAt, windowEnd: p.windowEnd } : null,
    };
  });
}
