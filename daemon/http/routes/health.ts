// GET /health: no auth, always 200 while the process serves (spec), nothing secret (design §2).
import type { LookedAt } from "../../../shared/providers/looked-at.js";
import type { RouteHandler } from "../server.js";
import { sendJson } from "../server.js";

export interface HealthBody {
  /** The health verdict (shared/queries/health.ts), lower-cased: the same as GraphQL `system.health.verdict`. */
  status: "starting" | "ok" | "degraded" | "unhealthy";
  version: string;
  uptimeSeconds: number;
  demo: boolean;
  /** GraphQL `system.gateway.state`, lower-cased; `none` when OpenClaw is not read. */
  gateway: "up" | "down" | "demo" | "unknown" | "none";
  /** The providers read: `openclaw`, `claude-code`, `codex`. */
  providers: string[];
  store: "ok" | "error";
  /**
   * The store's file was deleted or replaced while the daemon ran (shown for a day after): what
   * became of it. No path here (this route needs no token); GraphQL's store check has the details.
   */
  storeIncident?: { kind: "deleted" | "replaced"; state: "recovering" | "recovered" | "recreated-empty" | "failed"; noticedAt: string; lost: boolean };
  /** Every dir each provider (not off) looks at for its data, and what is there now (no reading, a stat each). */
  lookedAt: LookedAt[];
}

export function healthRoute(getHealth: () => HealthBody): RouteHandler {
  return (_req, res) => sendJson(res, 200, getHealth());
}
