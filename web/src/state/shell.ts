// What every view shares: the shell query's answer (each provider's system and health, the
// sources, the daemon's clock), and handy views of it.
import { computed, signal } from "@preact/signals";
import type { ShellData } from "../api/queries";
import type { AnySystem, CliSystem, DataSource, Provider, SystemInfo } from "../api/types";
import { isCliSystem, isGatewaySystem, PROVIDERS } from "../lib/providers";

export const shell = signal<ShellData | null>(null);

/** Every data source that holds sessions (OpenClaw agents, Claude Code and Codex installs). */
export const sources = computed<DataSource[]>(() => (shell.value?.sources ?? []).filter((s) => s.attributes.category === "AGENT" && s.attributes.provider !== null));

/** The providers read, in A, B, C order. */
export const providers = computed<Provider[]>(() => {
  const s = shell.value;
  if (!s) return [];
  if (s.self.providers?.length) return s.self.providers;
  return PROVIDERS.filter((p) => s.systems.some((x) => x.provider === p));
});

export function systemOf(provider: Provider): AnySystem | null {
  return shell.value?.systems.find((s) => s.provider === provider) ?? null;
}

/** The agent gateway's system (OpenClaw's), when it is read. */
export const openclaw = computed<SystemInfo | null>(() => shell.value?.systems.find(isGatewaySystem) ?? null);

export function cliSystem(provider: Provider): CliSystem | null {
  const s = systemOf(provider);
  return s && isCliSystem(s) ? s : null;
}

/** Demo mode: the daemon serves its bundled sample state. */
export const demo = computed<boolean>(() => shell.value?.self.demo ?? false);
