// How the data side finds a CLI provider (one without an agent gateway: Claude Code, Codex): where
// it looks, whether its data is there, and the Provider that reads it, real or the bundled demo's
// copy. shared/open-data.ts loops over these; each provider's module.ts gives its own. A provider with
// an agent gateway (OpenClaw) is located and opened through its gateway capability instead
// (shared/providers/gateway-contract.ts).
import type { Pricer } from "../pricing/pricer.js";
import type { Provider } from "./contract.js";
import type { DemoCopy } from "./demo-contract.js";
import type { LookedAt } from "./looked-at.js";

export interface DiscoveryContext {
  env: Readonly<Record<string, string | undefined>>;
  home: string;
  /** The provider's dirs config option (claudeCodeDirs, codexDirs); null: its defaults. */
  dirs: readonly string[] | null;
}

export interface ProviderDiscovery {
  /** Every dir it looks at and what is there now (status, /health). Stat calls only. */
  lookedAt(ctx: DiscoveryContext): LookedAt[];
  /** An install with data is there now (mode `auto`). Stat calls only. */
  hasData(ctx: DiscoveryContext): boolean;
  /** The provider reading its installs; discovery runs again on every pass. */
  create(ctx: DiscoveryContext, pricer: Pricer): Provider;
  /**
   * The provider reading exactly its demo's installed copy (an empty environment, so nothing of
   * the user's own can mix in).
   */
  demo(copy: DemoCopy, pricer: Pricer): Provider;
}
