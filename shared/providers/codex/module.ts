// Codex's discovery for the data side (shared/providers/discovery.ts) and its demo (demo/demo.ts), the
// `providerModule` shared/providers/modules.ts loads for it.
import { demoConfigDir } from "../demo-kit/home-demo.js";
import type { ProviderDiscovery } from "../discovery.js";
import type { ProviderModule } from "../modules.js";
import { codexLookedAt, discoverCodexInstalls } from "./discover.js";
import { codexIdentity } from "./identity.js";
import { codexDemo } from "./demo/demo.js";
import { CodexProvider } from "./provider.js";

export const codexDiscovery: ProviderDiscovery = {
  lookedAt: (ctx) => codexLookedAt(ctx),
  hasData: (ctx) => discoverCodexInstalls(ctx).installs.length > 0,
  create: (ctx, pricer) => new CodexProvider({ ...ctx, pricer }),
  demo: (copy, pricer) => new CodexProvider({ env: {}, home: copy.dir, dirs: [demoConfigDir(copy, ".codex")], pricer }),
};

export const providerModule = { discovery: codexDiscovery, demo: codexDemo } satisfies ProviderModule<typeof codexIdentity.name>;

declare module "../modules.js" {
  interface ProviderModules {
    [codexIdentity.name]: typeof providerModule;
  }
}
