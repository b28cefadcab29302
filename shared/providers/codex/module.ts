// Codex's discovery for the data side (shared/providers/discovery.ts).
import { join } from "node:path";
import type { ProviderDiscovery } from "../discovery.js";
import { codexLookedAt, discoverCodexInstalls } from "./discover.js";
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
