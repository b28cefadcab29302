// Codex's identity and capabilities (shared/providers/identity.ts): it records the plan's rate limits.
import type { ProviderIdentity } from "../identity.js";

export const codexIdentity = {
  name: "codex",
  enumValue: "PROVIDER_C",
  systemType: "ProviderCSystem",
  sourcePrefix: "codex:",
  displayName: "Codex",
  dirLabel: "Codex home",
  colors: { card: { dark: "#a371f7", light: "#8250df" }, web: { dark: "#4cc4ea", light: "#0b7fa8" } },
  cssKey: "prov-c",
  config: { mode: "codex", dirs: "codexDirs" },
  capabilities: { gateway: false, rateLimits: true, projects: true, usageBlocks: false },
  rateLimitsFrom: "transcripts",
} as const satisfies ProviderIdentity;
