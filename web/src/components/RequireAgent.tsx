// Agent views need an agent: this renders them only once one is known, and otherwise says why
// there is nothing to show.
import type { JSX } from "preact";
import { t } from "../i18n/i18n";
import { agentId } from "../state/shell";
import { Empty } from "./States";

export function RequireAgent({ children }: { children: (id: string) => JSX.Element }): JSX.Element {
  const id = agentId.value;
  if (!id) return <Empty title={t("overview.noAgents")} hint={t("overview.noAgentsHint")} />;
  return children(id);
}
