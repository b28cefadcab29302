// The live side of the API: `dataChanged` signals, coalesced per source, and the parsed gateway
// log stream, fanned out to subscribers through bounded channels (a slow one is dropped).
import type { Clock } from "../../shared/base/clock.js";
import type { IngestedEntry } from "../../shared/ingest/log-ingester.js";
import type { Logger } from "../../shared/base/log/logger.js";
import type { LogEntryView } from "../../shared/queries/events.js";
import { LOG_LEVELS, type LogLevel } from "../../shared/providers/contract.js";
import { BoundedChannel } from "./bounded-channel.js";

export interface DataChange {
  source: string;
  /** Epoch ms. */
  ts: number;
}

/** A log line as the `logs` subscription sends it: the same shape as a stored one (recentLogs). */
export type LiveLogEntry = LogEntryView;

export interface LogFilter {
  level?: LogLevel | null;
  module?: string | null;
  agentId?: string | null;
}

interface LiveEventsOptions {
  clock: Clock;
  logger: Logger;
  /** Minimum gap between two dataChanged signals of one source (default 250 ms: at most 4/s). */
  coalesceMs?: number;
  /** Items a subscriber may fall behind before it is dropped. */
  capacity?: number;
}

const rank = (level: string): number => LOG_LEVELS.indexOf(level as LogLevel);

export function logMatches(e: LiveLogEntry, f: LogFilter): boolean {
  if (rank(e.level) < rank(f.level ?? "INFO")) return false;
  if (f.module) {
    const m = f.module;
    if (m.endsWith("/") ? !e.module.startsWith(m) && e.module !== m.slice(0, -1) : e.module !== m) return false;
  }
  if (f.agentId && e.agentId !== f.agentId) return false;
  return true;
}

export class LiveEvents {
  private readonly changeSubs = new Set<BoundedChannel<DataChange>>();
  private readonly logSubs = new Map<BoundedChannel<LiveLogEntry>, LogFilter>();
  private readonly lastSent = new Map<string, number>();
  private readonly pending = new Map<string, NodeJS.Timeout>();
  private readonly coalesceMs: number;
  private readonly capacity: number;
  dropped = 0;

  constructor(private readonly options: LiveEventsOptions) {
    this.coalesceMs = options.coalesceMs ?? 250;
    this.capacity = options.capacity ?? 1000;
  }

  get subscribers(): { dataChanged: number; logs: number } {
    return { dataChanged: this.changeSubs.size, logs: this.logSubs.size };
  }

  /** A source changed. Signals closer together than coalesceMs fold into one trailing signal. */
  changed(source: string): void {
    if (this.pending.has(source)) return;
    const now = this.options.clock.now();
    const wait = (this.lastSent.get(source) ?? -Infinity) + this.coalesceMs - now;
    if (wait <= 0) return this.send(source);
    const t = setTimeout(() => {
      this.pending.delete(source);
      this.send(source);
    }, wait);
    this.pending.set(source, t);
  }

  log(entry: IngestedEntry): void {
    if (!this.logSubs.size) return;
    const e: LiveLogEntry = {
      time: new Date(entry.timeMs).toISOString(),
      level: entry.level,
      module: entry.module,
      message: entry.message,
      agentId: entry.agentId,
      sessionKey: entry.sessionKey,
    };
    for (const [ch, filter] of this.logSubs) if (logMatches(e, filter)) ch.push(e);
  }

  subscribeChanges(): AsyncIterableIterator<DataChange> {
    const ch: BoundedChannel<DataChange> = new BoundedChannel({
      capacity: this.capacity,
      onOverflow: () => this.overflow("dataChanged"),
      onClose: () => this.changeSubs.delete(ch),
    });
    this.changeSubs.add(ch);
    return ch;
  }

  subscribeLogs(filter: LogFilter = {}): AsyncIterableIterator<LiveLogEntry> {
    const ch: BoundedChannel<LiveLogEntry> = new BoundedChannel({
      capacity: this.capacity,
      onOverflow: () => this.overflow("logs"),
      onClose: () => this.logSubs.delete(ch),
    });
    this.logSubs.set(ch, filter);
    return ch;
  }

  close(): void {
    for (const t of this.pending.values()) clearTimeout(t);
    this.pending.clear();
    for (const ch of [...this.changeSubs, ...this.logSubs.keys()]) ch.close();
  }

  private send(source: string): void {
    const ts = this.options.clock.now();
    this.lastSent.set(source, ts);
    for (const ch of this.changeSubs) ch.push({ source, ts });
  }

  private overflow(what: string): void {
    this.dropped++;
    this.options.logger.warn("dropped a subscriber that fell behind", { subscription: what, capacity: this.capacity });
  }
}
