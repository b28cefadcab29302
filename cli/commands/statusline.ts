// `insightsctl statusline`: Claude Code's status line (docs/statusline.md), and its install and
// uninstall in settings.json. The status line itself is cli/statusline/run.ts, which the bin runs
// straight from its bundle without loading citty; this command is what `--help` and `install` go
// through.
import { defineCommand } from "citty";
import { DEFAULT_FORMAT, PLAIN_LINE } from "../../shared/statusline/render.js";
import { done, statusline } from "../statusline/run.js";

async function installCommand(action: "install" | "uninstall"): Promise<void> {
  const { install, uninstall, shellQuote } = await import("../statusline/install.js");
  const { say, fail } = await import("../output.js");
  const { realpathSync } = await import("node:fs");
  try {
    // This very insightsctl, by absolute paths: Claude Code's shell may have another PATH.
    const self = `${shellQuote(process.execPath)} ${shellQuote(realpathSync(process.argv[1] as string))}`;
    const r = action === "install" ? install(process.env, self) : uninstall(process.env, self);
    const said: Record<typeof r.action, string> = {
      installed: `installed the status line in ${r.file}`,
      chained: `installed the status line in ${r.file}, after your own (${r.previous ?? ""}), whose output comes first`,
      already: `the status line is already installed in ${r.file}`,
      updated: `updated the status line in ${r.file} to this insightsctl (it was: ${r.previous ?? ""})`,
      restored: `removed the status line from ${r.file}; your own is back (${r.previous ?? ""})`,
      removed: `removed the status line from ${r.file}`,
      none: `no gateway-insights status line in ${r.file}: nothing to do`,
    };
    say(said[r.action]);
    if (r.backup) say(`a copy of the file as it was: ${r.backup}`);
  } catch (err) {
    fail(err);
  }
}

export default defineCommand({
  meta: { name: "statusline", description: "Claude Code's status line: reads its JSON on stdin, prints one line, keeps the plan's windows (install: add it to settings.json)" },
  args: {
    action: { type: "positional", required: false, description: "install (add it to Claude Code's settings.json) or uninstall (put back what was there)", valueHint: "install|uninstall" },
    format: { type: "string", default: DEFAULT_FORMAT, description: "The parts, in order: model, session, today, 5h, week, context", valueHint: "parts" },
    color: { type: "string", default: "auto", description: "auto (a terminal, or Claude Code's input), always or never; NO_COLOR turns auto off", valueHint: "auto|always|never" },
    uninstall: { type: "boolean", description: "The same as `statusline uninstall`" },
    chain: { type: "string", description: "A status-line command to run first with the same input (install sets it to the one you had)", valueHint: "command" },
  },
  async run({ args }) {
    if (args.uninstall || args.action === "uninstall") return installCommand("uninstall");
    if (args.action === "install") return installCommand("install");
    try {
      if (args.action !== undefined) return done(`insightsctl statusline: unknown action "${args.action}" (install or uninstall)`);
      await statusline({ format: args.format, color: args.color, chain: args.chain });
    } catch {
      // Never a failed status line: whatever went wrong, a plain line and exit 0.
      done(PLAIN_LINE);
    }
  },
});
