// The fallback path when our own socket cannot get an answer: run
// `openclaw gateway call <method> --json --params <json>` and parse what it prints.
//
// CLI facts (2026.9.6, run by hand): on success stdout is the method's payload as JSON, exit 0.
// On failure stdout is an envelope {ok:false, error:{type, ...}} — `gateway_transport_error`
// {kind, message, reason} when the gateway is unreachable (exit 1), `gateway_request_error`
// {code, message, retryable} when the method failed (exit 1), `cli_error` {message} for local
// problems such as an invalid config (exit 0!). So the envelope, not the exit code, decides.
// A cold CLI start takes about 1.4 s, which is why this is a fallback and never the first try.
import { performance } from "node:perf_hooks";
import type { Clock } from "../../../base/clock.js";
import { systemClock } from "../../../base/clock.js";
import { SourceError, fail, ok } from "../../result.js";
import { runCommand, unknownOptionLine, unsupportedRuntimeLine } from "../../run-command.js";
import type { SourceResult, SourceWarning } from "../../result.js";
import { buildChannelsProbe, probeChannels } from "./channels.js";
import type { ChannelsProbe, ChannelsProbeOptions, RpcCaller } from "./channels.js";
import { rpcErrorToSourceError } from "./rpc-client.js";
import type { RpcReply } from "./rpc-client.js";

export interface RunResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** Set when the program could not be started at all (ENOENT, EACCES). */
  spawnError?: NodeJS.ErrnoException;
}

/** Runs a program with arguments (no shell) and a hard timeout. Injected in tests. */
export type CommandRunner = (file: string, args: readonly string[], opts: { timeoutMs: number; env?: NodeJS.ProcessEnv }) => Promise<RunResult>;

/**
 * The real runner: own process group killed at the deadline (see run-command.ts for why a plain
 * kill of the launcher is not enough), output capped so a runaway CLI cannot eat memory.
 */
export const spawnRunner: CommandRunner = async (file, args, { timeoutMs, env }) => {
  const r = await runCommand(file, args, { timeoutMs, ...(env ? { env } : {}) });
  return { exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr, timedOut: r.timedOut, ...(r.spawnError ? { spawnError: r.spawnError } : {}) };
};

export interface CliFallbackOptions {
  /** The openclaw executable (name on PATH or absolute path). */
  openclawBin?: string;
  /** Extra arguments placed before `gateway` (e.g. a script path when the bin is node). */
  binArgs?: readonly string[];
  runner?: CommandRunner;
  /** Whole CLI run, cold start included. */
  timeoutMs?: number;
  /** Passed as OPENCLAW_GATEWAY_PORT; otherwise the CLI resolves the gateway from its own config. */
  port?: number;
  /** Env for the CLI, e.g. OPENCLAW_STATE_DIR / OPENCLAW_CONFIG_PATH / OPENCLAW_GATEWAY_TOKEN (secrets go here, never in argv). */
  env?: NodeJS.ProcessEnv;
  clock?: Clock;
  /** Monotonic ms for measuring the run. */
  monotonicNow?: () => number;
}

