// The node side of every registered provider, found from the registry alone: each provider's
// folder has a `module.ts` exporting `providerModule` (its data side, or with an agent gateway its
// gateway capability), loaded here by that convention. So registering a provider is its one line
// in registry.ts, which stays free of Node modules for the dashboard; this file names no provider.
// Each module.ts also declares itself in ProviderModules below, so the compiler names a registered
// provider whose folder has none.
import type { ProviderDemo } from "./demo-contract.js";
import type { ProviderDiscovery } from "./discovery.js";
import type { GatewayCapability } from "./gateway-contract.js";
import { GATEWAY_PROVIDER, hasCapability, PROVIDER_NAMES, type ProviderName, type ProviderWith, type ProviderWithout } from "./registry.js";

/**
 * What `shared/providers/<name>/module.ts` exports as `providerModule`, by the provider's
 * capabilities; with a bundled demo, its `demo` too (shared/providers/demo-contract.ts).
 */
export type ProviderModule<N extends ProviderName> = (N extends ProviderWith<"gateway"> ? { readonly gateway: GatewayCapability } : { readonly discovery: ProviderDiscovery }) & { readonly demo?: ProviderDemo };

/** A module as loaded, before its capabilities are checked. */
interface LoadedModule {
  gateway?: GatewayCapability;
  discovery?: ProviderDiscovery;
  demo?: ProviderDemo;
}

/**
 * Every provider's module, by name: each module.ts adds its own line with
 * `declare module "../modules.js" { interface ProviderModules { [xIdentity.name]: typeof providerModule } }`.
 * Empty here on purpose: declaration merging fills it.
 */
export interface ProviderModules {}

type Unloaded = Exclude<ProviderName, keyof ProviderModules>;
/** Compiles only when every registered provider's folder declares its module.ts (the error names the ones missing). */
const everyProviderHasAModule: [Unloaded] extends [never] ? true : `no shared/providers/${Unloaded}/module.ts` = true;
void everyProviderHasAModule;

async function load(name: ProviderName): Promise<LoadedModule> {
  // The folder is the provider's name (test/provider-names.test.ts and the architecture test assume it too).
  const exported = ((await import(`./${name}/module.js`)) as { providerModule?: LoadedModule }).providerModule;
  const side = hasCapability(name, "gateway") ? exported?.gateway : exported?.discovery;
  if (!side) throw new Error(`shared/providers/${name}/module.ts exports no providerModule with its ${hasCapability(name, "gateway") ? "gateway" : "discovery"}`);
  return exported ?? {};
}

// Once, when the daemon or a command first opens the data side: the same modules the static
// imports this replaces loaded, in the registry's order.
const LOADED = new Map(await Promise.all(PROVIDER_NAMES.map(async (name) => [name, await load(name)] as const)));

function sides<N extends ProviderName, T>(names: readonly N[], pick: (m: LoadedModule) => T | undefined): Record<N, T> {
  // load() checked each one has the side its capabilities call for, so none is undefined.
  return Object.fromEntries(names.map((n) => [n, pick(LOADED.get(n) ?? {})])) as Record<N, T>;
}

/** The data side of the CLI providers (shared/providers/discovery.ts). */
export const CLI_DISCOVERY: Record<ProviderWithout<"gateway">, ProviderDiscovery> = sides(
  PROVIDER_NAMES.filter((n): n is ProviderWithout<"gateway"> => !hasCapability(n, "gateway")),
  (m) => m.discovery,
);

/** The gateway side of those with an agent gateway (shared/providers/gateway-contract.ts). */
export const GATEWAY_CAPABILITIES: Record<ProviderWith<"gateway">, GatewayCapability> = sides(
  PROVIDER_NAMES.filter((n): n is ProviderWith<"gateway"> => hasCapability(n, "gateway")),
  (m) => m.gateway,
);

/** The gateway side the daemon watches (one per daemon: the registry's GATEWAY_PROVIDER's); null when no provider has one. */
export const GATEWAY: GatewayCapability | null = GATEWAY_PROVIDER ? GATEWAY_CAPABILITIES[GATEWAY_PROVIDER] : null;

/** The providers that bring a demo, in the registry's order (the demo engine, shared/demo-replay/, runs these). */
export const DEMOS: ReadonlyArray<{ readonly provider: ProviderName; readonly demo: ProviderDemo }> = PROVIDER_NAMES.flatMap((provider) => {
  const demo = LOADED.get(provider)?.demo;
  return demo ? [{ provider, demo }] : [];
});
