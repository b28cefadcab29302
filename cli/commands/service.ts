import { defineCommand } from "citty";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from "node:fs";
import { homedir, userInfo } from "node:os";
import { join } from "node:path";
import { UsageError } from "../../shared/config/argv.js";
import { errorMessage, InsightsError } from "../../shared/base/errors.js";
import { packageRoot } from "../../shared/base/package-root.js";
import { resolvePaths } from "../../shared/base/paths.js";
import { ControlClient } from "../control-client.js";
import { DAEMON_MAIN } from "../daemon-process.js";
import { fail, note, say } from "../output.js";
import { renderUnit, UNIT_NAME, unitDir, type RunAs, type Scope } from "../service-unit.js";

const install = defineCommand({
  meta: { name: "install", description: "Write the systemd unit for this node and insightsd, reload systemd and enable --now the service" },
  args: {
    user: { type: "boolean", description: "A user unit in ~/.config/systemd/user (default)" },
    system: { type: "boolean", description: "A system unit in /etc/systemd/system (run as root, e.g. with sudo); the daemon runs as --run-as" },
    "run-as": { type: "string", description: "The account a --system unit runs as (default: $SUDO_USER, else you)", valueHint: "user" },
    "dry-run": { type: "boolean", description: "Print the unit and where it would go; change nothing" },
    enable: { type: "boolean", default: true, description: "Enable and start the service", negativeDescription: "Only write the unit and reload systemd" },
  },
  async run({ args }) {
    try {
      if (args.user && args.system) throw new UsageError("--user and --system exclude each other", "See `insightsctl service install --help`.", { param: "--system" });
      if (args["run-as"] !== undefined && !args.system) throw new UsageError("--run-as is for a --system unit only", "See `insightsctl service install --help`.", { param: "--run-as" });
      const scope: Scope = args.system ? "system" : "user";
      // The daemon the unit runs is this installation's, with the node running this command:
      // systemd's PATH may hold another node, or none (nvm, a version manager).
      if (!existsSync(DAEMON_MAIN)) throw new InsightsError("START_FAILED", `${DAEMON_MAIN} does not exist; build first (\`npm run build\`)`);
      const node = realpathSync(process.execPath);
      const daemon = realpathSync(DAEMON_MAIN);
      const runAs = scope === "system" ? account(args["run-as"]) : undefined;
      const template = readFileSync(join(packageRoot(), "systemd", UNIT_NAME), "utf8");
      const unit = renderUnit(template, { scope, node, daemon, ...(runAs ? { runAs } : {}) });
      const file = join(unitDir(scope, process.env, process.env.HOME || homedir()), UNIT_NAME);

      if (args["dry-run"]) {
        note(`would write ${file}:`);
        process.stdout.write(unit);
        return;
      }
      const enable = args.enable !== false;
      if (enable && scope === "user") {
        // A daemon from `insightsctl start` holds the state dir: the service would be refused.
        const running = await ControlClient.tryConnect(resolvePaths().socketFile);
        if (running) {
          running.close();
          throw new InsightsError("ALREADY_RUNNING", "gateway-insights is already running outside systemd", {
            hint: "Stop it first (`insightsctl stop`), then run this again; or pass --no-enable to only write the unit.",
          });
        }
      }
      writeUnit(file, unit);
      say(`wrote ${file}`);
      const ctl = scope === "user" ? ["--user"] : [];
      systemctl([...ctl, "daemon-reload"], file);
      if (!enable) {
        say(`start it with: systemctl ${ctl.join(" ")}${ctl.length ? " " : ""}enable --now gateway-insights`);
        return;
      }
      systemctl([...ctl, "enable", "--now", UNIT_NAME], file);
      say(`enabled and started ${UNIT_NAME}`);
      if (scope === "user") {
        say(`  log:    journalctl --user -u gateway-insights -f   (or insightsctl logs -f)`);
        say(`  boot:   loginctl enable-linger ${userInfo().username}   keeps it running when you are logged out`);
      } else {
        say(`  log:    journalctl -u gateway-insights -f`);
        say(`  status: sudo -u ${runAs?.name} env XDG_RUNTIME_DIR=/run XDG_STATE_HOME=/var/lib XDG_CONFIG_HOME=/etc insightsctl status`);
      }
      const unseen = Object.keys(process.env).filter((k) => k.startsWith("INSIGHTS_") || k === "OPENCLAW_STATE_DIR");
      if (unseen.length) {
        note(`note: the service does not see this shell's ${unseen.join(", ")}; put them in ${scope === "user" ? "~/.config" : "/etc"}/gateway-insights/env (KEY=value lines)`);
      }
    } catch (err) {
      fail(err);
    }
  },
});

