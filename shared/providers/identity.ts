// What a provider module declares about itself (docs/providers.md "Adding a provider"): its
// identity on every surface and the capabilities that set it apart. Pure data with no Node
// imports, so the dashboard builds its provider list, names and colours from the same registry
// (shared/providers/registry.ts) as the daemon. Code above the providers asks for a capability,
// never compares a provider's name.

/**
 * What a provider has beyond the contract every provider meets (transcripts, sessions, usage).
 * Each is a plain `true`/`false` so the registry's types can pick the providers with one.
 */
interface ProviderCapabilities {
  /**
   * An agent gateway of its own (OpenClaw): a long-running process probed for uptime, cron jobs,
   * channels, the gateway's log, restart and update. Its system namespace is the gateway's; a
   * provider without one gets the provider system (CLI versions, live processes). A provider that
   * declares it exports its GatewayCapability from its folder's module.ts (shared/providers/modules.ts).
   */
  gateway: boolean;
  /** The plan's quota: rate-limit windows the provider records (rate-limit check, alerts, metrics). */
  rateLimits: boolean;
  /** Sessions name a working directory; without, usage counts per agent (its source id). */
  projects: boolean;
  /** Its plans bill in 5-hour blocks: the provider the blocks report reads when none is named. */
  usageBlocks: boolean;
}

export type CapabilityName = keyof ProviderCapabilities;

/**
 * A config option a provider declares (its mode, the dirs it reads): the config module's shape
 * (shared/config/options.ts), limited to the kinds a provider needs. Kept here, pure, so the
 * provider's folder owns its options and the config module derives them from the registry.
 */
export type ProviderOptionKind =
  | { readonly type: "enum"; readonly values: readonly string[] }
  | { readonly type: "path"; readonly nullable: true }
  | { readonly type: "paths"; readonly nullable: true }
  | { readonly type: "url"; readonly nullable: true }
  | { readonly type: "string"; readonly minLength?: number; readonly nullable?: boolean };

export interface ProviderOption {
  readonly kind: ProviderOptionKind;
  readonly default: string | null;
  /** Its INSIGHTS_* variable. */
  readonly env: string;
  /** Whether a SIGHUP reload can change it without a restart. */
  readonly reloadable: boolean;
  readonly help: string;
}

/** The values of a provider's mode option: read it when its data is found (auto), always (on: a missing dir shows as DISCONNECTED) or never (off). */
export const PROVIDER_MODES = ["auto", "on", "off"] as const;

/** A provider's mode option (`config.mode`), read at start; `help` says what "found" means for it. */
export function modeOption<E extends string>(env: E, help: string) {
  return { kind: { type: "enum", values: PROVIDER_MODES }, default: "auto", env, reloadable: false, help } as const satisfies ProviderOption;
}

interface ProviderColors {
  dark: string;
  light: string;
}

/** One provider's identity: everything the surfaces above the contract need to name and show it. */
export interface ProviderIdentity {
  /** The name in the API's lower-case words, config scopes, alert scopes and `--provider`. */
  readonly name: string;
  /** The interface's Provider enum value (spec: PROVIDER_A, B, C). */
  readonly enumValue: string;
  /** Its system type in the GraphQL schema. */
  readonly systemType: string;
  /** Source ids of its installs start with this (design §3). */
  readonly sourcePrefix: string;
  /** The product's name: not translated. */
  readonly displayName: string;
  /** What one of its dirs is called in an error about it ("Codex home"). */
  readonly dirLabel: string;
  /** Its colour on the status card (PNG/SVG) and on the dashboard, per theme. */
  readonly colors: { readonly card: ProviderColors; readonly web: ProviderColors };
  /** The dashboard's CSS key: `prov-a` colours its dot, `series-prov-a` its chart series. */
  readonly cssKey: string;
  /**
   * Its config options, in the order config.json's key list, `--help` and reload logs show them:
   * shared/config/options.ts adds every registered provider's to OPTIONS. Keys are camelCase and
   * its own (a key another provider or the core has is an error at load).
   */
  readonly options: Readonly<Record<string, ProviderOption>>;
  /** Which of its options are the mode (auto, on, off) and the dirs it reads. */
  readonly config: { readonly mode: string; readonly dirs: string };
  readonly capabilities: ProviderCapabilities;
  /**
   * With `rateLimits`: where the figures come from. `transcripts`: its reader yields them (Codex's
   * rollouts); `statusLine`: its files have none, `insightsctl statusline` hands them to the daemon
   * (Claude Code, daemon/statusline).
   */
  readonly rateLimitsFrom?: "transcripts" | "statusLine";
}
