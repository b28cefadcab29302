// OpenClaw's identity and capabilities (shared/providers/identity.ts): the agent gateway.
import { modeOption, type ProviderIdentity } from "../identity.js";

export const openclawIdentity = {
  name: "openclaw",
  enumValue: "PROVIDER_A",
  systemType: "ProviderASystem",
  sourcePrefix: "agent:",
  displayName: "OpenClaw",
  dirLabel: "OpenClaw state",
  colors: { card: { dark: "#4493f8", light: "#0969da" }, web: { dark: "#9b9cf8", light: "#5b5bd6" } },
  cssKey: "prov-a",
  options: {
    openclawDir: { kind: { type: "path", nullable: true }, default: null, env: "INSIGHTS_OPENCLAW_DIR", reloadable: false, help: "OpenClaw state dir; default $OPENCLAW_STATE_DIR or ~/.openclaw, the bundled demo when absent" },
    openclaw: modeOption("INSIGHTS_OPENCLAW", "Read OpenClaw: auto (when its state dir exists), on, off"),
    openclawCommand: { kind: { type: "string", minLength: 1 }, default: "openclaw", env: "INSIGHTS_OPENCLAW_COMMAND", reloadable: true, help: "The openclaw CLI used for gateway restart, update and channel fallback (a name on PATH or a path)" },
  },
  config: { mode: "openclaw", dirs: "openclawDir" },
  capabilities: { gateway: true, rateLimits: false, projects: false, usageBlocks: false },
} as const satisfies ProviderIdentity;
