// What every view shares: the shell query's answer (gateway, health, sources) and the agent the
// views look at. With several OpenClaw agents the header offers a choice, remembered here.
import { computed, signal } from "@preact/signals";
import type { ShellData } from "../api/queries";
import type { DataSource } from "../api/types";
import { readPref, writePref } from "../lib/storage";

export const shell = signal<ShellData | null>(null);

export const agents = computed<DataSource[]>(() => (shell.value?.sources ?? []).filter((s) => s.attributes.category === "AGENT"));

const chosen = signal<string | null>(readPref("agent"));

/** The agent id the views show: the remembered choice if it still exists, else `main`, else the first. */
export const agentId = computed<string | null>(() => {
  const ids = agents.value.map((s) => s.id.replace(/^agent:/, ""));
  if (chosen.value && ids.includes(chosen.value)) return chosen.value;
  return ids.includes("main") ? "main" : (ids[0] ?? null);
});

export const agentSource = computed<DataSource | null>(() => agents.value.find((s) => s.id === `agent:${agentId.value}`) ?? null);

export function chooseAgent(id: string): void {
  chosen.value = id;
  writePref("agent", id);
}
