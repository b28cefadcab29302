// The per-operation GraphQL context: the read model and the daemon services resolvers may use,
// and who is asking (for the audit log of mutations).
import type { Logger } from "../../shared/base/log/logger.js";
import type { ReadModel } from "../../shared/queries/read-model.js";
import type { AuthKind } from "../auth/authenticate.js";
import type { GatewayOperations } from "../operations/gateway-operations.js";
import type { LiveEvents } from "../live/live-events.js";
import type { AlertService } from "../alerts/alert-service.js";

// A type alias, not an interface: graphql-sse wants a context assignable to Record<PropertyKey, unknown>.
export type GraphQLContext = {
  model: ReadModel;
  live: LiveEvents;
  alerts: AlertService;
  operations: GatewayOperations;
  logger: Logger;
  /** Who asked: the credential kind and the peer address. */
  caller: { auth: AuthKind; peer: string };
  /** Adds fields to this request's access-log line (the QueryContext trace id). */
  annotate(fields: Record<string, unknown>): void;
};
