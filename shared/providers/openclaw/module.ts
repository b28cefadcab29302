// OpenClaw's node side: its agent gateway capability (shared/providers/gateway-contract.ts) and its
// demo (demo/demo.ts), the `providerModule` shared/providers/modules.ts loads for it.
import type { ProviderModule } from "../modules.js";
import { openclawDemo } from "./demo/demo.js";
import { openclawGateway } from "./gateway-side.js";
import { openclawIdentity } from "./identity.js";

export const providerModule = { gateway: openclawGateway, demo: openclawDemo } satisfies ProviderModule<typeof openclawIdentity.name>;

declare module "../modules.js" {
  interface ProviderModules {
    [openclawIdentity.name]: typeof providerModule;
  }
}
