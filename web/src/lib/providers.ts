// The providers, from the daemon's own registry (shared/providers/registry.ts): their order, names,
// colours and capabilities. Product names are not translated. Each has a colour (its `cssKey`,
// `prov-a`, …: made from the registry at build time by web/provider-colors.ts) used for its dot, its series in the combined charts
// and its share bars, chosen apart from the status colours so a provider never reads as "ok" or
// "failing". Views ask for a capability (hasGateway, hasRateLimits), never for a provider.
import type { AnySystem, CliSystem, DataSource, Provider, SystemInfo } from "../api/types";
import { t } from "../i18n/i18n";
import type { CapabilityName, ProviderIdentity } from "../../../shared/providers/identity";
import { PROVIDER_IDENTITIES } from "../../../shared/providers/registry";

const BY_ENUM = new Map<string, ProviderIdentity>(PROVIDER_IDENTITIES.map((p) => [p.enumValue, p]));
const identity = (p: Provider): ProviderIdentity => BY_ENUM.get(p) as ProviderIdentity;
const perEnum = <T,>(f: (p: ProviderIdentity) => T): Record<Provider, T> => Object.fromEntries(PROVIDER_IDENTITIES.map((p) => [p.enumValue, f(p)])) as Record<Provider, T>;

/** In the interface's order (A, B, C). */
export const PROVIDERS: readonly Provider[] = PROVIDER_IDENTITIES.map((p) => p.enumValue);

export const PROVIDER_NAME: Record<Provider, string> = perEnum((p) => p.displayName);

/** The CSS key of a provider: `series-prov-a` colours its bars, `prov-a` its dot. */
export const PROVIDER_KEY: Record<Provider, string> = perEnum((p) => p.cssKey);

/** The provider's word in the API's scopes and check names (`claude-code`). */
export const PROVIDER_WORD: Record<Provider, string> = perEnum((p) => p.name);

export function has(p: Provider, cap: CapabilityName): boolean {
  return identity(p).capabilities[cap];
}

/** The provider runs an agent gateway (OpenClaw): uptime, cron, channels, the gateway log, control. */
export const hasGateway = (p: Provider): boolean => has(p, "gateway");

export function isGatewaySystem(s: AnySystem): s is SystemInfo {
  return hasGateway(s.provider);
}

export function isCliSystem(s: AnySystem): s is CliSystem {
  return !hasGateway(s.provider);
}

/** The last part of a working directory (`/home/op/code/api-server` → `api-server`). */
export function projectName(path: string): string {
  const parts = path.split(/[\\/]+/).filter(Boolean);
  return parts.at(-1) ?? path;
}

/** How a source is named in sentences and subtitles: "Agent main", "Claude Code · default". */
export function sourceTitle(src: DataSource): string {
  const p = src.attributes.provider;
  return !p || hasGateway(p) ? t("overview.sub", { agent: src.name }) : `${PROVIDER_NAME[p]} · ${src.name}`;
}
