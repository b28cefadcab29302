// shared/providers/modules.ts loads each registered provider's node side from its own folder's
// module.ts: the maps hold exactly what those files export, keyed by the registry's names.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { CLI_DISCOVERY, GATEWAY, GATEWAY_CAPABILITIES } from "./modules.js";
import { GATEWAY_PROVIDER, PROVIDER_NAMES, providersWith, providersWithout } from "./registry.js";

type Exported = { providerModule: { discovery?: unknown; gateway?: unknown } };

test("every registered provider's module.ts is what the maps hold, by its capability", async () => {
  assert.equal(Object.keys(CLI_DISCOVERY), providersWithout("gateway"));
  assert.equal(Object.keys(GATEWAY_CAPABILITIES), providersWith("gateway"));
  for (const name of PROVIDER_NAMES) {
    const { providerModule } = (await import(`./${name}/module.js`)) as Exported;
    const held: unknown = (CLI_DISCOVERY as Record<string, unknown>)[name] ?? (GATEWAY_CAPABILITIES as Record<string, unknown>)[name];
    assert.ok(held !== undefined, name);
    assert.is(held, providerModule.discovery ?? providerModule.gateway, name);
  }
  assert.is(GATEWAY, GATEWAY_PROVIDER ? GATEWAY_CAPABILITIES[GATEWAY_PROVIDER] : null);
});

test.run();
