// The sessions active right now (running, or activity in the last 30 minutes).
import type { JSX } from "preact";
import type { Session } from "../../api/types";
import { Meter } from "../../components/Meter";
import { Panel } from "../../components/Panel";
import { Empty } from "../../components/States";
import { t } from "../../i18n/i18n";
import { fmtCompact, fmtRelative } from "../../lib/format";
import { serverNow } from "../../state/clock";
import { hrefOf } from "../../state/router";

export function ActiveSessions({ sessions }: { sessions: Session[] }): JSX.Element {
  const now = serverNow.value;
  return (
    <Panel id="active-sessions" title={t("active.title")} actions={<a href="#/sessions">{t("active.all")}</a>}>
      {sessions.length === 0 ? (
        <Empty title={t("active.empty")} hint={t("active.emptyHint")} />
      ) : (
        <ul class="rows">
          {sessions.map((s) => (
            <li key={s.key} class="row">
              <div class="row-main">
                <a class="row-title" href={hrefOf({ name: "session", key: s.key })}>
                  {s.displayName}
                </a>
                <span class="row-sub">
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
