// The demo bundle as the tests and the tools that build it know it (shared/demo/demo-state.json):
// the product reads it generically (each provider's demo names its own entry), tests name the
// providers.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { demoRoot, type InstalledDemo } from "../../shared/demo-replay/install.js";
import type { ProviderName } from "../../shared/providers/registry.js";

/** A home-dir recording (Claude Code, Codex, Gemini CLI): the home under shared/demo/ and its config dir in it. */
export interface HomeRecording {
  home: string;
  configDir: string;
  recordedFrom: number;
  recordedUntil: number;
}

/** demo-state.json as test/tools/demo/ writes it. */
export interface RecordedManifest {
  openclaw: {
    /** The state dir, relative to shared/demo/. */
    dir: string;
    recordedFrom: number;
    recordedUntil: number;
    /** When the recorded gateway started (its lock file and "gateway ready" log line). */
    gatewayStartedAt: number;
  };
  claudeCode?: HomeRecording;
  codex?: HomeRecording;
  geminiCli?: HomeRecording;
}

export function recordedManifest(root = demoRoot()): RecordedManifest {
  return JSON.parse(readFileSync(join(root, "demo-state.json"), "utf8")) as RecordedManifest;
}

/** Where a provider's copy was installed; null when the bundle has none of it. */
export function copyDir(installed: InstalledDemo, provider: ProviderName): string | null {
  return installed.copies.find((c) => c.provider === provider)?.dir ?? null;
}
