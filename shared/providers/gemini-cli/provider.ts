// Gemini CLI as a provider (gemini-cli-format.md): one install per `.gemini` dir, found again on
// every pass so a first `~/.gemini` appears without a restart.
import { statSync } from "node:fs";
import { join } from "node:path";
import type { Pricer } from "../../pricing/pricer.js";
import type { Discovery, Install, Provider, ResponseEvent, SourceReader, WatchTarget } from "../contract.js";
import { priceResponse } from "../price-response.js";
import type { SourceResult } from "../result.js";
import { discoverGeminiInstalls } from "./discover.js";
import { isSessionFileName, isSessionId, TMP_DIR } from "./files.js";
import { geminiCliIdentity } from "./identity.js";
import { openGeminiReader, type GeminiReaderOptions } from "./reader.js";

export interface GeminiProviderOptions {
  env: Readonly<Record<string, string | undefined>>;
  home: string;
  /** config geminiCliDirs: read these too; null: $GEMINI_CLI_HOME/.gemini or ~/.gemini only. */
  dirs: readonly string[] | null;
  pricer: Pricer;
  reader?: GeminiReaderOptions;
}

export class GeminiCliProvider implements Provider {
  readonly name = geminiCliIdentity.name;

  constructor(private readonly options: GeminiProviderOptions) {}

  discover(): Discovery {
    const found = discoverGeminiInstalls(this.options);
    return { installs: found.installs, error: null, warnings: found.problems.map((p) => ({ code: "UNKNOWN_FORMAT", message: p.message, where: p.dir })) };
  }

  /** The dir's inode: a dir removed and made anew is a new install. */
  identity(install: Install): string | null {
    try {
      const st = statSync(install.dir);
      return st.isDirectory() ? `${st.dev}:${st.ino}` : null;
    } catch {
      return null;
    }
  }

  open(install: Install): SourceResult<SourceReader> {
    return openGeminiReader(install, this.options.reader);
  }

  /** `tmp/<slug>/chats/` and the sub-agent dirs in it (`<parentSessionId>/`). */
  watchTargets(install: Install): WatchTarget[] {
    const enter = (rel: string): boolean => {
      const parts = rel.split("/");
      return (parts.length === 1 && !rel.startsWith(".")) || (parts.length === 2 && parts[1] === "chats") || (parts.length === 3 && parts[1] === "chats" && isSessionId(parts[2] as string));
    };
    return [{ dir: join(install.dir, TMP_DIR), depth: 3, enter, match: isSessionFileName }];
  }

  /** Each response on its own: the Pro models' price changes above 200k prompt tokens per request. */
  price(_install: Install, r: ResponseEvent): number | null {
    return priceResponse(this.options.pricer, r);
  }

  contextWindow(model: string): number | null {
    return this.options.pricer.contextWindow(model);
  }
}
