// The session's facts above its transcript.
import type { JSX } from "preact";
import type { Session, SessionTranscript } from "../../api/types";
import { Badge } from "../../components/Badge";
import { Meter } from "../../components/Meter";
import { t } from "../../i18n/i18n";
import { fmtBytes, fmtDateTime, fmtDuration, fmtInt, fmtUsd } from "../../lib/format";
import { kindKey, STATUS_LABEL } from "../../lib/labels";
import { sessionTone } from "../../lib/tones";
import { hrefOf } from "../../state/router";

export function TranscriptHeader({ tr, session }: { tr: SessionTranscript; session: Session | null }): JSX.Element {
  const kind = session?.kind ?? (tr.isSubAgent ? "subagent" : tr.kind);
  const kindLabel = kindKey(kind);
  return (
    <section class="panel transcript-head" aria-label={t("transcript.details")}>
      <div class="badges">
        {session ? (
          <Badge tone={sessionTone(session.status)} dot>
            {t(STATUS_LABEL[session.status])}
          </Badge>
        ) : null}
        <Badge tone={kind === "subagent" ? "accent" : "neutral"}>{kindLabel ? t(kindLabel) : kind}</Badge>
        <Badge>{tr.model}</Badge>
        {tr.channel ? <Badge>{tr.channel}</Badge> : null}
        {tr.thinkingLevel ? <Badge>{t("transcript.thinking", { level: tr.thinkingLevel })}</Badge> : null}
      </div>
      <dl class="facts facts-wide-grid">
        <div>
          <dt>{t("transcript.started")}</dt>
          <dd>{fmtDateTime(tr.startedAt)}</dd>
        </div>
        <div>
          <dt>{t("transcript.duration")}</dt>
          <dd class="num">{fmtDuration(tr.durationMs)}</dd>
        </div>
        <div>
          <dt>{t("transcript.messages")}</dt>
          <dd class="num" data-testid="transcript-total">
            {fmtInt(tr.totalMessages)}
          </dd>
        </div>
        <div>
          <dt>{t("sessions.tokens")}</dt>
          <dd class="num">{fmtInt(tr.totalTokens)}</dd>
        </div>
        <div>
          <dt>{t("sessions.cost")}</dt>
          <dd class="num">{session ? fmtUsd(session.costUsd) : "—"}</dd>
        </div>
        <div>
          <dt>{t("transcript.size")}</dt>
          <dd class="num">{fmtBytes(tr.fileSize)}</dd>
        </div>
        <div class="facts-wide">
          <dt>{t("sessions.context")}</dt>
          <dd>
            <Meter percent={session?.usagePercent ?? null} label={t("sessions.context")} />
            {session?.contextTokens ? (
              <span class="muted small num">
                {" "}
                {fmtInt(session.contextTokens)}
                {session.contextWindow ? ` / ${fmtInt(session.contextWindow)}` : ""}
              </span>
            ) : null}
          </dd>
        </div>
      </dl>
      {tr.isSubAgent ? (
        <div class="spawn">
          <p>
            {t("transcript.spawnedBy")}{" "}
            {session?.parentKey ? <a href={hrefOf({ name: "session", key: session.parentKey })}>{tr.parentDisplayName ?? session.parentKey}</a> : (tr.parentDisplayName ?? "—")}
          </p>
          {tr.spawnPrompt ? (
            <details>
              <summary>{t("transcript.spawnPrompt")}</summary>
              <div class="msg-text">{tr.spawnPrompt}</div>
            </details>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