export default defineCommand({
  meta: { name: "service", description: "Run gateway-insights under systemd: service install [--user|--system] [--dry-run] [--no-enable]" },
  subCommands: { install },
});

/** Writes the unit atomically (a half-written unit would fail to load). */
function writeUnit(file: string, text: string): void {
  const dir = join(file, "..");
  try {
    mkdirSync(dir, { recursive: true });
    const tmp = `${file}.tmp-${process.pid}`;
    writeFileSync(tmp, text, { mode: 0o644 });
    renameSync(tmp, file);
  } catch (err) {
    const denied = (err as NodeJS.ErrnoException).code === "EACCES" || (err as NodeJS.ErrnoException).code === "EPERM";
    throw new InsightsError("OUTPUT_FAILED", `cannot write ${file}: ${errorMessage(err)}`, {
      file,
      hint: denied ? "A --system unit needs root: run it with sudo." : "Check that the directory can be created and written.",
    });
  }
}

/** Runs systemctl; a missing systemctl or a failure says what was done and what is left. */
function systemctl(args: string[], file: string): void {
  const r = spawnSync("systemctl", args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  const shown = `systemctl ${args.join(" ")}`;
  if (r.error) {
    const missing = (r.error as NodeJS.ErrnoException).code === "ENOENT";
    throw new InsightsError("START_FAILED", missing ? `${file} is written, but systemctl is not on PATH: is systemd running here?` : `${shown} could not run: ${r.error.message}`, {
      hint: missing
        ? "Without systemd (in a container, say) run the daemon with `insightsctl start` instead."
        : "Run the command yourself to see why.",
    });
  }
  if (r.status !== 0) {
    const why = `${r.stderr ?? ""}`.trim().split("\n").filter(Boolean).pop() ?? `exit code ${r.status}`;
    // No user bus (a container, `su`, an ssh session without a login manager): systemd cannot
    // run a user unit here at all, so its journal has nothing to say; the daemon runs without it.
    const noBus = args.includes("--user") && /connect to bus|No medium found|DBUS_SESSION_BUS_ADDRESS|XDG_RUNTIME_DIR/i.test(`${r.stderr ?? ""}`);
    throw new InsightsError("START_FAILED", `${shown} failed: ${why}`, {
      hint: noBus
        ? `${file} is written, but there is no systemd user session here: use \`insightsctl start\` here instead.`
        : args.includes("--user")
          ? "A user unit needs a user session (`systemctl --user status`); see `journalctl --user -u gateway-insights`."
          : "See `journalctl -u gateway-insights`.",
    });
  }
}

/** The account a system unit runs as, from the passwd database. */
function account(requested: string | undefined): RunAs {
  const name = requested ?? (process.env.SUDO_USER || userInfo().username);
  const hint = "Pass --run-as with an existing account (the one that runs OpenClaw).";
  if (name === "root" && requested !== "root") {
    throw new UsageError("the service would run as root; say which account should run it", `${hint} Use --run-as root only if OpenClaw itself runs as root.`, { param: "--run-as" });
  }
  const r = spawnSync("getent", ["passwd", name], { encoding: "utf8" });
  const fields = r.status === 0 ? r.stdout.trim().split(":") : [];
  if (fields.length < 7) throw new UsageError(`no account named "${name}"`, hint, { param: "--run-as" });
  const g = spawnSync("getent", ["group", fields[3] as string], { encoding: "utf8" });
  const group = g.status === 0 ? (g.stdout.split(":")[0] ?? fields[3]) : fields[3];
  return { name, group: group as string, home: fields[5] as string };
}
