// Gemini CLI's identity and capabilities (shared/providers/identity.ts): sessions name their
// project's directory (through its project registry); no gateway, no plan quota in its files.
import { modeOption, type ProviderIdentity } from "../identity.js";

export const geminiCliIdentity = {
  name: "gemini-cli",
  enumValue: "PROVIDER_D",
  systemType: "ProviderDSystem",
  sourcePrefix: "gemini-cli:",
  displayName: "Gemini CLI",
  dirLabel: "Gemini CLI",
  colors: { card: { dark: "#3fb950", light: "#1a7f37" }, web: { dark: "#5fd38a", light: "#1f8a4c" } },
  cssKey: "prov-d",
  options: {
    geminiCli: modeOption("INSIGHTS_GEMINI_CLI", "Read Gemini CLI: auto (when its dir has sessions), on, off"),
    geminiCliDirs: { kind: { type: "paths", nullable: true }, default: null, env: "INSIGHTS_GEMINI_CLI_DIRS", reloadable: false, help: "Gemini CLI dirs (.gemini); default $GEMINI_CLI_HOME/.gemini or ~/.gemini" },
  },
  config: { mode: "geminiCli", dirs: "geminiCliDirs" },
  capabilities: { gateway: false, rateLimits: false, projects: true, usageBlocks: false },
} as const satisfies ProviderIdentity;
