// The providers by name. Product names are not translated. Each has a colour (styles/tokens.css:
// `prov-a`, `prov-b`, `prov-c`) used for its dot, its series in the combined charts and its share
// bars, chosen apart from the status colours so a provider never reads as "ok" or "failing".
import type { DataSource, Provider } from "../api/types";
import { t } from "../i18n/i18n";

export const PROVIDERS: readonly Provider[] = ["PROVIDER_A", "PROVIDER_B", "PROVIDER_C"];

export const PROVIDER_NAME: Record<Provider, string> = { PROVIDER_A: "OpenClaw", PROVIDER_B: "Claude Code", PROVIDER_C: "Codex" };

/** The CSS key of a provider: `series-prov-a` colours its bars, `prov-a` its dot. */
export const PROVIDER_KEY: Record<Provider, string> = { PROVIDER_A: "prov-a", PROVIDER_B: "prov-b", PROVIDER_C: "prov-c" };

/** The last part of a working directory (`/home/op/code/api-server` → `api-server`). */
export function projectName(path: string): string {
  const parts = path.split(/[\\/]+/).filter(Boolean);
  return parts.at(-1) ?? path;
}

/** How a source is named in sentences and subtitles: "Agent main", "Claude Code · default". */
export function sourceTitle(src: DataSource): string {
  const p = src.attributes.provider ?? "PROVIDER_A";
  return p === "PROVIDER_A" ? t("overview.sub", { agent: src.name }) : `${PROVIDER_NAME[p]} · ${src.name}`;
}
