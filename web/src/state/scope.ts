// Which data the views show: one source (an OpenClaw agent, a Claude Code or Codex install), or
// "all" (every provider together, offered when more than one provider is read). The address
// (`?source=`) wins, so a link opens the same view; else the last choice made with the switcher
// (localStorage); else "all" with several providers, else OpenClaw's default agent or the first
// source. Views that only OpenClaw has (cron, gateway log, control) and the transcript need one
// source: an address without a usable one lands on OpenClaw's agent there, as links did before
// the dashboard read other providers.
import { computed, signal } from "@preact/signals";
import type { DataSource, Provider } from "../api/types";
import { readPref, writePref } from "../lib/storage";
import { hrefOf, navigate, route, urlSource, type Route } from "./router";
import { providers, sources } from "./shell";
import { hasGateway } from "../lib/providers";

export const ALL = "all";

export type RouteName = Route["name"];

/** Views of OpenClaw's gateway: shown only for an OpenClaw source. */
export const OPENCLAW_ONLY: ReadonlySet<RouteName> = new Set(["cron", "logs", "control"]);
/** Views that take "all" (alerts are daemon-wide: the same for every source). */
const TAKES_ALL: ReadonlySet<RouteName> = new Set(["overview", "sessions", "alerts", "not-found"]);

export const providerOf = (s: DataSource): Provider => s.attributes.provider as Provider;

// The choice made with the switcher; an older page remembered an OpenClaw agent id.
const legacyAgent = readPref("agent");
const saved = signal<string | null>(readPref("source") ?? (legacyAgent ? `agent:${legacyAgent}` : null));

/** More than one provider: the combined view exists. */
export const multiProvider = computed(() => providers.value.length > 1);

/** The switcher is shown (and the address carries the source) when there is something to switch. */
export const switcherShown = computed(() => sources.value.length > 1);

/** OpenClaw's default agent: `main`, else its first. */
function openclawDefault(list: readonly DataSource[]): DataSource | undefined {
  const oc = list.filter((s) => hasGateway(providerOf(s)));
  return oc.find((s) => s.id === "agent:main") ?? oc[0];
}

function valid(id: string | null, name: RouteName, list: readonly DataSource[], multi: boolean): boolean {
  if (!id) return false;
  if (id === ALL) return multi && TAKES_ALL.has(name);
  const s = list.find((x) => x.id === id);
  if (!s) return false;
  return !OPENCLAW_ONLY.has(name) || hasGateway(providerOf(s));
}

/** The source id the current view shows, or "all"; null before the shell has loaded or without sources. */
export const scopeId = computed<string | null>(() => {
  const list = sources.value;
  if (!list.length) return null;
  const name = route.value.name;
  const multi = multiProvider.value;
  for (const candidate of [urlSource.value, saved.value]) if (valid(candidate, name, list, multi)) return candidate;
  if (multi && TAKES_ALL.has(name)) return ALL;
  return (openclawDefault(list) ?? list[0])?.id ?? null;
});

export const isAll = computed(() => scopeId.value === ALL);

/** The chosen source (null for "all"). */
export const scopeSource = computed<DataSource | null>(() => sources.value.find((s) => s.id === scopeId.value) ?? null);

/** The provider of the chosen source (null for "all"). */
export const scopeProvider = computed<Provider | null>(() => (scopeSource.value ? providerOf(scopeSource.value) : null));

export function sourcesOf(provider: Provider): DataSource[] {
  return sources.value.filter((s) => providerOf(s) === provider);
}

/** A view's address in the current scope (or the given source); plain when there is nothing to switch. */
export function href(to: Route, source: string | null = scopeId.value): string {
  return hrefOf(to, switcherShown.value ? source : null);
}

/** Whether `name` has something to show for `id` (the tabs and the switcher use it). */
export function viewFits(name: RouteName, id: string | null): boolean {
  if (id === ALL) return TAKES_ALL.has(name);
  const s = sources.value.find((x) => x.id === id);
  return !OPENCLAW_ONLY.has(name) || (s ? hasGateway(providerOf(s)) : false);
}

/** Switches to `id` (a source or "all"): remembered, written to the address, staying on the view when it fits. */
export function chooseScope(id: string): void {
  saved.value = id;
  writePref("source", id);
  const r = route.value;
  // A transcript belongs to its source; another source lists its own sessions.
  const to: Route = r.name === "session" ? { name: "sessions" } : viewFits(r.name, id) ? r : { name: "overview" };
  navigate(to, id);
}

/** The source a provider's button picks: the remembered one when it is of that provider, else its default. */
export function defaultSourceOf(provider: Provider): string | null {
  const list = sourcesOf(provider);
  const remembered = list.find((s) => s.id === saved.value);
  if (remembered) return remembered.id;
  return ((hasGateway(provider) ? openclawDefault(list) : undefined) ?? list[0])?.id ?? null;
}
