// Views of one source need one: this renders them once it is known, and otherwise says why there
// is nothing to show (no source at all, or a view of OpenClaw's gateway while OpenClaw is not read).
import type { JSX } from "preact";
import type { DataSource } from "../api/types";
import { t } from "../i18n/i18n";
import { href, providerOf, scopeSource } from "../state/scope";
import { Empty } from "./States";
import { hasGateway } from "../lib/providers";

export function RequireSource({ openclaw = false, children }: { openclaw?: boolean; children: (src: DataSource) => JSX.Element }): JSX.Element {
  const src = scopeSource.value;
  if (!src) return <Empty title={t("overview.noSources")} hint={t("overview.noSourcesHint")} />;
  if (openclaw && !hasGateway(providerOf(src))) {
    return (
      <Empty title={t("scope.openclawOnly")} hint={t("scope.openclawOnlyHint")}>
        <a class="btn" href={href({ name: "overview" })}>
          {t("nav.overview")}
        </a>
      </Empty>
    );
  }
  return children(src);
}
