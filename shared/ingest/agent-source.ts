// One AGENT source (design §3): an OpenClaw agent's sessions and transcripts, whichever storage
// era it uses. Each refresh re-lists sessions, scans new transcript events into the store and
// moves the SourceStatus machine. The reader is reopened when the agent's database or
// sessions.json is replaced, and dropped when it disappears (DISCONNECTED) or breaks (ERROR).
import { statSync } from "node:fs";
import { join } from "node:path";
import type { Clock } from "../clock.js";
import type { Logger } from "../log/logger.js";
import { openAgentData, type AgentData, type AgentDataEra } from "../sources/openclaw/agent-data.js";
import type { SessionRecord } from "../sources/openclaw/session-record.js";
import { agentEra, type AgentInfo, type ModelTable } from "../sources/openclaw/state-dir.js";
import { SourceError } from "../sources/result.js";
import type { Store } from "../store/store.js";
import { StatusMachine, type StatusState } from "./source-status.js";
import { TranscriptScanner } from "./transcript-scanner.js";

export interface AgentSnapshot {
  /** `agent:<agentId>` */
  id: string;
  agentId: string;
  name: string;
  state: StatusState;
  era: AgentDataEra | null;
  sessions: readonly SessionRecord[];
  appVersion: string | null;
  /** The first full transcript scan of this process has ended. */
  firstPassDone: boolean;
  /** Transcripts (session windows, or JSONL files) on disk at the last scan. */
  transcripts: number;
  /** Bad lines, rows or fields skipped and counted since start. */
  warnings: number;
}

export interface AgentSourceDeps {
  stateDir: string;
  store: Store;
  clock: Clock;
  logger: Logger;
  models: () => ModelTable;
  batchEvents?: number;
  maxBatches?: number;
}

export class AgentSource {
  private data: AgentData | null = null;
  private identity: string | null = null;
  private readonly status: StatusMachine;
  private sessions: readonly SessionRecord[] = [];
  private signature = "";
  /** The reader's change stamp at the last complete pass; "" forces the next one. */
  private stamp = "";
  /** The last pass stopped early (batch budget) or hit an unreadable transcript: go on next time. */
  private rescan = false;
  private appVersion: string | null = null;
  private firstPassDone = false;
  private transcripts = 0;
  private warnings = 0;

  constructor(
    private info: AgentInfo,
    private readonly deps: AgentSourceDeps,
  ) {
    this.status = new StatusMachine(deps.clock.now(), (next, prev) =>
      deps.logger[next.status === "CONNECTED" || next.status === "INITIALIZING" ? "info" : "warn"]("source status changed", {
        source: this.id,
        from: prev.status,
        to: next.status,
        ...(next.lastError ? { error: next.lastError } : {}),
      }),
    );
  }

  get id(): string {
    return `agent:${this.info.id}`;
  }

  updateInfo(info: AgentInfo): void {
    this.info = info;
  }

  snapshot(): AgentSnapshot {
    return {
      id: this.id,
      agentId: this.info.id,
      name: this.info.name,
      state: this.status.current,
      era: this.data?.era ?? null,
      sessions: this.sessions,
      appVersion: this.appVersion,
      firstPassDone: this.firstPassDone,
      transcripts: this.transcripts,
      warnings: this.warnings,
    };
  }

  /** The open reader, for paginated transcript reads on request; null while disconnected. */
  reader(): AgentData | null {
    return this.data;
  }

  /** Marks the source gone (its directory vanished from the state dir). */
  gone(error: SourceError): boolean {
    this.close();
    const before = this.status.current;
    this.status.failed(error, this.deps.clock.now());
    return before !== this.status.current;
  }

