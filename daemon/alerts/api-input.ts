// How the alert API refuses input: a BAD_USER_INPUT that names the field, never its value (it may
// be a secret), and the one refusal for command channels. Shared by the rule and channel APIs.
import type { z } from "zod";
import { InsightsError } from "../../shared/base/errors.js";
import type { Clock } from "../../shared/base/clock.js";
import type { Logger } from "../../shared/base/log/logger.js";
import type { Caller } from "../../shared/alerts/views.js";
import type { AlertChangeFeed } from "./change-feed.js";
import type { AlertStore } from "./alert-store.js";
import type { AlertsInForce } from "./in-force.js";

/** What the rule and channel APIs work on; the service hands the same pieces to both. */
export interface AlertApiDeps {
  db: AlertStore;
  inForce: AlertsInForce;
  clock: Clock;
  logger: Logger;
  feed: AlertChangeFeed;
  /** Something changed that evaluation should see soon. */
  changed: () => void;
}

export const forbiddenCommand = (): InsightsError =>
  new InsightsError("FORBIDDEN_CHANNEL_TYPE", "channel.type: command channels come from config.json only (alerts.channels), never from the API; use a webhook, slack, discord or ntfy channel here");

export function badInput(message: string): InsightsError {
  return new InsightsError("BAD_USER_INPUT", message);
}

/** zod's first complaint as a BAD_USER_INPUT naming the field (never its value: it may be a secret). */
export function zodInput(err: z.ZodError, what: string): InsightsError {
  const i = err.issues[0]!; // a failed parse has an issue
  const path = i.code === "unrecognized_keys" ? [...i.path, i.keys[0] ?? "?"] : i.path;
  return badInput(`${what}${path.length ? `.${path.join(".")}` : ""}: ${i.code === "unrecognized_keys" ? "no such field" : i.message}`);
}

/** Who asked, as the audit log and the mute record name them. */
export function callerLabel(by: Caller): string {
  return `${by.auth}${by.peer ? ` from ${by.peer}` : ""}`;
}
