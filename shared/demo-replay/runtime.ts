// Demo mode at run time: the demo gateway on loopback (with the demo copy's lock file pointing at
// it) and, in the daemon, the replay that keeps appending activity. `insightsctl snapshot` without
// a daemon starts the gateway only, for the one card it renders, unless a daemon already serves
// this demo copy (then its gateway answers).
import { join } from "node:path";
import type { Clock } from "../base/clock.js";
import { errorMessage } from "../base/errors.js";
import type { Logger } from "../base/log/logger.js";
import { demoLockHeldElsewhere, removeDemoLock, startDemoGateway, writeDemoLock, type DemoGateway } from "./demo-gateway.js";
import { demoRoot, touchDemoState, type InstalledDemo } from "./install.js";
import { ClaudeCodeDemoWriter } from "../providers/claude-code/demo/writer.js";
import { CodexDemoWriter } from "../providers/codex/demo/writer.js";
import { GeminiCliDemoWriter } from "../providers/gemini-cli/demo/writer.js";
import { OpenclawDemoWriter } from "../providers/openclaw/demo/writer.js";
import type { Random } from "../base/random.js";
import type { DemoWriter } from "../providers/contract.js";
import { DemoReplay, type ReplayTimers } from "./replay.js";

export interface DemoRuntimeOptions {
  /** The demo copy of the OpenClaw state dir. */
  stateDir: string;
  installed: InstalledDemo;
  clock: Clock;
  logger: Logger;
  /** Append new activity every few seconds (the daemon); off for a one-off in-process card. */
  replay: boolean;
  random?: Random;
  timers?: ReplayTimers;
  /** The writers to run (tests); default one per provider of the installed demo. */
  writers?: DemoWriter[];
  /** shared/demo by default. */
  root?: string;
}

export interface DemoRuntime {
  gateway: DemoGateway | null;
  replay: DemoReplay | null;
  stop(): Promise<void>;
}

/** A writer per provider the demo copy has: OpenClaw's, and Claude Code's, Codex's and Gemini CLI's beside it. */
function demoWriters(stateDir: string, installed: InstalledDemo, random: Random): DemoWriter[] {
  const writers: DemoWriter[] = [new OpenclawDemoWriter({ stateDir, random })];
  const { claudeCode, codex, geminiCli } = installed.manifest;
  if (installed.claudeCodeHome && claudeCode) writers.push(new ClaudeCodeDemoWriter({ configDir: join(installed.claudeCodeHome, claudeCode.configDir), random }));
  if (installed.codexHome && codex) writers.push(new CodexDemoWriter({ codexHome: join(installed.codexHome, codex.configDir), random }));
  if (installed.geminiCliHome && geminiCli) writers.push(new GeminiCliDemoWriter({ geminiDir: join(installed.geminiCliHome, geminiCli.configDir), random }));
  return writers;
}

export async function startDemoRuntime(o: DemoRuntimeOptions): Promise<DemoRuntime> {
  const random = o.random ?? Math.random;
  const log = o.logger.child("demo");
  const { manifest, marker } = o.installed;
  const startedAt = manifest.openclaw.gatewayStartedAt + marker.offsetMs;
  let gateway: DemoGateway | null = null;
  let lockFile: string | null = null;
  if (demoLockHeldElsewhere(o.stateDir)) {
    log.debug("another process serves this demo copy's gateway; using it");
  } else {
    // Without its gateway the demo still shows its data (the gateway then reads as down); it is
    // no reason to refuse to start.
    try {
      gateway = await startDemoGateway({ stateDir: o.stateDir, answersDir: join(o.root ?? demoRoot(), "gateway"), clock: o.clock, startedAt, random });
      lockFile = writeDemoLock({ stateDir: o.stateDir, port: gateway.port, startedAt });
      log.info("demo gateway listening", { url: gateway.url });
    } catch (err) {
      log.error("the demo gateway could not start; the demo runs without it", { error: errorMessage(err) });
      await gateway?.close();
      gateway = null;
    }
  }
  let replay: DemoReplay | null = null;
  if (o.replay) {
    replay = new DemoReplay({
      writers: o.writers ?? demoWriters(o.stateDir, o.installed, random),
      clock: o.clock,
      random,
      logger: log,
      ...(o.timers ? { timers: o.timers } : {}),
      onStep: (_steps, now) => {
        try {
          touchDemoState(o.stateDir, now);
        } catch (err) {
          log.debug("could not mark the demo copy as fresh", { error: errorMessage(err) });
        }
      },
    });
    replay.start();
  }
  let stopping: Promise<void> | null = null;
  return {
    gateway,
    replay,
    stop: () =>
      (stopping ??= (async () => {
        replay?.stop();
        if (lockFile) removeDemoLock(lockFile);
        await gateway?.close();
      })()),
  };
}
