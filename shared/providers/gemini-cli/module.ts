// Gemini CLI's discovery for the data side (shared/providers/discovery.ts), the
// `providerModule` shared/providers/modules.ts loads for it.
import { join } from "node:path";
import type { ProviderDiscovery } from "../discovery.js";
import type { ProviderModule } from "../modules.js";
import { discoverGeminiInstalls, geminiLookedAt } from "./discover.js";
import { geminiCliIdentity } from "./identity.js";
import { GeminiCliProvider } from "./provider.js";

export const geminiCliDiscovery: ProviderDiscovery = {
  lookedAt: (ctx) => geminiLookedAt(ctx),
  hasData: (ctx) => discoverGeminiInstalls(ctx).installs.length > 0,
  create: (ctx, pricer) => new GeminiCliProvider({ ...ctx, pricer }),
  demo: (installed, pricer) => {
    const rec = installed.manifest.geminiCli;
    const home = installed.geminiCliHome;
    return rec && home ? new GeminiCliProvider({ env: {}, home, dirs: [join(home, rec.configDir)], pricer }) : null;
  },
};

export const providerModule = { discovery: geminiCliDiscovery } satisfies ProviderModule<typeof geminiCliIdentity.name>;

declare module "../modules.js" {
  interface ProviderModules {
    [geminiCliIdentity.name]: typeof providerModule;
  }
}
