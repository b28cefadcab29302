// Codex as a provider (design §9): one install per Codex home, found again on every pass so a new
// $CODEX_HOME or a first ~/.codex appears without a restart. Its own log (logs_2.sqlite, written
// by the TUI and its app-server) feeds recentLogs.
import { statSync } from "node:fs";
import { join } from "node:path";
import type { Pricer } from "../../pricing/pricer.js";
import type { Discovery, Install, Provider, ResponseEvent, SourceReader, WatchTarget } from "../contract.js";
import { priceResponse } from "../price-response.js";
import { ok, type SourceResult } from "../result.js";
import { discoverCodexInstalls } from "./discover.js";
import { ARCHIVED_DIR, SESSIONS_DIR } from "./files.js";
import { openCodexLogs } from "./logs.js";
import { openCodexReader } from "./reader.js";

/** `YYYY`, `YYYY/MM`, `YYYY/MM/DD`: the only folders rollouts live in. */
const dateDirs = (rel: string): boolean => /^\d{4}(\/\d{2}(\/\d{2})?)?$/.test(rel);

interface CodexProviderOptions {
  env: Readonly<Record<string, string | undefined>>;
  home: string;
  /** config codexDirs: read these too; null: $CODEX_HOME or ~/.codex only. */
  dirs: readonly string[] | null;
  pricer: Pricer;
}

export class CodexProvider implements Provider {
  readonly name = "codex" as const;

  constructor(private readonly options: CodexProviderOptions) {}

  discover(): Discovery {
    const found = discoverCodexInstalls({ env: this.options.env, home: this.options.home, dirs: this.options.dirs });
    return { installs: found.installs, error: null, warnings: found.problems.map((p) => ({ code: "UNKNOWN_FORMAT", message: p.message, where: p.dir })) };
  }

  /** The home's inode: a home removed and made anew is a new install. */
  identity(install: Install): string | null {
    try {
      const st = statSync(install.dir);
      return st.isDirectory() ? `${st.dev}:${st.ino}` : null;
    } catch {
      return null;
    }
  }

  open(install: Install): SourceResult<SourceReader> {
    const opened = openCodexReader(install);
    if (!opened.ok) return opened;
    const reader = opened.value;
    const logs = openCodexLogs(install.dir);
    return ok(
      {
        listTranscripts: () => reader.listTranscripts(),
        listTranscriptsPaced: async (pause) => (reader.listTranscriptsPaced ? reader.listTranscriptsPaced(pause) : reader.listTranscripts()),
        transcriptsAt: (paths) => reader.transcriptsAt?.(paths) ?? null,
        readTranscript: (ref, cursor, limit) => reader.readTranscript(ref, cursor, limit),
        readMessages: (ref) => reader.readMessages(ref),
        liveSessions: () => reader.liveSessions(),
        appVersion: () => reader.appVersion(),
        changeStamp: () => reader.changeStamp(),
        readLogs: (cursor, limit) => logs.read(cursor, limit),
        close: () => {
          logs.close();
          reader.close();
        },
      },
      opened.warnings,
    );
  }

  /**
   * The rollouts: `sessions/YYYY/MM/DD/` (a new day's folders are picked up as they appear) and
   * `archived_sessions/` (flat in 0.169, date folders in older layouts), where an archived
   * session moves.
   */
  watchTargets(install: Install): WatchTarget[] {
    const rollout = (name: string): boolean => name.endsWith(".jsonl");
    return [
      { dir: join(install.dir, SESSIONS_DIR), depth: 3, enter: dateDirs, match: rollout },
      { dir: join(install.dir, ARCHIVED_DIR), depth: 3, enter: dateDirs, match: rollout },
    ];
  }

  price(_install: Install, r: ResponseEvent): number | null {
    return priceResponse(this.options.pricer, r);
  }
}
