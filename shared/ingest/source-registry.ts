// Discovers every provider's installs (one AGENT source each, design §3 and §9) on every refresh,
// so agents and installs added while the daemon runs appear without a restart, and keeps each
// source's latest snapshot. Providers are adapters (shared/providers/<provider>/); nothing here
// knows their formats.
import type { Clock } from "../base/clock.js";
import type { Logger } from "../base/log/logger.js";
import type { Provider, ProviderName } from "../providers/contract.js";
import { providerOrder } from "../providers/registry.js";
import { SourceError } from "../providers/result.js";
import type { Store } from "../store/store.js";
import { AgentSource, type AgentSnapshot, type AgentSourceDeps } from "./agent-source.js";
import { MAX_HINT_PATHS, type ChangeHint } from "./change-watch.js";

export interface SourceRegistryOptions {
  providers: readonly Provider[];
  /**
   * The providers shown from the start (default all): every provider is discovered on every pass,
   * and one not shown yet (its data was not there at start) is shown once a source of it appears.
   */
  shown?: readonly ProviderName[];
  store: Store;
  clock: Clock;
  logger: Logger;
  batchEvents?: number;
  maxBatches?: number;
  scanProgress?: AgentSourceDeps["scanProgress"];
}

interface RefreshOptions {
  /**
   * Sources whose files are watched (a change there refreshes them at once): one that is settled
   * is read by only every `watchedEvery`-th pass, as a safety net for a change the watch missed.
   */
  watched?: (sourceId: string) => boolean;
  watchedEvery?: number;
}

/** Two hints for one pass: what both named, or null (a full pass) when either is null or it grows too large. */
function mergeHints(a: ChangeHint | null, b: ChangeHint | null): ChangeHint | null {
  if (!a || !b) return null;
  const paths = new Set([...a.paths, ...b.paths]);
  return paths.size > MAX_HINT_PATHS ? null : { paths };
}


export class SourceRegistry {
  private readonly sources = new Map<string, AgentSource>();
  private readonly errors = new Map<ProviderName, SourceError | null>();
  private readonly listeners = new Set<(sourceId: string) => void>();
  private refreshing: Promise<string[]> | null = null;
  /** Per watched source: passes sat out since it was last read by one. */
  private readonly satOut = new Map<string, number>();
  /**
   * Watched sources read by a pass since their watch began. Watches are made after a pass, so
   * what was written between a source's read and its watch made no event: the first pass after
   * the watch began reads it (else that waited for the safety net).
   */
  private readonly readSinceWatched = new Set<string>();
  /** Per source: the refresh running and the one queued behind it (a source never refreshes twice at once). */
  private readonly passes = new Map<string, { running: Promise<boolean>; next: Promise<boolean> | null; nextHint: ChangeHint | null }>();
  private discovered = false;

  constructor(private readonly options: SourceRegistryOptions) {}

  get providers(): readonly Provider[] {
    return this.options.providers;
  }

  /** The providers read for the user: the ones shown from the start and any with a source (present or gone). */
  readProviders(): readonly Provider[] {
    const shown = this.options.shown;
    if (!shown) return this.options.providers;
    const withSources = new Set([...this.sources.values()].map((s) => s.provider));
    return this.options.providers.filter((p) => shown.includes(p.name) || withSources.has(p.name));
  }

  /** Why a provider's data could not be read at all at the last pass, or null. */
  providerError(name: ProviderName): SourceError | null {
    return this.errors.get(name) ?? null;
  }

  /** True once every known source finished its first full scan (a vanished one counts as done). */
  get ready(): boolean {
    if (!this.discovered) return false;
    for (const a of this.sources.values()) {
      const s = a.snapshot();
      if (!s.firstPassDone && s.state.status !== "DISCONNECTED") return false;
    }
    return true;
  }

  agentSnapshots(): AgentSnapshot[] {
    return [...this.sources.values()].map((a) => a.snapshot()).sort((a, b) => providerOrder(a.provider) - providerOrder(b.provider) || a.id.localeCompare(b.id));
  }

  /** A source by its id (`agent:main`, `claude-code:default`). */
  source(id: string): AgentSource | undefined {
    return this.sources.get(id);
  }

