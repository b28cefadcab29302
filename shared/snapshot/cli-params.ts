// The CLI's snapshot parameters (spec: CLI defaults standard, png, 6h, dark, en) and --quick
// (design §8): a compact PNG from what is already collected. Explicit flags still win over what
// --quick implies.
import { parseSnapshotParams, SNAPSHOT_RULES, type SnapshotParams } from "./params.js";

interface CliSnapshotFlags {
  detail?: string | undefined;
  format?: string | undefined;
  range?: string | undefined;
  theme?: string | undefined;
  lang?: string | undefined;
  quick?: boolean | undefined;
}

export function cliSnapshotParams(flags: CliSnapshotFlags): SnapshotParams {
  const rules = SNAPSHOT_RULES.cli;
  const defaults = flags.quick ? { ...rules.defaults, detail: "compact" as const, format: "png" as const } : rules.defaults;
  const { quick: _quick, ...given } = flags;
  return parseSnapshotParams(given, { ...rules, defaults });
}
