// What each registered provider module declares beyond its identity, keyed by name: Records the
// compiler checks name every provider with (or without) a gateway. The data side of the CLI
// providers (shared/providers/discovery.ts), and the gateway side of those with an agent gateway
// (shared/providers/gateway-contract.ts).
import { claudeCodeIdentity } from "./claude-code/identity.js";
import { claudeCodeDiscovery } from "./claude-code/module.js";
import { codexIdentity } from "./codex/identity.js";
import { codexDiscovery } from "./codex/module.js";
import type { ProviderDiscovery } from "./discovery.js";
import { geminiCliIdentity } from "./gemini-cli/identity.js";
import { geminiCliDiscovery } from "./gemini-cli/module.js";
import type { GatewayCapability } from "./gateway-contract.js";
import { openclawGateway } from "./openclaw/gateway-side.js";
import { openclawIdentity } from "./openclaw/identity.js";
import { GATEWAY_PROVIDER, type ProviderWith, type ProviderWithout } from "./registry.js";

export const CLI_DISCOVERY: Record<ProviderWithout<"gateway">, ProviderDiscovery> = {
  [claudeCodeIdentity.name]: claudeCodeDiscovery,
  [codexIdentity.name]: codexDiscovery,
  [geminiCliIdentity.name]: geminiCliDiscovery,
};

export const GATEWAY_CAPABILITIES: Record<ProviderWith<"gateway">, GatewayCapability> = {
  [openclawIdentity.name]: openclawGateway,
};

/** The gateway side the daemon watches (one per daemon: the registry's GATEWAY_PROVIDER's); null when no provider has one. */
export const GATEWAY: GatewayCapability | null = GATEWAY_PROVIDER ? GATEWAY_CAPABILITIES[GATEWAY_PROVIDER] : null;
