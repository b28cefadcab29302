// Codex as a provider (design §9): one install per Codex home, found again on every pass so a new
// $CODEX_HOME or a first ~/.codex appears without a restart. Its own log (logs_2.sqlite, written
// by the TUI and its app-server) feeds recentLogs.
import { statSync } from "node:fs";
import type { Pricer } from "../../pricing/pricer.js";
import type { Discovery, Install, Provider, ResponseEvent, SourceReader } from "../contract.js";
import { priceResponse } from "../price-response.js";
import { ok, type SourceResult } from "../result.js";
import { discoverCodexInstalls } from "./discover.js";
import { openCodexLogs } from "./logs.js";
import { openCodexReader } from "./reader.js";

export interface CodexProviderOptions {
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

  price(_install: Install, r: ResponseEvent): number | null {
    return priceResponse(this.options.pricer, r);
  }
}
