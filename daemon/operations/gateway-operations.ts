// Gateway control (mutations restartGateway and updateGateway): runs the gateway's CLI (config
// openclawCommand) with the arguments its gateway capability declares, with a timeout, one
// operation at a time, and keeps the tail of its output for the caller. Who asked is written to
// the daemon log before and after, so every operation is audited.
import type { Clock } from "../../shared/base/clock.js";
import { InsightsError } from "../../shared/base/errors.js";
import type { Logger } from "../../shared/base/log/logger.js";
import type { GatewayOperationName } from "../../shared/providers/contract.js";
import { runCommand } from "../../shared/providers/run-command.js";

export interface OperationResult {
  ok: boolean;
  message: string;
  output: string;
  durationMs: number;
}

export type OperationName = GatewayOperationName;

interface GatewayOperationsOptions {
  clock: Clock;
  logger: Logger;
  /** The gateway's CLI (config `openclawCommand`), looked up on PATH. */
  command: () => string;
  /** Its arguments per operation (the gateway capability's `operations.args`). */
  args: Readonly<Record<OperationName, readonly string[]>>;
  /** Environment for the CLI: OPENCLAW_STATE_DIR points it at the watched gateway. */
  env: () => NodeJS.ProcessEnv;
  /** Null when there is nothing to control (demo mode), with the reason. */
  refuse?: () => string | null;
  timeoutsMs?: Partial<Record<OperationName, number>>;
  /** Told when an operation ended (e.g. to re-check update availability after an update). */
  onFinished?: (name: OperationName, ok: boolean) => void;
}

const DEFAULT_TIMEOUT_MS: Record<OperationName, number> = { restart: 120_000, update: 600_000 };
/** The tail of the output kept for the result. */
const MAX_OUTPUT_BYTES = 64 * 1024;

export class GatewayOperations {
  private current: { name: OperationName; since: number } | null = null;

  constructor(private readonly options: GatewayOperationsOptions) {}

  get running(): { name: OperationName; since: number } | null {
    return this.current;
  }

  /** Runs one operation; OPERATION_IN_PROGRESS while another runs. Never throws for a failing command. */
  async run(name: OperationName, by: { auth: string; peer: string }): Promise<OperationResult> {
    const refusal = this.options.refuse?.();
    if (refusal) return { ok: false, message: refusal, output: "", durationMs: 0 };
    if (this.current) {
      throw new InsightsError("OPERATION_IN_PROGRESS", `a gateway ${this.current.name} is already running (since ${new Date(this.current.since).toISOString()}); wait for it to finish`);
    }
    const { clock, logger } = this.options;
    const started = clock.now();
    this.current = { name, since: started };
    const command = this.options.command();
    const args = [...this.options.args[name]];
    logger.info("gateway operation requested", { operation: name, command: [command, ...args].join(" "), by: by.auth, peer: by.peer });
    try {
      const timeoutMs = this.options.timeoutsMs?.[name] ?? DEFAULT_TIMEOUT_MS[name];
      // The shared runner kills the whole process group at the deadline: the openclaw launcher
      // re-spawns itself, and killing only the launcher left its child running past the timeout.
      const r = await runCommand(command, args, { env: this.options.env(), timeoutMs, maxOutputBytes: MAX_OUTPUT_BYTES, keep: "tail" });
      const durationMs = clock.now() - started;
      const ok = r.exitCode === 0 && !r.timedOut && !r.spawnError;
      const message = r.spawnError
        ? `could not run ${command}: ${r.spawnError.message}`
        : r.timedOut
          ? `${command} ${args.join(" ")} did not finish within ${Math.round(timeoutMs / 1000)} s and was stopped`
          : ok
            ? `${command} ${args.join(" ")} finished`
            : `${command} ${args.join(" ")} exited with ${r.signal ? `signal ${r.signal}` : `code ${r.exitCode}`}`;
      logger[ok ? "info" : "warn"]("gateway operation finished", { operation: name, ok, exitCode: r.exitCode, timedOut: r.timedOut, durationMs, by: by.auth, peer: by.peer });
      this.options.onFinished?.(name, ok);
      return { ok, message, output: r.output, durationMs };
    } finally {
      this.current = null;
    }
  }
}
