// Follows the gateway's file log into the store: reads the lines written since the stored cursor
// (across rotation and midnight, see log-follower), parses and classifies them (error, warning,
// restart), and in one transaction per batch stores INFO-and-above lines in log_events and moves
// the cursor together with the restart tracker's state, so a restart of the daemon neither loses
// nor double counts a line, and a gateway start split across two reads counts once.
import type { Clock } from "../base/clock.js";
import type { Logger } from "../base/log/logger.js";
import type { GatewayLogEntry, GatewayLogEventType, GatewayLogFormat } from "../providers/contract.js";
import { GATEWAY_PROVIDER, providerIdentity, type ProviderName } from "../providers/registry.js";
import type { SourceError } from "../providers/result.js";
import type { Store } from "../store/store.js";

/**
 * The gateway log is its provider's (OpenClaw's): its lines are recorded under that name and its
 * agents' source ids. A log ingester runs only where a provider has a gateway, so it is set.
 */
const GATEWAY = providerIdentity(GATEWAY_PROVIDER as ProviderName);

export interface IngestedEntry extends GatewayLogEntry {
  type: GatewayLogEventType | null;
}

interface LogIngesterOptions {
  store: Store;
  clock: Clock;
  logger: Logger;
  /** How the gateway side follows, parses and classifies its log (the gateway capability's). */
  format: GatewayLogFormat;
  /** Today's active gateway log path at an instant. */
  resolveActivePath: (nowMs: number) => string;
  /** Bytes read per batch (one transaction each). */
  maxBytes?: number;
  /** Batches per call, so a huge backlog cannot hog the process. */
  maxBatches?: number;
  /** Every parsed entry, any level, as it is ingested (the live `logs` stream). */
  onEntry?: (entry: IngestedEntry) => void;
}

interface IngestResult {
  lines: number;
  events: number;
  warnings: number;
  caughtUp: boolean;
  error: SourceError | null;
}

/** Both plain JSON the gateway side gave, stored as they are. */
interface Saved {
  cursor: unknown;
  tracker: unknown;
}

const SOURCE = "gateway-log";
const ITEM = "active";
const STORED_LEVELS = new Set(["INFO", "WARN", "ERROR", "FATAL"]);

export class LogIngester {
  private prepared: { db: object; stmts: ReturnType<LogIngester["prepare"]> } | null = null;
  private warningsLogged = 0;

  constructor(private readonly options: LogIngesterOptions) {}

  /** Statements belong to one connection; the store's changes when its file was recreated. */
  private get stmts(): ReturnType<LogIngester["prepare"]> {
    const db = this.options.store.db;
    if (this.prepared?.db !== db) this.prepared = { db, stmts: this.prepare() };
    return this.prepared.stmts;
  }

  private prepare() {
    const db = this.options.store.db;
    return {
      load: db.prepare<[string, string], { cursor_json: string }>("SELECT cursor_json FROM scan_cursors WHERE source = ? AND item = ?"),
      save: db.prepare(
        `INSERT INTO scan_cursors (source, item, cursor_json, change_token, updated_at) VALUES (?, ?, ?, NULL, ?)
         ON CONFLICT (source, item) DO UPDATE SET cursor_json = excluded.cursor_json, updated_at = excluded.updated_at`,
      ),
      // A line naming an agent belongs to that agent's source; the others are gateway-wide (source NULL).
      insert: db.prepare(
        "INSERT INTO log_events (ts, level, type, module, message, agent_id, session_key, source_id, provider) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
      ),
      count: db.prepare("INSERT INTO event_totals (provider, type, count) VALUES (?, ?, 1) ON CONFLICT (provider, type) DO UPDATE SET count = count + 1"),
    };
  }

  async ingest(): Promise<IngestResult> {
    const result: IngestResult = { lines: 0, events: 0, warnings: 0, caughtUp: false, error: null };
    const row = this.stmts.load.get(SOURCE, ITEM);
    const { format } = this.options;
    let saved: Saved = row ? (JSON.parse(row.cursor_json) as Saved) : { cursor: null, tracker: null };
    for (let batch = 0; batch < (this.options.maxBatches ?? 16); batch++) {
      const read = format.follow(saved.cursor, {
        resolveActivePath: this.options.resolveActivePath,
        clock: this.options.clock,
        ...(this.options.maxBytes ? { maxBytes: this.options.maxBytes } : {}),
      });
      if (!read.ok) {
        result.error = read.error;
        return result;
      }
      const { lines, cursor, caughtUp } = read.value;
      const restarts = format.restarts(saved.tracker);
      const entries: IngestedEntry[] = [];
      for (const line of lines) {
        const parsed = format.parse(line.text, `${line.file}@${line.offset}`);
        if (!parsed.ok) {
          result.warnings++;
          if (this.warningsLogged++ < 20) this.options.logger.warn("skipped a gateway log line", { where: parsed.warning.where, message: parsed.warning.message });
          continue;
        }
        entries.push({ ...parsed.entry, type: restarts.classify(parsed.entry) });
      }
      const next: Saved = { cursor, tracker: restarts.state() };
      this.options.store.transaction(() => {
        for (const e of entries) {
          if (!STORED_LEVELS.has(e.level) && e.type === null) continue;
          this.stmts.insert.run(e.timeMs, e.level.toLowerCase(), e.type, e.module, e.message, e.agentId, e.sessionKey, e.agentId ? `${GATEWAY.sourcePrefix}${e.agentId}` : null, GATEWAY.name);
          if (e.type) {
            result.events++;
            this.stmts.count.run(GATEWAY.name, e.type);
          }
        }
        this.stmts.save.run(SOURCE, ITEM, JSON.stringify(next), this.options.clock.now());
      });
      saved = next;
      result.lines += lines.length;
      for (const e of entries) this.options.onEntry?.(e);
      if (caughtUp) {
        result.caughtUp = true;
        return result;
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    return result;
  }
}
