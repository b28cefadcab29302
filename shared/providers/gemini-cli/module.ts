// Gemini CLI's discovery for the data side (shared/providers/discovery.ts) and its demo (demo/demo.ts), the
// `providerModule` shared/providers/modules.ts loads for it.
import { demoConfigDir } from "../demo-kit/home-demo.js";
import type { ProviderDiscovery } from "../discovery.js";
import type { ProviderModule } from "../modules.js";
import { discoverGeminiInstalls, geminiLookedAt } from "./discover.js";
import { geminiCliIdentity } from "./identity.js";
import { geminiCliDemo } from "./demo/demo.js";
import { GeminiCliProvider } from "./provider.js";

export const geminiCliDiscovery: ProviderDiscovery = {
  lookedAt: (ctx) => geminiLookedAt(ctx),
  hasData: (ctx) => discoverGeminiInstalls(ctx).installs.length > 0,
  create: (ctx, pricer) => new GeminiCliProvider({ ...ctx, pricer }),
  demo: (copy, pricer) => new GeminiCliProvider({ env: {}, home: copy.dir, dirs: [demoConfigDir(copy, ".gemini")], pricer }),
};

export const providerModule = { discovery: geminiCliDiscovery, demo: geminiCliDemo } satisfies ProviderModule<typeof geminiCliIdentity.name>;

declare module "../modules.js" {
  interface ProviderModules {
    [geminiCliIdentity.name]: typeof providerModule;
  }
}
