// Which OpenClaw state dir to read: the configured one, else $OPENCLAW_STATE_DIR, else
// ~/.openclaw when it exists; null when none was asked for and there is none. The bundled demo
// state (shared/demo-replay/install.ts) is chosen by the caller when no provider has data at all.
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import type { GatewayLocation, LocateOptions } from "../gateway-contract.js";
import { lookAt, type LookedAt } from "../looked-at.js";
import { openclawIdentity } from "./identity.js";

export function locateOpenclaw({ configured, env = process.env }: LocateOptions): GatewayLocation | null {
  // An explicit choice is honoured even when the dir is empty; one that is missing is refused at
  // start (config: load.ts; OPENCLAW_STATE_DIR: openclawLookedAt and open-data.ts), and one that
  // disappears later shows as DISCONNECTED, never as demo data.
  if (configured) return { dir: resolve(configured), demo: false, origin: "config" };
  if (env.OPENCLAW_STATE_DIR) return { dir: resolve(env.OPENCLAW_STATE_DIR), demo: false, origin: "env" };
  const home = homeDir(env);
  if (existsSync(home)) return { dir: home, demo: false, origin: "home" };
  return null;
}

/** ~/.openclaw: where OpenClaw is read when forced on (`openclaw: on`) and nothing was found. */
export function homeDir(env: Record<string, string | undefined>): string {
  return join(env.HOME || homedir(), ".openclaw");
}

/** The state dir locateOpenclaw would choose (the configured one, $OPENCLAW_STATE_DIR, else ~/.openclaw), and what is there. */
export function openclawLookedAt({ configured, env = process.env }: LocateOptions): LookedAt {
  const at = (dir: string, from: string, named: boolean): LookedAt => ({ provider: openclawIdentity.name, dir, from, named, found: lookAt(dir, hasOpenclawData) });
  if (configured) return at(resolve(configured), "config openclawDir", true);
  const fromEnv = env.OPENCLAW_STATE_DIR;
  if (fromEnv) return at(resolve(fromEnv), "env OPENCLAW_STATE_DIR", true);
  return at(homeDir(env), "default", false);
}

/** OpenClaw has written its config or an agent there. */
function hasOpenclawData(dir: string): boolean {
  return existsSync(join(dir, "openclaw.json")) || existsSync(join(dir, "agents"));
}
