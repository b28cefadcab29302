// AlertInputs over the read model and the store: what rules measure, each figure read at most
// once per evaluation and only when a rule asks for it.
import type { AlertInputs, CheckInfo, RateLimitInfo, SessionInfo, SourceInfo } from "../../shared/alerts/measure.js";
import { queryEventCountWindow, queryUsageWindow } from "../../shared/queries/alert-metrics.js";
import { isGatewaySystem, type AnySystemView, type ReadModel } from "../../shared/queries/read-model.js";
import { GATEWAY_PROVIDER, hasCapability } from "../../shared/providers/registry.js";
import type { Store } from "../../shared/store/store.js";

function once<T>(fn: () => T): () => T {
  let done = false;
  let value: T;
  return () => {
    if (!done) {
      value = fn();
      done = true;
    }
    return value;
  };
}

/** Shared checks (disk, store) belong to no provider. */
const SHARED = new Set(["disk", "store"]);

export function readModelInputs(model: ReadModel, store: Store, o: { now: number; timeZone: string; rawDays: number }): AlertInputs {
  const systems = once((): AnySystemView[] => model.systems());
  return {
    now: o.now,
    timeZone: o.timeZone,
    sources: once((): SourceInfo[] => model.agents().map((a) => ({ id: a.id, provider: a.provider }))),
    usage: (a) => queryUsageWindow(store, { ...a, now: o.now, rawDays: o.rawDays }),
    eventCount: (a) => queryEventCountWindow(store, a),
    sessions: (sourceIds) => {
      const out: SessionInfo[] = [];
      for (const id of sourceIds) {
        let list;
        try {
          list = model.sessions(id, { activeOnly: true, grouped: false, limit: 1000 });
        } catch {
          continue; // a source that went away meanwhile
        }
        const provider = model.agents().find((a) => a.id === id)?.provider ?? "";
        for (const s of list) out.push({ sourceId: id, provider, key: s.key, displayName: s.displayName, model: s.model, usagePercent: s.usagePercent });
      }
      return out;
    },
    gatewayState: once(() => {
      const sys = systems().find(isGatewaySystem);
      return sys ? sys.gateway.state : null;
    }),
    checks: once((): CheckInfo[] =>
      model.overallHealth(systems()).checks.map((c) => {
        const slash = c.name.indexOf("/");
        // Unprefixed checks that are not shared are the gateway system's (ReadModel.overallHealth).
        return { name: c.name, provider: slash > 0 ? c.name.slice(0, slash) : SHARED.has(c.name) ? "insights" : (GATEWAY_PROVIDER ?? "insights"), status: c.status, message: c.message, pending: c.pending === true };
      }),
    ),
    rateLimits: once((): RateLimitInfo[] => {
      return systems().flatMap((s) => (!isGatewaySystem(s) && hasCapability(s.provider, "rateLimits") ? s.rateLimits.map((l) => ({ source: l.source, limitId: l.limitId, primary: l.primary, secondary: l.secondary, stale: l.stale })) : []));
    }),
  };
}
