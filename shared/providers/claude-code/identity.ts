// Claude Code's identity and capabilities (shared/providers/identity.ts): its plan windows come from the status line (daemon/statusline).
import { modeOption, type ProviderIdentity } from "../identity.js";

export const claudeCodeIdentity = {
  name: "claude-code",
  enumValue: "PROVIDER_B",
  systemType: "ProviderBSystem",
  sourcePrefix: "claude-code:",
  displayName: "Claude Code",
  dirLabel: "Claude Code config",
  colors: { card: { dark: "#e0825f", light: "#c15f3c" }, web: { dark: "#ec9a6c", light: "#c4622d" } },
  cssKey: "prov-b",
  options: {
    claudeCode: modeOption("INSIGHTS_CLAUDE_CODE", "Read Claude Code: auto (when a config dir with projects exists), on, off"),
    claudeCodeDirs: { kind: { type: "paths", nullable: true }, default: null, env: "INSIGHTS_CLAUDE_CODE_DIRS", reloadable: false, help: "Claude Code config dirs; default $CLAUDE_CONFIG_DIR (a comma-separated list) or ~/.claude and ~/.config/claude" },
  },
  config: { mode: "claudeCode", dirs: "claudeCodeDirs" },
  capabilities: { gateway: false, rateLimits: true, projects: true, usageBlocks: true },
  rateLimitsFrom: "statusLine",
} as const satisfies ProviderIdentity;
