// Discovers the OpenClaw agents (one AGENT source each, design §3) on every refresh, so agents
// added while the daemon runs appear without a restart, and keeps each one's latest snapshot.
import type { Clock } from "../clock.js";
import type { Logger } from "../log/logger.js";
import { readOpenClawState, type ModelTable, type OpenClawEnv, type OpenClawState } from "../sources/openclaw/state-dir.js";
import { SourceError } from "../sources/result.js";
import type { Store } from "../store/store.js";
import { AgentSource, type AgentSnapshot } from "./agent-source.js";

export interface SourceRegistryOptions {
  openclawDir: string;
  env?: OpenClawEnv;
  store: Store;
  clock: Clock;
  logger: Logger;
  batchEvents?: number;
  maxBatches?: number;
}

export class SourceRegistry {
  private readonly agents = new Map<string, AgentSource>();
  private state: OpenClawState | null = null;
  private stateError: SourceError | null = null;
  private models: ModelTable = new Map();
  private readonly listeners = new Set<(sourceId: string) => void>();
  private refreshing: Promise<string[]> | null = null;

  constructor(private readonly options: SourceRegistryOptions) {}

  /** The last good read of the state dir and its config, or null while it is missing. */
  get openclaw(): OpenClawState | null {
    return this.state;
  }

  get openclawError(): SourceError | null {
    return this.stateError;
  }

  /** True once every known agent finished its first full scan (a vanished one counts as done). */
  get ready(): boolean {
    if (!this.state && !this.stateError) return false;
    for (const a of this.agents.values()) {
      const s = a.snapshot();
      if (!s.firstPassDone && s.state.status !== "DISCONNECTED") return false;
    }
    return true;
  }

  agentSnapshots(): AgentSnapshot[] {
    return [...this.agents.values()].map((a) => a.snapshot()).sort((a, b) => a.agentId.localeCompare(b.agentId));
  }

  agent(agentId: string): AgentSource | undefined {
    return this.agents.get(agentId);
  }

  onChange(fn: (sourceId: string) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** One discovery + refresh of every agent; overlapping calls share the running one. */
  refresh(): Promise<string[]> {
    this.refreshing ??= this.doRefresh().finally(() => (this.refreshing = null));
    return this.refreshing;
  }

  close(): void {
    for (const a of this.agents.values()) a.close();
  }

  private async doRefresh(): Promise<string[]> {
    const { options } = this;
    const changed: string[] = [];
    const read = readOpenClawState({ stateDir: options.openclawDir, env: options.env ?? {} });
    if (!read.ok) {
      if (this.stateError?.message !== read.error.message) options.logger.warn("cannot read the OpenClaw state dir", { dir: options.openclawDir, error: read.error.message });
      this.stateError = read.error;
      this.state = null;
      for (const a of this.agents.values()) if (a.gone(read.error)) changed.push(a.id);
      this.emit(changed);
      return changed;
    }
    if (this.stateError) options.logger.info("the OpenClaw state dir is readable again", { dir: options.openclawDir });
    this.stateError = null;
    this.state = read.value;
    this.models = read.value.models;
    const present = new Set<string>();
    for (const info of read.value.agents) {
      // A config-only agent with no directory has nothing to read yet.
      if (!info.hasDir) continue;
      present.add(info.id);
      let source = this.agents.get(info.id);
      if (!source) {
        source = new AgentSource(info, {
          stateDir: read.value.stateDir,
          store: options.store,
          clock: options.clock,
          logger: options.logger,
          models: () => this.models,
          ...(options.batchEvents ? { batchEvents: options.batchEvents } : {}),
          ...(options.maxBatches ? { maxBatches: options.maxBatches } : {}),
        });
        this.agents.set(info.id, source);
        options.logger.info("found agent", { source: source.id, name: info.name, era: info.era });
        changed.push(source.id);
      } else source.updateInfo(info);
    }
    for (const [id, source] of this.agents) {
      if (present.has(id)) {
        if (await source.refresh()) changed.push(source.id);
      } else if (source.gone(new SourceError("missing", `agent directory agents/${id} is gone`))) changed.push(source.id);
    }
    const unique = [...new Set(changed)];
    this.emit(unique);
    return unique;
  }

  private emit(ids: string[]): void {
    for (const id of ids) for (const fn of this.listeners) fn(id);
  }
}
