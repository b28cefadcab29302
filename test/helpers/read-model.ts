// A read model over a state dir, collected once, as the daemon would have it (no daemon, no
// HTTP): for tests of the queries and of what is built on them. No gateway runs beside a fixture,
// so its probe fails at once instead of waiting on a socket.
import { join } from "node:path";
import { manualClock, type Clock } from "../../shared/base/clock.js";
import { Collector } from "../../shared/ingest/collector.js";
import { LogHub } from "../../shared/base/log/logger.js";
import { ReadModel } from "../../shared/queries/read-model.js";
import { openclawGateway } from "../../shared/providers/openclaw/gateway-side.js";
import { makeTempDir } from "./openclaw-fixtures.js";
import type { Provider } from "../../shared/providers/contract.js";
import type { GatewaySide } from "../../shared/providers/gateway-contract.js";
import { fail, SourceError } from "../../shared/providers/result.js";
import { Store } from "../../shared/store/store.js";
import { FIXTURE_NOW } from "./fixture-expectations.js";

export interface FixtureModel {
  model: ReadModel;
  collector: Collector;
  store: Store;
  clock: Clock & { advance(ms: number): void; set(ms: number): void };
  /** What the first collection skipped (empty when every reader succeeded). */
  degraded: string[];
}

/**
 * A Collector over `providers` (and OpenClaw's gateway side when given) as the daemon makes one,
 * for tests: nothing of the gateway answers (its probe fails at once, no channels or update
 * checks), so nothing waits on a socket.
 */
export function fixtureCollector(o: { providers: Provider[]; side: GatewaySide | null; store: Store; clock: Clock }): Collector {
  return new Collector({
    providers: o.providers,
    gatewaySide: o.side,
    stateDir: makeTempDir(),
    store: o.store,
    clock: o.clock,
    logger: new LogHub({ console: "off" }).logger,
    env: {},
    gatewayUrl: () => null,
    sampleMs: 60_000,
    probeHttp: async () => fail(new SourceError("unreachable", "connect ECONNREFUSED 127.0.0.1:18789")),
    channels: false,
    updates: false,
  });
}

/**
 * `storeFile`: an existing store to collect into (e.g. one an older version wrote); default a new one.
 * `rawDays`: retentionRawDays as the read model sees it (default 7).
 */
export async function fixtureReadModel(dir: string, now = FIXTURE_NOW, opts: { storeFile?: string; rawDays?: number } = {}): Promise<FixtureModel> {
  const clock = manualClock(now);
  const store = Store.open(opts.storeFile ?? join(makeTempDir(), "insights.db"), { clock });
  const side = openclawGateway.open({ dir, demo: false, origin: "config" }, {});
  const collector = fixtureCollector({ providers: [side.provider], side, store, clock });
  const { degraded } = await collector.collectOnce(10_000);
  // One recorded liveness sample, as the daemon's timer takes them (collectOnce's probe is not recorded).
  await collector.gateway?.tick();
  const model = new ReadModel({ store, collector, clock, appVersion: "0.1.0", startedAt: now, demo: false, openclawDir: dir, timeZone: "UTC", rawDays: () => opts.rawDays ?? 7 });
  return { model, collector, store, clock, degraded };
}
