// Which OpenClaw state dir to read: the configured one, else $OPENCLAW_STATE_DIR, else
// ~/.openclaw when it exists; null when none was asked for and there is none. The bundled demo
// state (shared/demo-replay/install.ts) is chosen by the caller when no provider has data at all.
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { installDemoState, type InstalledDemo } from "../demo-replay/install.js";

export interface OpenclawLocation {
  dir: string;
  demo: boolean;
  /** How it was chosen, for status output. */
  origin: "config" | "env" | "home" | "demo";
  /** Demo mode only: the copy just installed (or kept), its time offset and the bundle's manifest. */
  installed?: InstalledDemo;
}

export interface LocateOptions {
  configured: string | null;
  env?: Record<string, string | undefined>;
}

export function locateOpenclaw({ configured, env = process.env }: LocateOptions): OpenclawLocation | null {
  // An explicit choice is honoured even when the dir is missing: the source then shows as
  // DISCONNECTED instead of quietly showing demo data.
  if (configured) return { dir: resolve(configured), demo: false, origin: "config" };
  if (env.OPENCLAW_STATE_DIR) return { dir: resolve(env.OPENCLAW_STATE_DIR), demo: false, origin: "env" };
  const home = join(env.HOME || homedir(), ".openclaw");
  if (existsSync(home)) return { dir: home, demo: false, origin: "home" };
  return null;
}

/** The bundled demo state, copied to `target` and moved in time so its recording ends `now`. */
export function demoOpenclaw(target: string, now: number): OpenclawLocation {
  const installed = installDemoState(target, { now });
  return { dir: target, demo: true, origin: "demo", installed };
}
