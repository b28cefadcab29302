// OpenClaw's identity and capabilities (shared/providers/identity.ts): the agent gateway.
import type { ProviderIdentity } from "../identity.js";

export const openclawIdentity = {
  name: "openclaw",
  enumValue: "PROVIDER_A",
  systemType: "ProviderASystem",
  sourcePrefix: "agent:",
  displayName: "OpenClaw",
  dirLabel: "OpenClaw state",
  colors: { card: { dark: "#4493f8", light: "#0969da" }, web: { dark: "#9b9cf8", light: "#5b5bd6" } },
  cssKey: "prov-a",
  config: { mode: "openclaw", dirs: "openclawDir" },
  capabilities: { gateway: true, rateLimits: false, projects: false, usageBlocks: false },
} as const satisfies ProviderIdentity;
