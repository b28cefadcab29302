// Codex's identity and capabilities (shared/providers/identity.ts): it records the plan's rate limits.
import { modeOption, type ProviderIdentity } from "../identity.js";

export const codexIdentity = {
  name: "codex",
  enumValue: "PROVIDER_C",
  systemType: "ProviderCSystem",
  sourcePrefix: "codex:",
  displayName: "Codex",
  dirLabel: "Codex home",
  colors: { card: { dark: "#a371f7", light: "#8250df" }, web: { dark: "#4cc4ea", light: "#0b7fa8" } },
  cssKey: "prov-c",
  options: {
    codex: modeOption("INSIGHTS_CODEX", "Read Codex: auto (when its home exists), on, off"),
    codexDirs: { kind: { type: "paths", nullable: true }, default: null, env: "INSIGHTS_CODEX_DIRS", reloadable: false, help: "Codex homes; default $CODEX_HOME or ~/.codex" },
  },
  config: { mode: "codex", dirs: "codexDirs" },
  capabilities: { gateway: false, rateLimits: true, projects: true, usageBlocks: false },
  rateLimitsFrom: "transcripts",
} as const satisfies ProviderIdentity;
