#!/usr/bin/env node
// insightsctl: controls the daemon over its Unix socket. Subcommands load lazily so the CLI
// starts fast; heavy modules (renderer, GraphQL) are imported only by the command that needs them.
import { defineCommand, runMain } from "citty";
import { VERSION } from "../shared/version.js";

const main = defineCommand({
  meta: { name: "insightsctl", version: VERSION, description: "Control gateway-insights, the OpenClaw monitoring daemon" },
  subCommands: {
    start: () => import("./commands/start.js").then((m) => m.default),
    stop: () => import("./commands/stop.js").then((m) => m.default),
    restart: () => import("./commands/restart.js").then((m) => m.default),
    status: () => import("./commands/status.js").then((m) => m.default),
    logs: () => import("./commands/logs.js").then((m) => m.default),
    snapshot: () => import("./commands/snapshot.js").then((m) => m.default),
    url: () => import("./commands/url.js").then((m) => m.default),
  },
});

void runMain(main);
