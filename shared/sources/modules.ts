// The data side of each registered CLI provider (shared/sources/discovery.ts), keyed by name: a
// Record the compiler checks names every provider without a gateway.
import { claudeCodeIdentity } from "./claude-code/identity.js";
import { claudeCodeDiscovery } from "./claude-code/module.js";
import { codexIdentity } from "./codex/identity.js";
import { codexDiscovery } from "./codex/module.js";
import type { ProviderDiscovery } from "./discovery.js";
import type { ProviderWithout } from "./registry.js";

export const CLI_DISCOVERY: Record<ProviderWithout<"gateway">, ProviderDiscovery> = {
  [claudeCodeIdentity.name]: claudeCodeDiscovery,
  [codexIdentity.name]: codexDiscovery,
};
