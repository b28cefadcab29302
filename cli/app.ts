// insightsctl's commands (cli/main.ts comes here for all but the status line). Subcommands load
// lazily so the CLI starts fast; heavy modules (renderer, GraphQL) are imported only by the
// command that needs them.
import { defineCommand } from "citty";
import { VERSION } from "../shared/base/version.js";
import { dispatch } from "./dispatch.js";
import { displayNames } from "../shared/providers/registry.js";

const main = defineCommand({
  meta: { name: "insightsctl", version: VERSION, description: `Control gateway-insights, the monitoring daemon for ${displayNames()}` },
  subCommands: {
    start: () => import("./commands/start.js").then((m) => m.default),
    stop: () => import("./commands/stop.js").then((m) => m.default),
    restart: () => import("./commands/restart.js").then((m) => m.default),
    status: () => import("./commands/status.js").then((m) => m.default),
    logs: () => import("./commands/logs.js").then((m) => m.default),
    snapshot: () => import("./commands/snapshot.js").then((m) => m.default),
    usage: () => import("./commands/usage.js").then((m) => m.default),
    export: () => import("./commands/export.js").then((m) => m.default),
    url: () => import("./commands/url.js").then((m) => m.default),
    alerts: () => import("./commands/alerts.js").then((m) => m.default),
    service: () => import("./commands/service.js").then((m) => m.default),
    statusline: () => import("./commands/statusline.js").then((m) => m.default),
    // Listed for --help; the dispatcher answers `help [command]` itself.
    help: defineCommand({ meta: { name: "help", description: "Show how to use insightsctl or one of its commands: help [command]" } }),
  },
});

export function runCli(argv: string[]): Promise<void> {
  return dispatch(main, argv);
}