type Json = Record<string, unknown>;
function isRecord(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The JSON document in CLI stdout; tolerates banner lines before it. */
export function extractJson(stdout: string): unknown {
  const text = stdout.trim();
  if (!text) throw new Error("empty output");
  try {
    return JSON.parse(text);
  } catch {
    // Some builds print a banner or a config warning before the JSON: start at the first line
    // that opens an object or array.
    const lines = text.split("\n");
    for (let i = 0; i < lines.length; i++) {
      const l = lines[i] ?? "";
      if (l.startsWith("{") || l.startsWith("[")) {
        try {
          return JSON.parse(lines.slice(i).join("\n"));
        } catch {
          // keep looking
        }
      }
    }
    throw new Error("no JSON document in output");
  }
}

function envelopeError(env: Json, method: string): SourceError | null {
  if (env.ok !== false || !isRecord(env.error) || typeof env.error.type !== "string") return null;
  const e = env.error;
  const message = typeof e.message === "string" ? e.message : "(no message)";
  switch (e.type) {
    case "gateway_transport_error":
      return new SourceError(e.kind === "timeout" ? "timeout" : "unreachable", `openclaw gateway call ${method}: ${message}`, { via: "cli", cliErrorType: e.type, ...(typeof e.kind === "string" ? { cliKind: e.kind } : {}) });
    case "gateway_request_error": {
      const err = rpcErrorToSourceError(
        {
          code: typeof e.code === "string" ? e.code : "UNKNOWN",
          message,
          ...(e.details !== undefined ? { details: e.details } : {}),
          ...(typeof e.retryable === "boolean" ? { retryable: e.retryable } : {}),
        },
        `openclaw gateway call ${method}`,
      );
      return err;
    }
    default:
      // A CLI that does not know one of our options is a version mismatch, not broken data.
      if (unknownOptionLine(message)) return new SourceError("unsupported", `openclaw gateway call ${method}: ${message}`, { via: "cli", cliErrorType: e.type });
      // cli_error and anything newer: the CLI itself could not do the job (bad config, ...).
      return new SourceError("corrupt", `openclaw gateway call ${method}: ${message}`, { via: "cli", cliErrorType: e.type });
  }
}

/** One method through the CLI. `latencyMs` is the whole CLI run, not a socket round trip. */
export async function callViaCli<T = unknown>(method: string, params: unknown, options: CliFallbackOptions = {}): Promise<SourceResult<RpcReply<T>>> {
  const { openclawBin = "openclaw", binArgs = [], runner = spawnRunner, timeoutMs = 15_000, port, env } = options;
  const mono = options.monotonicNow ?? (() => performance.now());
  // The CLI gets most of the budget for the RPC itself and the rest for its cold start.
  const rpcTimeout = Math.max(1000, timeoutMs - 3000);
  // The port goes in the environment, not as --port: 2026.7.1's `gateway call` has no --port and
  // exits 1 with `OpenClaw does not recognize option "--port".`; both versions honour the variable.
  const args = [...binArgs, "gateway", "call", method, "--json", "--params", JSON.stringify(params ?? {}), "--timeout", String(rpcTimeout)];
  const runEnv = port !== undefined ? { ...(env ?? process.env), OPENCLAW_GATEWAY_PORT: String(port) } : env;
  const where = `${openclawBin} gateway call ${method}`;
  try {
    const started = mono();
    const r = await runner(openclawBin, args, { timeoutMs, ...(runEnv ? { env: runEnv } : {}) });
    const ms = mono() - started;
    if (r.spawnError) {
      const code = r.spawnError.code;
      if (code === "ENOENT") return fail(new SourceError("missing", `${openclawBin}: not found (is openclaw installed and on PATH?)`, { where, via: "cli" }, { cause: r.spawnError }));
      if (code === "EACCES" || code === "EPERM") return fail(new SourceError("permission", `${openclawBin}: not executable`, { where, via: "cli" }, { cause: r.spawnError }));
      return fail(new SourceError("unreachable", `${where}: ${r.spawnError.message}`, { where, via: "cli" }, { cause: r.spawnError }));
    }
    if (r.timedOut) return fail(new SourceError("timeout", `${where}: no answer within ${timeoutMs} ms`, { where, via: "cli", timeoutMs }));
    let doc: unknown;
    try {
      doc = extractJson(r.stdout);
    } catch (err) {
      const runtime = unsupportedRuntimeLine(r.stderr);
      if (runtime) return fail(new SourceError("unsupported", `${where}: the CLI cannot run on the Node first on its PATH: ${runtime}`, { where, via: "cli", exitCode: r.exitCode }));
      const option = unknownOptionLine(r.stderr);
      if (option) return fail(new SourceError("unsupported", `${where}: this openclaw CLI is too old or too new for our call: ${option}`, { where, via: "cli", exitCode: r.exitCode }));
      const firstErrLine = r.stderr.trim().split("\n")[0] ?? "";
      return fail(new SourceError("corrupt", `${where}: exit ${r.exitCode ?? "signal"}, ${(err as Error).message}${firstErrLine ? ` (${firstErrLine})` : ""}`, { where, via: "cli", exitCode: r.exitCode }));
    }
    if (isRecord(doc)) {
      const e = envelopeError(doc, method);
      if (e) return fail(e);
    }
    if (r.exitCode !== 0) return fail(new SourceError("corrupt", `${where}: exit ${r.exitCode ?? "signal"} with a non-error document`, { where, via: "cli", exitCode: r.exitCode }));
    return ok({ payload: doc as T, latencyMs: ms });
  } catch (err) {
    return fail(new SourceError("corrupt", `${where}: ${err instanceof Error ? err.message : String(err)}`, { where, via: "cli" }, { cause: err }));
  }
}

/** The channels probe through the CLI: two CLI runs in parallel, parsed like the RPC path. */
export async function probeChannelsViaCli(options: CliFallbackOptions & { liveProbe?: boolean } = {}): Promise<SourceResult<ChannelsProbe>> {
  const clock = options.clock ?? systemClock;
  const observedAt = clock.now();
  const statusParams = options.liveProbe ? { probe: true } : {};
  const [status, health] = await Promise.all([callViaCli("channels.status", statusParams, options), callViaCli("health", {}, options)]);
  if (!status.ok) return fail(status.error, status.warnings);
  const warnings: SourceWarning[] = [];
  const value = buildChannelsProbe(
    {
      status: status.value.payload,
      health: health.ok ? ok(health.value.payload) : fail(health.error),
      serverVersion: null,
      rpcLatencyMs: null,
      healthLatencyMs: null,
      source: "cli",
      observedAt,
    },
    warnings,
  );
  return ok(value, warnings);
}

/**
 * Socket first, CLI when the socket path fails. When both fail, the socket's error is returned
 * (it is the primary path) with the CLI's failure appended to its message.
 */
export async function probeChannelsWithFallback(
  client: RpcCaller,
  options: { rpc?: ChannelsProbeOptions; cli?: CliFallbackOptions; useCli?: boolean } = {},
): Promise<SourceResult<ChannelsProbe>> {
  const primary = await probeChannels(client, options.rpc);
  if (primary.ok || options.useCli === false) return primary;
  const viaCli = await probeChannelsViaCli({ ...options.cli, ...(options.rpc?.liveProbe ? { liveProbe: true } : {}), ...(options.rpc?.clock ? { clock: options.rpc.clock } : {}) });
  if (viaCli.ok) {
    const warnings: SourceWarning[] = [...primary.warnings, ...viaCli.warnings];
    return ok({ ...viaCli.value, serverVersion: client.hello?.serverVersion ?? null }, warnings);
  }
  const e = primary.error;
  return fail(new SourceError(e.kind, `${e.message}; CLI fallback also failed: ${viaCli.error.message}`, { ...e.details, cliErrorKind: viaCli.error.kind }, { cause: e }), primary.warnings);
}
