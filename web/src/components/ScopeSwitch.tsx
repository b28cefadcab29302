// The provider → source switcher in the header: "All" (with more than one provider), then each
// provider read; a provider with several sources (OpenClaw agents, Claude Code or Codex installs)
// adds a picker for the source. The choice goes into the address and is remembered.
import type { JSX } from "preact";
import type { Provider } from "../api/types";
import { t } from "../i18n/i18n";
import { PROVIDER_KEY, PROVIDER_NAME, PROVIDERS } from "../lib/providers";
import { ALL, chooseScope, defaultSourceOf, isAll, multiProvider, scopeId, scopeProvider, sourcesOf, switcherShown } from "../state/scope";
import { sources } from "../state/shell";
import { Segmented } from "./Segmented";

type Choice = typeof ALL | Provider;

export function ScopeSwitch(): JSX.Element | null {
  if (!switcherShown.value) return null;
  // Only providers with a source to show (a provider can be read with no install found yet).
  const present = PROVIDERS.filter((p) => sources.value.some((s) => s.attributes.provider === p));
  const provider = scopeProvider.value;
  const inProvider = provider ? sourcesOf(provider) : [];
  const value: Choice = isAll.value ? ALL : (provider ?? ALL);
  const options = [
    ...(multiProvider.value ? [{ value: ALL as Choice, label: t("scope.all"), title: t("scope.allLong") }] : []),
    ...present.map((p) => ({
      value: p as Choice,
      label: (
        <>
          <span class={`prov-dot ${PROVIDER_KEY[p]}`} aria-hidden="true" />
          <span>{PROVIDER_NAME[p]}</span>
        </>
      ),
      title: PROVIDER_NAME[p],
    })),
  ];
  return (
    <div class="scope" data-testid="scope-switch">
      {options.length > 1 ? (
        <Segmented<Choice>
          size="sm"
          label={t("scope.provider")}
          testId="provider-switch"
          value={value}
          options={options}
          onChange={(v) => {
            const id = v === ALL ? ALL : defaultSourceOf(v);
            if (id) chooseScope(id);
          }}
        />
      ) : null}
      {provider && inProvider.length > 1 ? (
        <label class="select scope-source">
          <span class="sr-only">{t("scope.source")}</span>
          <select value={scopeId.value ?? ""} data-testid="source-pick" onChange={(e) => chooseScope((e.currentTarget as HTMLSelectElement).value)}>
            {inProvider.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </label>
      ) : null}
    </div>
  );
}
