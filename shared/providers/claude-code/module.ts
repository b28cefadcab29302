// Claude Code's discovery for the data side (shared/providers/discovery.ts) and its demo (demo/demo.ts), the
// `providerModule` shared/providers/modules.ts loads for it.
import { demoConfigDir } from "../demo-kit/home-demo.js";
import type { ProviderDiscovery } from "../discovery.js";
import type { ProviderModule } from "../modules.js";
import { claudeCodeLookedAt, discoverClaudeCodeInstalls } from "./discover.js";
import { claudeCodeIdentity } from "./identity.js";
import { claudeCodeDemo } from "./demo/demo.js";
import { ClaudeCodeProvider } from "./provider.js";

export const claudeCodeDiscovery: ProviderDiscovery = {
  lookedAt: (ctx) => claudeCodeLookedAt(ctx),
  hasData: (ctx) => discoverClaudeCodeInstalls(ctx).installs.length > 0,
  create: (ctx, pricer) => new ClaudeCodeProvider({ ...ctx, pricer }),
  demo: (copy, pricer) => new ClaudeCodeProvider({ env: {}, home: copy.dir, dirs: [demoConfigDir(copy, ".claude")], pricer }),
};

export const providerModule = { discovery: claudeCodeDiscovery, demo: claudeCodeDemo } satisfies ProviderModule<typeof claudeCodeIdentity.name>;

declare module "../modules.js" {
  interface ProviderModules {
    [claudeCodeIdentity.name]: typeof providerModule;
  }
}
