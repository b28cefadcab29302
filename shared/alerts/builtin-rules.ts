// The built-in alert rules, apart from rules.ts so that what only needs their ids and names (a
// render worker drawing the card's alert rows) does not load zod and the rule schemas with them:
// ~50 ms of CPU and ~5 MB of heap in every worker that starts.
import type { AlertRuleInput } from "./rules.js";

/**
 * The rules shipped on. Budgets are off (no amount, so no threshold) until a user sets one; not
 * `enabled: false`, which a budget given later would not undo.
 */
export const BUILTIN_RULES: readonly AlertRuleInput[] = [
  { id: "gateway-down", name: "OpenClaw gateway down", metric: "gateway_down", critical: 120 },
  { id: "health-check-failing", name: "A health check is failing", metric: "health_check", critical: 300 },
  { id: "rate-limit", name: "Rate-limit window almost used", metric: "rate_limit", warning: 80, critical: 100 },
  { id: "rate-limit-projection", name: "Rate-limit projected full before reset", metric: "rate_limit_projection", warning: 100 },
  { id: "daily-cost", name: "Daily cost budget", metric: "cost", window: "day" },
];
