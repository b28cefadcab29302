// The server flags shared by `insightsd` and `insightsctl start|restart` (design §8), and their
// mapping onto config keys. Flags win over env and config.json.
import type { ArgsDef } from "citty";
import type { Flags } from "./load.js";

export const serverArgs = {
  port: { type: "string", description: "HTTP port (default 41080)", valueHint: "port" },
  host: { type: "string", description: "HTTP bind address (default 127.0.0.1)", valueHint: "addr" },
  auth: {
    type: "boolean",
    default: true,
    description: "Require the API token",
    negativeDescription: "Disable authentication; only loopback peers are then served",
  },
  "openclaw-dir": { type: "string", description: "OpenClaw state dir (default $OPENCLAW_STATE_DIR or ~/.openclaw)", valueHint: "dir" },
  "log-level": { type: "string", description: "trace, debug, info, warn or error", valueHint: "level" },
} as const satisfies ArgsDef;

interface ServerArgValues {
  port?: string | undefined;
  host?: string | undefined;
  auth?: boolean | undefined;
  "openclaw-dir"?: string | undefined;
  "log-level"?: string | undefined;
}

export function flagsFromArgs(args: ServerArgValues): Flags {
  return {
    port: args.port,
    host: args.host,
    // citty turns --no-auth into auth=false; only an explicit --no-auth overrides the config.
    noAuth: args.auth === false ? true : undefined,
    openclawDir: args["openclaw-dir"],
    logLevel: args["log-level"],
  };
}

/** The same flags as argv, to hand to a spawned insightsd. */
export function argvFromArgs(args: ServerArgValues): string[] {
  const out: string[] = [];
  if (args.port !== undefined) out.push("--port", args.port);
  if (args.host !== undefined) out.push("--host", args.host);
  if (args.auth === false) out.push("--no-auth");
  if (args["openclaw-dir"] !== undefined) out.push("--openclaw-dir", args["openclaw-dir"]);
  if (args["log-level"] !== undefined) out.push("--log-level", args["log-level"]);
  return out;
}
