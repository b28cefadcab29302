// Which OpenClaw state dir to read: the configured one, else $OPENCLAW_STATE_DIR, else
// ~/.openclaw; when none was asked for and ~/.openclaw does not exist, the bundled demo state.
import { cpSync, existsSync, lstatSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { packageRoot } from "../package-root.js";
import { ensurePrivateDir, readPrivateFile, writePrivateFile } from "../private-files.js";
import { VERSION } from "../version.js";

export interface OpenclawLocation {
  dir: string;
  demo: boolean;
  /** How it was chosen, for status output. */
  origin: "config" | "env" | "home" | "demo";
}

export interface LocateOptions {
  configured: string | null;
  env?: Record<string, string | undefined>;
  /** Where the demo copy goes (paths.demoStateDir). */
  demoTarget: string;
}

export function locateOpenclaw({ configured, env = process.env, demoTarget }: LocateOptions): OpenclawLocation {
  // An explicit choice is honoured even when the dir is missing: the source then shows as
  // DISCONNECTED instead of quietly showing demo data.
  if (configured) return { dir: resolve(configured), demo: false, origin: "config" };
  if (env.OPENCLAW_STATE_DIR) return { dir: resolve(env.OPENCLAW_STATE_DIR), demo: false, origin: "env" };
  const home = join(env.HOME || homedir(), ".openclaw");
  if (existsSync(home)) return { dir: home, demo: false, origin: "home" };
  installDemoState(demoTarget);
  return { dir: demoTarget, demo: true, origin: "demo" };
}

/**
 * When the bundled demo recording ended. In demo mode the daemon's clock starts here and runs
 * on, so range views (last 6 h, 24 h) show the recorded activity instead of nothing.
 */
export const DEMO_RECORDED_UNTIL = Date.parse("2026-11-21T23:20:00.000Z");

export function bundledDemoState(): string {
  return join(packageRoot(), "shared", "demo", "openclaw-state");
}

/** Copies the bundled demo state once per gateway-insights version (a marker file says which). */
export function installDemoState(target: string): void {
  // The copy lives in our private state dir; neither it nor its parent may be a link or another
  // user's (SQLite writes -shm files beside the demo databases it opens).
  ensurePrivateDir(dirname(target), "the demo dir", { followLink: false });
  const marker = join(target, ".gateway-insights-demo");
  try {
    if (ownDir(target) && readPrivateFile(marker, "the demo marker")?.trim() === VERSION) return;
  } catch {
    // not installed yet, or not ours: copied afresh below
  }
  // rm removes a link itself, never what it points at.
  rmSync(target, { recursive: true, force: true });
  cpSync(bundledDemoState(), target, { recursive: true });
  writePrivateFile(marker, VERSION + "\n");
}

/** A real directory (not a link) owned by this user. */
function ownDir(path: string): boolean {
  const st = lstatSync(path);
  return st.isDirectory() && (typeof process.geteuid !== "function" || st.uid === process.geteuid());
}
