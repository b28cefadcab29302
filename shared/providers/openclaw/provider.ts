// OpenClaw as a provider (design §3): one install per agent directory in the state dir, read
// through agent-data.ts in whichever storage era it uses. The last good read of the state dir
// (config, gateway port, log file, model table) is kept for the gateway-side collectors.
import { statSync } from "node:fs";
import { join } from "node:path";
import type { Discovery, Install, Provider, ResponseEvent, SourceReader, WatchTarget } from "../contract.js";
import { ok, SourceError, type SourceResult } from "../result.js";
import { openAgentData } from "./agent-data.js";
import { transcriptSessionId } from "./legacy-files.js";
import { openclawReader } from "./reader.js";
import { agentEra, findModel, readOpenClawState, type ModelTable, type OpenClawEnv, type OpenClawState } from "./state-dir.js";

const DB_FILES = new Set(["openclaw-agent.sqlite", "openclaw-agent.sqlite-wal", "openclaw-agent.sqlite-journal"]);

interface OpenClawProviderOptions {
  stateDir: string;
  env?: OpenClawEnv;
}

export class OpenClawProvider implements Provider {
  readonly name = "openclaw" as const;
  private current: OpenClawState | null = null;
  private currentError: SourceError | null = null;

  constructor(private readonly options: OpenClawProviderOptions) {}

  /** The last good read of the state dir and its config, or null while it cannot be read. */
  get state(): OpenClawState | null {
    return this.current;
  }

  get error(): SourceError | null {
    return this.currentError;
  }

  get models(): ModelTable {
    return this.current?.models ?? new Map();
  }

  discover(): Discovery {
    const read = readOpenClawState({ stateDir: this.options.stateDir, env: this.options.env ?? {} });
    if (!read.ok) {
      this.current = null;
      this.currentError = read.error;
      return { installs: [], error: read.error, warnings: read.warnings };
    }
    this.current = read.value;
    this.currentError = null;
    // A config-only agent with no directory has nothing to read yet.
    const installs: Install[] = read.value.agents
      .filter((a) => a.hasDir)
      .map((a) => ({ provider: "openclaw", id: `agent:${a.id}`, localId: a.id, name: a.name, tags: ["openclaw", a.id], dir: a.dir }));
    return { installs, error: null, warnings: read.warnings };
  }

  /**
   * dev:inode of what defines the agent's era: the database, or in the file era the `sessions`
   * dir (not `sessions.json`: the gateway replaces that file by a rename after every turn, and a
   * reopened reader would walk it and stat every transcript again; the reader sees a new
   * `sessions.json` by its change stamp). null when neither exists.
   */
  identity(install: Install): string | null {
    const era = agentEra(install.dir);
    if (era === "none") return null;
    const file = era === "sqlite" ? join(install.dir, "agent", "openclaw-agent.sqlite") : join(install.dir, "sessions");
    try {
      const st = statSync(file);
      return `${era}:${st.dev}:${st.ino}`;
    } catch {
      return null;
    }
  }

  open(install: Install): SourceResult<SourceReader> {
    const stateDir = this.current?.stateDir ?? this.options.stateDir;
    const opened = openAgentData(stateDir, install.localId, { models: this.models });
    if (!opened.ok) return opened;
    return ok(openclawReader(opened.value), opened.warnings);
  }

  /**
   * Both eras' places, whichever is in use now, so an agent migrated from files to SQLite is still
   * watched: the database and its WAL (a commit writes the WAL, a checkpoint the database; a
   * rollback-journal database writes its journal), and the sessions dir's transcripts and index.
   */
  watchTargets(install: Install): WatchTarget[] {
    return [
      { dir: join(install.dir, "agent"), depth: 0, match: (name) => DB_FILES.has(name) },
      { dir: join(install.dir, "sessions"), depth: 0, match: (name) => name === "sessions.json" || transcriptSessionId(name) !== null },
    ];
  }

  /** The config's model table prices what the gateway did not record, as its own reports do. */
  price(_install: Install, r: ResponseEvent): number | null {
    const cost = findModel(this.models, r.modelProvider, r.model)?.cost;
    const u = r.usage;
    if (!cost || !u) return null;
    return (u.input * cost.input + u.output * cost.output + u.cacheRead * cost.cacheRead + u.cacheWrite * cost.cacheWrite) / 1e6;
  }
}
