// Gemini CLI's discovery for the data side (shared/providers/discovery.ts).
import type { ProviderDiscovery } from "../discovery.js";
import { discoverGeminiInstalls, geminiLookedAt } from "./discover.js";
import { GeminiCliProvider } from "./provider.js";

export const geminiCliDiscovery: ProviderDiscovery = {
  lookedAt: (ctx) => geminiLookedAt(ctx),
  hasData: (ctx) => discoverGeminiInstalls(ctx).installs.length > 0,
  create: (ctx, pricer) => new GeminiCliProvider({ ...ctx, pricer }),
  // The demo bundle has no Gemini CLI recording yet (its writer is built in demo/).
  demo: () => null,
};
