// GET /health: no auth, always 200 while the process serves (spec), nothing secret (design §2).
import type { RouteHandler } from "../server.js";
import { sendJson } from "../server.js";

export interface HealthBody {
  status: "ok" | "degraded" | "starting";
  version: string;
  uptimeSeconds: number;
  demo: boolean;
  gateway: "up" | "down";
  store: "ok" | "error";
}

export function healthRoute(getHealth: () => HealthBody): RouteHandler {
  return (_req, res) => sendJson(res, 200, getHealth());
}
