// Finds the command a command line names and runs it through citty, after the strict argv check
// (shared/config/argv.ts). Replaces citty's runMain, which takes an unknown command, flags before
// the command and `help` for usage errors of its own (exit 1, usage on stdout, no suggestion).
// Help goes to stdout (exit 0), plain unless stdout is a terminal; every mistake is
// `insightsctl: <what>` plus where to look, exit 2.
import { renderUsage, runCommand, type ArgsDef, type CommandDef, type CommandMeta, type Resolvable } from "citty";
import { checkArgv, nearest, UsageError } from "../shared/config/argv.js";
import { fail, say } from "./output.js";

// any: citty's CommandDef is generic over its args and a command tree mixes them (citty's own
// SubCommandsDef uses CommandDef<any> for the same reason).
type AnyCommand = CommandDef<any>;

async function resolve<T>(value: Resolvable<T> | undefined): Promise<T | undefined> {
  return typeof value === "function" ? await (value as () => T | Promise<T>)() : await value;
}

const isHelp = (a: string): boolean => a === "--help" || a === "-h";

interface Found {
  cmd: AnyCommand;
  /** The words that named it: ["insightsctl", "service", "install"]. */
  path: string[];
  rest: string[];
}

/**
 * Walks the subcommands `argv` names; throws a UsageError for a name that is not one. Stops at a
 * command without subcommands, at --help, or (for `help`) where the words end.
 */
async function find(root: AnyCommand, argv: string[], rootName: string, forHelp = false): Promise<Found> {
  let cmd = root;
  const path = [rootName];
  let rest = argv;
  for (;;) {
    const subs = await resolve(cmd.subCommands);
    if (!subs || Object.keys(subs).length === 0) return { cmd, path, rest };
    const names = Object.keys(subs);
    const word = rest[0];
    const program = path.join(" ");
    if (word === undefined) {
      if (forHelp) return { cmd, path, rest };
      throw new UsageError(`missing command${path.length > 1 ? ` for ${program}` : ""} (one of ${names.join(", ")})`, `See \`${program} --help\`.`);
    }
    if (isHelp(word)) return { cmd, path, rest };
    if (word.startsWith("-")) {
      throw new UsageError(`unknown flag ${word} before the command (flags go after it: \`${program} <command> ${word}\`)`, `See \`${program} --help\`.`, { param: word });
    }
    const next = subs[word];
    if (next === undefined) {
      const near = nearest(word, names);
      throw new UsageError(`unknown command "${word}"${near ? ` (did you mean ${near}?)` : ""}`, `See \`${program} --help\` for the commands.`, {
        param: word,
        ...(near ? { suggestion: near } : {}),
      });
    }
    cmd = (await resolve(next)) as AnyCommand;
    path.push(word);
    rest = rest.slice(1);
  }
}

async function printHelp(found: Found, version: string | undefined): Promise<void> {
  const meta = (await resolve(found.cmd.meta)) ?? {};
  // citty names a command by its parent's name and its own: give it the whole path.
  const parent: AnyCommand = { meta: { name: found.path.slice(0, -1).join(" "), ...(version ? { version } : {}) } satisfies CommandMeta };
  const cmd: AnyCommand = { ...found.cmd, meta: { ...meta, name: found.path[found.path.length - 1] as string } };
  // Loaded for help only (it imports node:util, whose every export loads with it).
  const { fitHelp } = await import("../shared/config/help-fit.js");
  say(fitHelp(await renderUsage(cmd, found.path.length > 1 ? parent : undefined), { bold: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR }));
}

/** Runs the command argv names under `root`; resolves when it is done (commands may exit themselves). */
export async function dispatch(root: AnyCommand, argv: string[]): Promise<void> {
  const rootMeta = (await resolve(root.meta)) ?? {};
  const rootName = rootMeta.name ?? "insightsctl";
  try {
    if (argv[0] === "--version" || argv[0] === "-v") {
      if (argv.length > 1) throw new UsageError(`unexpected argument "${argv[1]}" after ${argv[0]}`, `See \`${rootName} --help\`.`, { param: argv[1] });
      say(rootMeta.version ?? "");
      return;
    }
    if (argv[0] === "help") {
      // `help [command ...]`: the same text as `<command> --help`.
      const found = await find(root, argv.slice(1), rootName, true);
      const extra = found.rest.find((a) => !isHelp(a));
      if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}" for ${rootName} help`, `See \`${rootName} --help\`.`, { param: extra });
      await printHelp(found, rootMeta.version);
      return;
    }
    const found = await find(root, argv, rootName);
    const program = found.path.join(" ");
    // As citty does: --help anywhere before `--` asks for help rather than running anything.
    const end = found.rest.indexOf("--");
    if ((end === -1 ? found.rest : found.rest.slice(0, end)).some(isHelp)) {
      await printHelp(found, rootMeta.version);
      return;
    }
    const args = ((await resolve(found.cmd.args)) ?? {}) as ArgsDef;
    checkArgv(found.rest, args, program);
    await runCommand(found.cmd, { rawArgs: found.rest });
  } catch (err) {
    fail(err);
  }
}
