// Says when the chosen data source is not healthy (still reading, its files gone, or failing
// reads), since every figure on the page comes from it.
import type { JSX } from "preact";
import { t } from "../i18n/i18n";
import { fmtRelative } from "../lib/format";
import { serverNow } from "../state/clock";
import { scopeSource } from "../state/scope";
import { sourceTitle } from "../lib/providers";
import { Callout } from "./States";

export function SourceNotice(): JSX.Element | null {
  const src = scopeSource.value;
  if (!src || src.status === "CONNECTED") return null;
  const name = sourceTitle(src);
  const since = src.since ? fmtRelative(src.since, serverNow.value) : null;
  if (src.status === "INITIALIZING") return <Callout tone="info" title={t("source.initializing", { name })} />;
  return (
    <Callout tone={src.status === "ERROR" ? "err" : "warn"} title={t(src.status === "ERROR" ? "source.error" : "source.disconnected", { name })}>
      {src.lastError ? <p class="mono small">{src.lastError}</p> : null}
      {since ? <p class="small">{t("source.since", { since })}</p> : null}
    </Callout>
  );
}
