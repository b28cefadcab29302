// Claude Code's discovery for the data side (shared/providers/discovery.ts), the
// `providerModule` shared/providers/modules.ts loads for it.
import { join } from "node:path";
import type { ProviderDiscovery } from "../discovery.js";
import type { ProviderModule } from "../modules.js";
import { claudeCodeLookedAt, discoverClaudeCodeInstalls } from "./discover.js";
import { claudeCodeIdentity } from "./identity.js";
import { ClaudeCodeProvider } from "./provider.js";

export const claudeCodeDiscovery: ProviderDiscovery = {
  lookedAt: (ctx) => claudeCodeLookedAt(ctx),
  hasData: (ctx) => discoverClaudeCodeInstalls(ctx).installs.length > 0,
  create: (ctx, pricer) => new ClaudeCodeProvider({ ...ctx, pricer }),
  demo: (installed, pricer) => {
    const rec = installed.manifest.claudeCode;
    const home = installed.claudeCodeHome;
    return rec && home ? new ClaudeCodeProvider({ env: {}, home, dirs: [join(home, rec.configDir)], pricer }) : null;
  },
};

export const providerModule = { discovery: claudeCodeDiscovery } satisfies ProviderModule<typeof claudeCodeIdentity.name>;

declare module "../modules.js" {
  interface ProviderModules {
    [claudeCodeIdentity.name]: typeof providerModule;
  }
}
