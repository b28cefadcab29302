// The strict check every command line passes before citty parses it. citty hands argv to
// node:util's parseArgs with `strict: false` and turns any `--no-x` into x=false, so a typo
// (`--formt json`) or a stray word was dropped and the command ran with its defaults. Here an
// unknown flag, a value on a switch, a missing value or an extra argument is a usage error
// (INVALID_PARAM, exit 2) naming the nearest valid flag, as the REST API does for parameters.
import type { ArgsDef } from "citty";
import { InsightsError } from "../base/errors.js";

/** A bad command line: the message says what is wrong, `hint` where to look. */
export class UsageError extends InsightsError {
  constructor(
    message: string,
    readonly hint: string,
    details: Record<string, unknown> = {},
  ) {
    super("INVALID_PARAM", message, details);
    this.name = "UsageError";
  }
}

type Kind = "string" | "boolean";

interface FlagTable {
  /** Long names (as typed after `--`) and single-letter aliases (after `-`), to their kind. */
  long: Map<string, Kind>;
  short: Map<string, Kind>;
  /** The names a user should be offered, with their dashes: `--format`, `-o`. */
  shown: string[];
  positionals: string[];
}

const camel = (s: string): string => s.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
const kebab = (s: string): string => s.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

function table(def: ArgsDef): FlagTable {
  const t: FlagTable = { long: new Map(), short: new Map(), shown: [], positionals: [] };
  for (const [name, arg] of Object.entries(def)) {
    if (arg.type === "positional") {
      t.positionals.push(name);
      continue;
    }
    const kind: Kind = arg.type === "boolean" ? "boolean" : "string";
    // citty accepts a flag under its kebab-case and camelCase spellings too.
    for (const n of new Set([name, kebab(name), camel(name)])) t.long.set(n, kind);
    t.shown.push(`--${kebab(name)}`);
    const alias = "alias" in arg ? arg.alias : undefined;
    const aliases = alias === undefined ? [] : Array.isArray(alias) ? alias : [alias];
    for (const a of aliases) {
      if (a.length === 1) {
        t.short.set(a, kind);
        t.shown.push(`-${a}`);
      } else t.long.set(a, kind);
    }
  }
  return t;
}

/**
 * Throws a UsageError unless every element of argv is a flag of `def` (with its value where it
 * takes one) or one of its positionals. `program` is how the command is named in messages
 * (`insightsctl snapshot`). --help and --version are the caller's business and not accepted here.
 */
export function checkArgv(argv: readonly string[], def: ArgsDef, program: string): void {
  const t = table(def);
  const hint = `See \`${program} --help\` for what it accepts.`;
  const unknown = (flag: string): never => {
    const near = nearest(flag, t.shown);
    const what = t.shown.length ? (near ? ` (did you mean ${near}?)` : "") : ` (${program} takes no flags)`;
    throw new UsageError(`unknown flag ${flag} for ${program}${what}`, hint, { param: flag, ...(near ? { suggestion: near } : {}) });
  };
  const needsValue = (flag: string): never => {
    throw new UsageError(`${flag} needs a value`, hint, { param: flag });
  };
  const positionals: string[] = [];

  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (a.startsWith("--")) {
      const eq = a.indexOf("=");
      const name = eq === -1 ? a.slice(2) : a.slice(2, eq);
      const value = eq === -1 ? undefined : a.slice(eq + 1);
      let kind = t.long.get(name);
      // `--no-x` turns a switch off; citty would accept it for any name, a switch is all it fits.
      if (kind === undefined && name.startsWith("no-") && t.long.get(name.slice(3)) === "boolean") {
        if (value !== undefined) throw new UsageError(`--${name} takes no value`, hint, { param: `--${name}` });
        continue;
      }
      if (kind === undefined) unknown(`--${name}`);
      kind = kind as Kind;
      if (kind === "boolean") {
        if (value !== undefined && value !== "true" && value !== "false") {
          throw new UsageError(`--${name} is a switch and takes no value (got "${value}")`, hint, { param: `--${name}` });
        }
      } else if (value === undefined) {
        if (i + 1 >= argv.length) needsValue(`--${name}`);
        i++; // the next word is the value, whatever it looks like (`-o -` means stdout)
      }
      continue;
    }
    if (a.startsWith("-") && a.length > 1) {
      // A group of single-letter flags (-fn 20); a letter that takes a value ends the group,
      // the rest of the word (or the next word) being its value.
      for (let j = 1; j < a.length; j++) {
        const letter = a[j] as string;
        const kind = t.short.get(letter);
        if (kind === undefined) unknown(`-${letter}`);
        if (kind === "string") {
          if (j === a.length - 1) {
            if (i + 1 >= argv.length) needsValue(`-${letter}`);
            i++;
          }
          break;
        }
      }
      continue;
    }
    positionals.push(a);
  }

  if (positionals.length > t.positionals.length) {
    const extra = positionals[t.positionals.length] as string;
    throw new UsageError(`unexpected argument "${extra}" for ${program}`, hint, { param: extra });
  }
}

/** The candidate closest to `given` when it is close enough to be a plausible typo, else null. */
export function nearest(given: string, candidates: readonly string[]): string | null {
  const bare = (s: string): string => s.replace(/^-+/, "").toLowerCase();
  const g = bare(given);
  if (!g) return null;
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = editDistance(g, bare(c));
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  // Up to one edit in three characters (a one- or two-letter typo is too short to guess from);
  // else a unique prefix (`--out`).
  if (best !== null && g.length >= 3 && bestDistance <= Math.max(1, Math.floor(g.length / 3))) return best;
  const prefixed = candidates.filter((c) => bare(c).startsWith(g) && bare(c).length > 1);
  return prefixed.length === 1 ? (prefixed[0] as string) : null;
}

/** Edits (insert, delete, substitute, swap two neighbours) that turn a into b. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  const at = (i: number, j: number): number => (d[i] as number[])[j] as number;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, at(i - 2, j - 2) + 1);
      (d[i] as number[])[j] = v;
    }
  }
  return at(a.length, b.length);
}
