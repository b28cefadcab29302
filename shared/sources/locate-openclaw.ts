// Which OpenClaw state dir to read: the configured one, else $OPENCLAW_STATE_DIR, else
// ~/.openclaw; when none was asked for and ~/.openclaw does not exist, the bundled demo state,
// copied to `demoTarget` and moved in time so its recording ends now (shared/demo-replay/install.ts).
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
  /** Where the demo copy goes (paths.demoStateDir). */
  demoTarget: string;
  /** Now, for moving the demo recording to the present. */
  now: number;
}

export function locateOpenclaw({ configured, env = process.env, demoTarget, now }: LocateOptions): OpenclawLocation {
  // An explicit choice is honoured even when the dir is missing: the source then shows as
  // DISCONNECTED instead of quietly showing demo data.
  if (configured) return { dir: resolve(configured), demo: false, origin: "config" };
  if (env.OPENCLAW_STATE_DIR) return { dir: resolve(env.OPENCLAW_STATE_DIR), demo: false, origin: "env" };
  const home = join(env.HOME || homedir(), ".openclaw");
  if (existsSync(home)) return { dir: home, demo: false, origin: "home" };
  const installed = installDemoState(demoTarget, { now });
  return { dir: demoTarget, demo: true, origin: "demo", installed };
}
