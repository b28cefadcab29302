// The one list of providers (docs/providers.md "Adding a provider"), in the interface's order
// (spec: Provider enum). Everything that names the provider set derives from it: the names and
// enum values, source-id parsing, ordering, display names, colours, `--provider` words, alert
// scopes and config options; what differs between providers is asked as a capability
// (shared/providers/identity.ts). A provider's node side is its folder's module.ts, loaded by name
// (shared/providers/modules.ts), so its line here is all that registers it. Pure: the dashboard
// imports it too.
import type { CapabilityName, ProviderIdentity } from "./identity.js";
import { claudeCodeIdentity } from "./claude-code/identity.js";
import { codexIdentity } from "./codex/identity.js";
import { geminiCliIdentity } from "./gemini-cli/identity.js";
import { openclawIdentity } from "./openclaw/identity.js";

export const PROVIDER_IDENTITIES = [openclawIdentity, claudeCodeIdentity, codexIdentity, geminiCliIdentity] as const;

type AnyIdentity = (typeof PROVIDER_IDENTITIES)[number];
export type ProviderName = AnyIdentity["name"];
export type ProviderEnum = AnyIdentity["enumValue"];
export type ProviderSystemType = AnyIdentity["systemType"];
/** The providers that declare capability `C`, as a type (`ProviderWith<"gateway">`). */
export type ProviderWith<C extends CapabilityName> = Extract<AnyIdentity, { capabilities: Record<C, true> }>["name"];
export type ProviderWithout<C extends CapabilityName> = Exclude<ProviderName, ProviderWith<C>>;
/** The same, as the interface's enum values (the dashboard's types). */
export type EnumWith<C extends CapabilityName> = Extract<AnyIdentity, { capabilities: Record<C, true> }>["enumValue"];
export type EnumWithout<C extends CapabilityName> = Exclude<ProviderEnum, EnumWith<C>>;

/** Every provider's name, in the interface's order. */
export const PROVIDER_NAMES: readonly ProviderName[] = PROVIDER_IDENTITIES.map((p) => p.name);

/** The names as a sentence's list, for help texts: `openclaw, claude-code, codex or gemini-cli`. */
export const PROVIDER_WORDS = `${PROVIDER_NAMES.slice(0, -1).join(", ")} or ${PROVIDER_NAMES[PROVIDER_NAMES.length - 1]}`;

/** The display names as a sentence's list, for texts: `OpenClaw, Claude Code, Codex and Gemini CLI` (with `or`: any one of them). */
export function displayNames(joiner: "and" | "or" = "and"): string {
  const names = PROVIDER_IDENTITIES.map((p) => p.displayName);
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} ${joiner} ${names[names.length - 1]}` : (names[0] ?? "");
}

/** A value per provider, built from its identity (so nothing is written per provider by hand). */
export function perProvider<T>(f: (identity: AnyIdentity) => T): Record<ProviderName, T> {
  return Object.fromEntries(PROVIDER_IDENTITIES.map((p) => [p.name, f(p)])) as Record<ProviderName, T>;
}

const BY_NAME: Record<ProviderName, ProviderIdentity> = perProvider((p) => p);
const BY_ENUM = new Map<string, ProviderName>(PROVIDER_IDENTITIES.map((p) => [p.enumValue, p.name]));

export function providerIdentity(name: ProviderName): ProviderIdentity {
  return BY_NAME[name];
}

export const PROVIDER_ENUM: Record<ProviderName, ProviderEnum> = perProvider((p) => p.enumValue);

/** The provider of an interface enum value. */
export function providerOfEnum(value: ProviderEnum): ProviderName {
  return BY_ENUM.get(value) as ProviderName;
}

/** Whether `word` is a provider's name (the API's lower-case words). */
export function isProviderName(word: string): word is ProviderName {
  return Object.hasOwn(BY_NAME, word);
}

/** A `--provider` word: a name or an enum value (PROVIDER_A/B/C), any case; null when none. */
export function parseProviderWord(word: string): ProviderName | null {
  const w = word.toLowerCase();
  return PROVIDER_IDENTITIES.find((p) => p.name === w || p.enumValue.toLowerCase() === w)?.name ?? null;
}

/** The provider a source id belongs to (by its prefix, design §3), or null for `dashboard:self`. */
export function providerOfSourceId(id: string): ProviderName | null {
  return PROVIDER_IDENTITIES.find((p) => id.startsWith(p.sourcePrefix))?.name ?? null;
}

/** The interface's order (A, B, C): for sorting. */
export function providerOrder(name: ProviderName): number {
  return PROVIDER_NAMES.indexOf(name);
}

export function displayName(name: ProviderName): string {
  return BY_NAME[name].displayName;
}

/** A provider word from elsewhere (the control socket's JSON) in words: its display name, else as is. */
export function nameOfWord(word: string): string {
  return isProviderName(word) ? BY_NAME[word].displayName : word;
}

/** Whether a word from elsewhere names a provider that declares `cap`. */
export function wordHas(word: string, cap: CapabilityName): boolean {
  return isProviderName(word) && BY_NAME[word].capabilities[cap];
}

/** Whether the provider declares capability `cap` (shared/providers/identity.ts). */
export function hasCapability<C extends CapabilityName>(name: ProviderName, cap: C): name is ProviderWith<C> {
  return BY_NAME[name].capabilities[cap];
}

/** The providers that declare capability `cap`, in the interface's order. */
export function providersWith<C extends CapabilityName>(cap: C): ProviderWith<C>[] {
  return PROVIDER_NAMES.filter((n): n is ProviderWith<C> => hasCapability(n, cap));
}

/** The providers that do not declare capability `cap`, in the interface's order. */
export function providersWithout<C extends CapabilityName>(cap: C): ProviderWithout<C>[] {
  return PROVIDER_NAMES.filter((n): n is ProviderWithout<C> => !hasCapability(n, cap));
}

/**
 * The provider whose agent gateway the daemon watches (the gateway side is one per daemon:
 * OpenClaw's); null when no registered provider has one. The gateway's own log lines and probes
 * are recorded under its name.
 */
export const GATEWAY_PROVIDER: ProviderWith<"gateway"> | null = providersWith("gateway")[0] ?? null;
