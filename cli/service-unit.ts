// The systemd unit `insightsctl service install` writes: the shipped template
// (systemd/gateway-insights.service) with ExecStart pointing at this machine's node and insightsd,
// and for a system unit the account it runs as and system-wide directories.
import { join } from "node:path";

export type Scope = "user" | "system";

export const UNIT_NAME = "gateway-insights.service";

/** The account a system unit runs as. */
export interface RunAs {
  name: string;
  group: string;
  home: string;
}

interface UnitOptions {
  scope: Scope;
  /** Absolute path of the node binary. */
  node: string;
  /** Absolute path of insightsd's entry (dist/daemon/main.js). */
  daemon: string;
  /** Required for a system unit. */
  runAs?: RunAs;
}

/**
 * One word of a unit setting. systemd expands `%` specifiers and `$` variables everywhere and
 * splits on whitespace, so a path with any of those is quoted and escaped.
 */
function unitWord(path: string): string {
  const escaped = path.replace(/%/g, "%%").replace(/\$/g, "$$$$");
  if (!/[\s"'\\]/.test(escaped)) return escaped;
  return `"${escaped.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

function replaceLine(text: string, pattern: RegExp, replacement: string): string {
  if (!pattern.test(text)) throw new Error(`the unit template has no line matching ${pattern}`);
  return text.replace(pattern, replacement);
}

export function renderUnit(template: string, o: UnitOptions): string {
  let unit = replaceLine(template, /^ExecStart=.*$/m, `ExecStart=${unitWord(o.node)} ${unitWord(o.daemon)}`);
  // The template's header comment is about the template; say what this file is instead.
  unit = unit.replace(/^(#.*\n)+/, `# Written by \`insightsctl service install${o.scope === "system" ? " --system" : ""}\`; run it again after moving node or\n# gateway-insights. The template and its comments: systemd/${UNIT_NAME} in the package.\n`);
  if (o.scope === "user") return unit;

  const who = o.runAs;
  if (!who) throw new Error("a system unit needs the account it runs as");
  // A system unit: its own account, and the system's directories for state (/var/lib), the
  // control socket (/run) and config (/etc), created by systemd for that account. %h would be
  // root's home here, so the account's home is written out.
  unit = replaceLine(
    unit,
    /^\[Service\]$/m,
    [
      "[Service]",
      `User=${unitWord(who.name)}`,
      `Group=${unitWord(who.group)}`,
      "Environment=XDG_STATE_HOME=%S XDG_RUNTIME_DIR=%t XDG_CONFIG_HOME=%E",
      "RuntimeDirectory=gateway-insights",
      "ConfigurationDirectory=gateway-insights",
      // A system service may drop every capability (a user service may not: systemd refuses).
      "CapabilityBoundingSet=",
      "AmbientCapabilities=",
      "RemoveIPC=yes",
    ].join("\n"),
  );
  unit = replaceLine(unit, /^ReadWritePaths=%S\/gateway-insights %t$/m, "ReadWritePaths=%S/gateway-insights %t/gateway-insights");
  unit = replaceLine(unit, /^ReadWritePaths=-%h\/\.openclaw$/m, `ReadWritePaths=-${unitWord(join(who.home, ".openclaw"))}`);
  unit = replaceLine(unit, /^WantedBy=default\.target$/m, "WantedBy=multi-user.target");
  return unit;
}

/** Where the unit goes: the user's systemd config dir, or /etc/systemd/system. */
export function unitDir(scope: Scope, env: Record<string, string | undefined>, home: string): string {
  if (scope === "system") return "/etc/systemd/system";
  return join(env.XDG_CONFIG_HOME || join(home, ".config"), "systemd", "user");
}
