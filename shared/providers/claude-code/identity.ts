// Claude Code's identity and capabilities (shared/providers/identity.ts): its plan windows come from the status line (daemon/statusline).
import type { ProviderIdentity } from "../identity.js";

export const claudeCodeIdentity = {
  name: "claude-code",
  enumValue: "PROVIDER_B",
  systemType: "ProviderBSystem",
  sourcePrefix: "claude-code:",
  displayName: "Claude Code",
  dirLabel: "Claude Code config",
  colors: { card: { dark: "#e0825f", light: "#c15f3c" }, web: { dark: "#ec9a6c", light: "#c4622d" } },
  cssKey: "prov-b",
  config: { mode: "claudeCode", dirs: "claudeCodeDirs" },
  capabilities: { gateway: false, rateLimits: true, projects: true, usageBlocks: true },
  rateLimitsFrom: "statusLine",
} as const satisfies ProviderIdentity;
