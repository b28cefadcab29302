// Codex's discovery for the data side (shared/providers/discovery.ts), the
// `providerModule` shared/providers/modules.ts loads for it.
import { join } from "node:path";
import type { ProviderDiscovery } from "../discovery.js";
import type { ProviderModule } from "../modules.js";
import { codexLookedAt, discoverCodexInstalls } from "./discover.js";
import { codexIdentity } from "./identity.js";
import { CodexProvider } from "./provider.js";

export const codexDiscovery: ProviderDiscovery = {
  lookedAt: (ctx) => codexLookedAt(ctx),
  hasData: (ctx) => discoverCodexInstalls(ctx).installs.length > 0,
  create: (ctx, pricer) => new CodexProvider({ ...ctx, pricer }),
  demo: (installed, pricer) => {
    const rec = installed.manifest.codex;
    const home = installed.codexHome;
    return rec && home ? new CodexProvider({ env: {}, home, dirs: [join(home, rec.configDir)], pricer }) : null;
  },
};

export const providerModule = { discovery: codexDiscovery } satisfies ProviderModule<typeof codexIdentity.name>;

declare module "../modules.js" {
  interface ProviderModules {
    [codexIdentity.name]: typeof providerModule;
  }
}
