// The sessions active right now (running, or activity in the last 30 minutes).
import type { JSX } from "preact";
import type { Session } from "../../api/types";
import { PROVIDER_KEY, PROVIDER_NAME, projectName } from "../../lib/providers";
import type { Provider } from "../../api/types";
import { Meter } from "../../components/Meter";
import { Panel } from "../../components/Panel";
import { Empty } from "../../components/States";
import { t } from "../../i18n/i18n";
import { fmtCompact, fmtRelative } from "../../lib/format";
import { serverNow } from "../../state/clock";
import { href } from "../../state/scope";

/** On "All providers" each row says its provider and links into its source. */
export type ActiveRow = Session & { source?: string; provider?: Provider };

export function ActiveSessions({ sessions, total }: { sessions: ActiveRow[]; total?: number }): JSX.Element {
  const now = serverNow.value;
  return (
    <Panel
      id="active-sessions"
      title={t("active.title")}
      actions={
        <>
          {total !== undefined && total > sessions.length ? <span class="muted num">{t("active.shownOf", { shown: sessions.length, total })}</span> : null}
          <a href={href({ name: "sessions" })}>{t("active.all")}</a>
        </>
      }
    >
      {sessions.length === 0 ? (
        <Empty title={t("active.empty")} hint={t("active.emptyHint")} />
      ) : (
        <ul class="rows">
          {sessions.map((s) => (
            <li key={`${s.source ?? ""} ${s.key}`} class="row">
              <div class="row-main">
                <a class="row-title" href={href({ name: "session", key: s.key }, s.source)}>
                  {s.provider ? <span class={`prov-dot ${PROVIDER_KEY[s.provider]}`} title={PROVIDER_NAME[s.provider]} /> : null}
                  {s.displayName}
                </a>
                <span class="row-sub">
                  {s.project ? `${projectName(s.project)} · ` : ""}
                  {s.model ?? "—"} · {fmtRelative(s.lastActivityAt ?? s.updatedAt, now)}
                </span>
              </div>
              <span class="num">{fmtCompact(s.totalTokens)}</span>
              <Meter percent={s.usagePercent} label={t("sessions.context")} />
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
