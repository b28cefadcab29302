// The whole provider-neutral core over one provider's files, as the daemon runs it but
// without HTTP: a real SQLite store, a Collector with the provider (discovery, reader, scanner,
// session facts) and the ReadModel every interface asks. For core-level tests of a provider:
// collect, change the provider's files, collect again, and read what an interface would show.
// `restart()` closes everything and opens a new store handle and a new Collector on the same store
// file, as a daemon restart does.
import { join } from "node:path";
import { manualClock, type Clock } from "../../shared/base/clock.js";
import { Collector } from "../../shared/ingest/collector.js";
import { Pricer } from "../../shared/pricing/pricer.js";
import { ReadModel } from "../../shared/queries/read-model.js";
import { fixtureCollector } from "./read-model.js";
import { ClaudeCodeProvider } from "../../shared/providers/claude-code/provider.js";
import { CodexProvider } from "../../shared/providers/codex/provider.js";
import type { Provider } from "../../shared/providers/contract.js";
import { makeTempDir } from "./openclaw-fixtures.js";
import { Store } from "../../shared/store/store.js";

export type CoreProvider = "claude-code" | "codex";

export interface ProviderModel {
  model: ReadModel;
  collector: Collector;
  store: Store;
  clock: Clock & { advance(ms: number): void; set(ms: number): void };
  /** Another read model over the same store and collector that keeps nothing yet: the store as it is now. */
  freshModel(): ReadModel;
  /** The install's source id (`claude-code:default`, `codex:default`, `agent:main`). */
  sourceId: string;
  /** One collection pass; rejects when a job ran past its budget or the provider could not be read. */
  collect(): Promise<void>;
  /** Closes this collector and store and opens new ones on the same store file (a daemon restart), collected once. */
  restart(): Promise<ProviderModel>;
  close(): Promise<void>;
}

export interface ProviderModelOptions {
  /** The clock's time; default 2026-11-25T00:00Z (after both fixtures' activity). */
  now?: number;
  /** Collect into this store file (default a new one in a temp dir). */
  storeFile?: string;
  /** Environment the provider sees (CLAUDE_CONFIG_DIR, CODEX_HOME); default none, so HOME's default dir is read. */
  env?: Record<string, string>;
  /** Prices (default the shipped data set). */
  pricer?: Pricer;
}

export const CORE_NOW = Date.parse("2026-11-25T00:00:00Z");

function providerFor(kind: CoreProvider, home: string, env: Record<string, string>, pricer: Pricer): Provider {
  return kind === "claude-code" ? new ClaudeCodeProvider({ env, home, dirs: null, pricer }) : new CodexProvider({ env, home, dirs: null, pricer });
}

/** The core over `home` (the user's home: `.claude/` or `.codex/` inside), collected once. */
export function providerReadModel(kind: CoreProvider, home: string, opts: ProviderModelOptions = {}): Promise<ProviderModel> {
  return coreReadModel(() => providerFor(kind, home, opts.env ?? {}, opts.pricer ?? new Pricer()), `${kind}:default`, opts);
}

/**
 * The core over whatever `makeProvider` reads (any registered provider: the conformance suite's
 * fixtures), collected once; `sourceId` is the one install it must find. A restart makes a new
 * provider, as a daemon restart does.
 */
export async function coreReadModel(makeProvider: () => Provider, sourceId: string, opts: Omit<ProviderModelOptions, "env" | "pricer"> = {}): Promise<ProviderModel> {
  const now = opts.now ?? CORE_NOW;
  const clock = manualClock(now);
  const storeFile = opts.storeFile ?? join(makeTempDir("gi-core-"), "insights.db");
  const store = Store.open(storeFile, { clock });
  const provider = makeProvider();
  const collector = fixtureCollector({ providers: [provider], side: null, store, clock });
  const freshModel = (): ReadModel => new ReadModel({ store, collector, clock, appVersion: "0.1.0", startedAt: now, demo: false, openclawDir: null, timeZone: "UTC", rawDays: () => 7 });
  const model = freshModel();
  const collect = async (): Promise<void> => {
    const { degraded } = await collector.collectOnce(60_000);
    if (degraded.length) throw new Error(`collection degraded: ${degraded.join(", ")}`);
  };
  const close = async (): Promise<void> => {
    await collector.stop();
    store.close();
  };
  await collect();
  return {
    model,
    freshModel,
    collector,
    store,
    clock,
    sourceId,
    collect,
    close,
    restart: async () => {
      const at = clock.now();
      await close();
      return coreReadModel(makeProvider, sourceId, { ...opts, now: at, storeFile });
    },
  };
}
