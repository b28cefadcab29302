// Which shape a card block has, asked by its provider's capabilities (shared/providers/identity.ts).
// Apart from card-model.ts so the render worker, which draws blocks, never loads zod.
import { hasCapability } from "../providers/registry.js";
import type { CardBlock, CardRateLimitedBlock, CardOpenClawBlock } from "./card-model.js";

/** A block of a provider with an agent gateway (gateway, cron, channels, resources). */
export function isGatewayBlock(b: CardBlock): b is CardOpenClawBlock {
  return hasCapability(b.provider, "gateway");
}

/** A block with the plan's rate limits. */
export function isRateLimitedBlock(b: CardBlock): b is CardRateLimitedBlock {
  return hasCapability(b.provider, "rateLimits");
}