  /** One refresh; true when anything a reader could see changed. Never throws. */
  async refresh(): Promise<boolean> {
    const { clock } = this.deps;
    const before = this.status.current;
    try {
      const identity = primaryFileIdentity(this.info.dir);
      if (identity === null) return this.gone(new SourceError("missing", `${this.info.dir}: no agent database or sessions.json`, { where: this.info.dir }));
      if (this.data && identity !== this.identity) this.close(); // replaced underneath us: reopen
      if (!this.data) {
        const opened = openAgentData(this.deps.stateDir, this.info.id, { models: this.deps.models() });
        this.count(opened.warnings);
        if (!opened.ok) return this.fail(opened.error, before);
        this.data = opened.value;
        this.identity = identity;
      }
      // Nothing committed since the last full pass: skip listing and scanning (an idle gateway costs ~nothing).
      const stamp = this.data.changeStamp();
      if (stamp.ok && stamp.value === this.stamp && !this.rescan) {
        if (this.firstPassDone) this.status.connected(clock.now());
        return before !== this.status.current;
      }
      const listed = this.data.listSessions();
      this.count(listed.warnings);
      if (!listed.ok) return this.fail(listed.error, before);
      const signature = listed.value.map((s) => `${s.key}|${s.updatedAt}|${s.status}|${s.sessionIds.length}`).join("\n");
      const sessionsChanged = signature !== this.signature;
      this.sessions = listed.value;
      this.signature = signature;

      const scanner = new TranscriptScanner(this.deps.store, {
        clock,
        models: this.deps.models(),
        ...(this.deps.batchEvents ? { batchEvents: this.deps.batchEvents } : {}),
        ...(this.deps.maxBatches ? { maxBatches: this.deps.maxBatches } : {}),
      });
      const scan = await scanner.scanAgent(this.data);
      this.count(scan.warnings);
      if (scan.errors.length && scan.transcripts === 0) return this.fail(scan.errors[0] as SourceError, before);
      for (const e of scan.errors) this.deps.logger.warn("transcript unreadable; will retry", { source: this.id, error: e.message });
      this.transcripts = scan.transcripts;
      // Taken before reading, so whatever was written meanwhile is picked up next time.
      this.stamp = stamp.ok ? stamp.value : "";
      this.rescan = !scan.done || scan.errors.length > 0;
      const version = this.data.appVersion();
      if (version.ok) this.appVersion = version.value;

      if (scan.done && !this.firstPassDone) {
        const { store } = this.deps;
        // Through store.transaction, so a failed write reaches the store's health.
        store.transaction(() =>
          store.db
            .prepare(
              `INSERT INTO agent_scan_state (agent_id, first_pass_at, transcripts, warnings) VALUES (?, ?, ?, ?)
             ON CONFLICT (agent_id) DO UPDATE SET first_pass_at = excluded.first_pass_at, transcripts = excluded.transcripts, warnings = excluded.warnings`,
            )
            .run(this.info.id, clock.now(), scan.transcripts, this.warnings),
        );
        this.firstPassDone = true;
        this.deps.logger.info("first transcript scan finished", { source: this.id, transcripts: scan.transcripts, warnings: this.warnings });
      }
      if (this.firstPassDone) this.status.connected(clock.now());
      return sessionsChanged || scan.events > 0 || before !== this.status.current;
    } catch (err) {
      // A bug or an unexpected I/O failure: the source is in ERROR, the daemon goes on.
      return this.fail(new SourceError("corrupt", err instanceof Error ? err.message : String(err), {}, { cause: err }), before);
    }
  }

  close(): void {
    try {
      this.data?.close();
    } catch {
      // already closed
    }
    this.data = null;
    this.identity = null;
    this.stamp = "";
  }

  private fail(error: SourceError, before: StatusState): boolean {
    this.close();
    this.status.failed(error, this.deps.clock.now());
    return before !== this.status.current;
  }

  private count(warnings: ReadonlyArray<{ code: string; message: string; where: string }>): void {
    if (!warnings.length) return;
    this.warnings += warnings.length;
    for (const w of warnings.slice(0, 5)) this.deps.logger.warn("skipped bad input", { source: this.id, code: w.code, where: w.where, message: w.message });
    if (warnings.length > 5) this.deps.logger.warn("more bad input skipped", { source: this.id, count: warnings.length - 5 });
  }
}

/** dev:inode of the file that defines the agent's era; null when neither exists. */
function primaryFileIdentity(agentDir: string): string | null {
  const era = agentEra(agentDir);
  if (era === "none") return null;
  const file = era === "sqlite" ? join(agentDir, "agent", "openclaw-agent.sqlite") : join(agentDir, "sessions", "sessions.json");
  try {
    const st = statSync(file);
    return `${era}:${st.dev}:${st.ino}`;
  } catch {
    return null;
  }
}