  onChange(fn: (sourceId: string) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** One discovery + refresh of every source (see RefreshOptions); overlapping calls share the running one. */
  refresh(options: RefreshOptions = {}): Promise<string[]> {
    this.refreshing ??= this.doRefresh(options).finally(() => (this.refreshing = null));
    return this.refreshing;
  }

  /**
   * A refresh of one source only (a change was seen in its files), without discovery; announced
   * like any other. Joins a pass of that source that is already queued. `hint`: the files the
   * change named (AgentSource.refresh), null for a full pass.
   */
  async refreshSource(id: string, hint: ChangeHint | null = null): Promise<boolean> {
    const source = this.sources.get(id);
    if (!source) return false;
    const changed = await this.refreshOne(source, hint);
    if (changed) this.emit([id]);
    return changed;
  }

  /** Every source id known (present or gone). */
  sourceIds(): string[] {
    return [...this.sources.keys()];
  }

  /**
   * Waits until no pass of any source runs or is queued: a refresh a watch event started is no job
   * of the collector's, and one queued behind it would open a reader again after close().
   */
  async settle(): Promise<void> {
    const pending = (): Array<Promise<boolean>> => [...this.passes.values()].flatMap((s) => (s.next ? [s.running, s.next] : [s.running]));
    for (let waited = new Set<Promise<boolean>>(), now = pending(); now.some((p) => !waited.has(p)); now = pending()) {
      // Only passes not waited for yet: one that settled but kept its slot (it never does) ends the wait.
      for (const p of now) waited.add(p);
      await Promise.allSettled(now);
    }
  }

  /** The daemon is quiet: each source unchanged for `minIdleMs` hands back what it keeps for the next change (AgentSource.releaseAtRest). True when any did. */
  releaseAtRest(minIdleMs: number): boolean {
    let any = false;
    for (const s of this.sources.values()) if (s.releaseAtRest(minIdleMs)) any = true;
    return any;
  }

  close(): void {
    for (const a of this.sources.values()) a.close();
  }

  /**
   * One refresh of a source, never two at once: while one runs, a caller queues one more pass
   * (which sees whatever was written meanwhile), and later callers join that queued pass: its
   * hint then covers every caller's (any full one makes it full).
   */
  private refreshOne(source: AgentSource, hint: ChangeHint | null = null): Promise<boolean> {
    const slot = this.passes.get(source.id);
    if (!slot) return this.startPass(source, () => source.refresh(hint));
    if (slot.next) slot.nextHint = mergeHints(slot.nextHint, hint);
    else {
      slot.nextHint = hint;
      slot.next = slot.running.then(() => {
        const queued = slot.nextHint;
        slot.nextHint = null;
        return this.startPass(source, () => source.refresh(queued));
      });
    }
    return slot.next;
  }

  /** The live processes only (a source sitting out a pass), never beside a pass of it, which reads them itself. */
  private checkLive(source: AgentSource): Promise<boolean> {
    if (this.passes.has(source.id)) return Promise.resolve(false);
    return this.startPass(source, () => source.refreshLive());
  }

  private startPass(source: AgentSource, run: () => Promise<boolean>): Promise<boolean> {
    const running: Promise<boolean> = run().finally(() => {
      const slot = this.passes.get(source.id);
      // A queued pass starts next (through startPass) and keeps the slot.
      if (slot?.running === running && !slot.next) this.passes.delete(source.id);
    });
    const slot = this.passes.get(source.id);
    if (slot) {
      slot.running = running;
      slot.next = null;
    } else this.passes.set(source.id, { running, next: null, nextHint: null });
    return running;
  }

  /** A watched, settled source sits this pass out (all but every `watchedEvery`-th). */
  private sitsOut(source: AgentSource, o: RefreshOptions): boolean {
    const watched = o.watched?.(source.id) ?? false;
    if (!watched) this.readSinceWatched.delete(source.id);
    if (!watched || !source.settled || !this.readSinceWatched.has(source.id)) {
      if (watched) this.readSinceWatched.add(source.id);
      this.satOut.delete(source.id);
      return false;
    }
    const n = (this.satOut.get(source.id) ?? 0) + 1;
    if (n >= (o.watchedEvery ?? 15)) {
      this.satOut.delete(source.id);
      return false;
    }
    this.satOut.set(source.id, n);
    return true;
  }

  private async doRefresh(refreshOptions: RefreshOptions): Promise<string[]> {
    const { options } = this;
    const changed: string[] = [];
    const present = new Set<string>();
    const lost = new Map<string, SourceError>();
    for (const provider of options.providers) {
      const found = provider.discover();
      const before = this.errors.get(provider.name) ?? null;
      if (found.error) {
        if (before?.message !== found.error.message) options.logger.warn("cannot read the provider's data", { provider: provider.name, error: found.error.message });
      } else if (before) options.logger.info("the provider's data is readable again", { provider: provider.name });
      this.errors.set(provider.name, found.error);
      for (const install of found.installs) {
        present.add(install.id);
        let source = this.sources.get(install.id);
        if (!source) {
          source = new AgentSource(install, {
            provider,
            store: options.store,
            clock: options.clock,
            logger: options.logger,
            ...(options.batchEvents ? { batchEvents: options.batchEvents } : {}),
            ...(options.maxBatches ? { maxBatches: options.maxBatches } : {}),
            ...(options.scanProgress ? { scanProgress: options.scanProgress } : {}),
          });
          this.sources.set(install.id, source);
          options.logger.info("found source", { source: install.id, name: install.name, dir: install.dir });
          changed.push(source.id);
        } else source.updateInstall(install);
      }
      if (found.error) for (const s of this.sources.values()) if (s.provider === provider.name) lost.set(s.id, found.error);
    }
    this.discovered = true;
    for (const [id, source] of this.sources) {
      if (present.has(id)) {
        if (this.sitsOut(source, refreshOptions)) {
          // Its files are watched, its processes are not: who runs is looked at by every pass.
          if (await this.checkLive(source)) changed.push(id);
          continue;
        }
        if (await this.refreshOne(source)) changed.push(id);
      } else if (source.gone(lost.get(id) ?? new SourceError("missing", `${id} is gone`))) changed.push(id);
    }
    const unique = [...new Set(changed)];
    this.emit(unique);
    return unique;
  }

  private emit(ids: string[]): void {
    for (const id of ids) for (const fn of this.listeners) fn(id);
  }
}
