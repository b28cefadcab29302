#!/usr/bin/env node
// insightsd: the daemon entry, run in the foreground by systemd or detached by `insightsctl start`.
import { defineCommand, runMain } from "citty";
import { flagsFromArgs, serverArgs } from "../shared/config/flags.js";
import { VERSION } from "../shared/version.js";
import { runForeground } from "./run.js";

const main = defineCommand({
  meta: { name: "insightsd", version: VERSION, description: "gateway-insights daemon (runs in the foreground)" },
  args: {
    ...serverArgs,
    detached: { type: "boolean", description: "Started by insightsctl: fall silent on the console once ready" },
  },
  run: ({ args }) => runForeground({ flags: flagsFromArgs(args), detached: args.detached === true }),
});

void runMain(main);
