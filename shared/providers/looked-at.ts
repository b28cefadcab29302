// Where a provider looked for its data and what it found there (`insightsctl status`, /health), so
// a user can see where data was expected (docs/providers.md "Where each provider looks"). Each
// provider lists its own candidates (its discover.ts); this is the shape and the one stat.
import { statSync, type Stats } from "node:fs";
import { isAbsolute } from "node:path";
import type { ProviderName } from "./contract.js";

export interface LookedAt {
  provider: ProviderName;
  dir: string;
  /** Where the path came from: `config <option>`, `env <VAR>`, or `default`. */
  from: string;
  /** Named by the user (config or the runtime's own env var): one that does not exist stops the start (exit 2). */
  named: boolean;
  /** data: the runtime wrote there; empty: the dir exists, nothing written yet; missing; not-a-directory; not-absolute (a relative path is not guessed). */
  found: "data" | "empty" | "missing" | "not-a-directory" | "not-absolute";
}

/** What is at `dir` (`hasData` says whether the runtime wrote there). A few stat calls, no reading. */
export function lookAt(dir: string, hasData: (dir: string) => boolean): LookedAt["found"] {
  if (!isAbsolute(dir)) return "not-absolute";
  let st: Stats;
  try {
    st = statSync(dir);
  } catch {
    return "missing";
  }
  if (!st.isDirectory()) return "not-a-directory";
  return hasData(dir) ? "data" : "empty";
}

/** A named dir that cannot be read: the start refuses it (a typo must not silently become the demo). */
export function isUnusable(l: LookedAt): boolean {
  return l.named && l.found !== "data" && l.found !== "empty";
}
