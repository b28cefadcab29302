// Claude Code as a provider (design §9): one install per config dir, found again on every pass
// so a new CLAUDE_CONFIG_DIR or a first ~/.claude appears without a restart.
import { statSync } from "node:fs";
import { join } from "node:path";
import type { Pricer } from "../../pricing/pricer.js";
import type { Discovery, Install, Provider, ResponseEvent, SourceReader, WatchTarget } from "../contract.js";
import { priceResponse } from "../price-response.js";
import type { SourceResult } from "../result.js";
import { discoverClaudeCodeInstalls } from "./discover.js";
import { openClaudeCodeReader } from "./reader.js";

interface ClaudeCodeProviderOptions {
  env: Readonly<Record<string, string | undefined>>;
  home: string;
  /** config claudeCodeDirs: exactly these dirs; null: $CLAUDE_CONFIG_DIR or the defaults. */
  dirs: readonly string[] | null;
  pricer: Pricer;
}

export class ClaudeCodeProvider implements Provider {
  readonly name = "claude-code" as const;

  constructor(private readonly options: ClaudeCodeProviderOptions) {}

  discover(): Discovery {
    const found = discoverClaudeCodeInstalls({ env: this.options.env, home: this.options.home, dirs: this.options.dirs });
    // A configured dir that is not (yet) an install is not an error of the provider as a whole.
    return { installs: found.installs, error: null, warnings: found.problems.map((p) => ({ code: "UNKNOWN_FORMAT", message: p.message, where: p.dir })) };
  }

  /** The install dir's inode: a dir removed and made anew is a new install. */
  identity(install: Install): string | null {
    try {
      const st = statSync(join(install.dir, "projects"));
      return `${st.dev}:${st.ino}`;
    } catch {
      try {
        const st = statSync(install.dir);
        return st.isDirectory() ? `${st.dev}:${st.ino}` : null;
      } catch {
        return null;
      }
    }
  }

  open(install: Install): SourceResult<SourceReader> {
    return openClaudeCodeReader(install);
  }

  /**
   * `projects/<slug>/<sessionId>.jsonl` and `projects/<slug>/<sessionId>/subagents/agent-*.jsonl`
   * (the session dir is watched only to see its `subagents/` appear; its `tool-results/` is not
   * entered), and `sessions/<pid>.json`, which says which processes run.
   */
  watchTargets(install: Install): WatchTarget[] {
    return [
      {
        dir: join(install.dir, "projects"),
        depth: 3,
        enter: (rel) => {
          const parts = rel.split("/");
          return parts.length <= 2 || (parts.length === 3 && parts[2] === "subagents");
        },
        match: (name) => name.endsWith(".jsonl"),
      },
      { dir: join(install.dir, "sessions"), depth: 0, match: (name) => name.endsWith(".json") },
    ];
  }

  price(_install: Install, r: ResponseEvent): number | null {
    return priceResponse(this.options.pricer, r);
  }

  /** Transcripts name the model of each response but not its window: the price data set lists it. */
  contextWindow(model: string): number | null {
    return this.options.pricer.contextWindow(model);
  }
}
