// The session's facts above its transcript: status, kind, model, where it ran (project and git
// branch, for Claude Code and Codex), size and cost, who spawned it, and the sub-agents it spawned.
import type { JSX } from "preact";
import type { SubAgent, TranscriptData } from "../../api/queries";
import type { SessionTranscript } from "../../api/types";
import { Cost } from "../../components/Cost";
import { projectName } from "../../lib/providers";
import { Badge } from "../../components/Badge";
import { Meter } from "../../components/Meter";
import { t } from "../../i18n/i18n";
import { fmtBytes, fmtCompact, fmtDateTime, fmtDuration, fmtInt, fmtUsd } from "../../lib/format";
import { kindKey, STATUS_LABEL } from "../../lib/labels";
import { sessionTone } from "../../lib/tones";
import { href } from "../../state/scope";

export function TranscriptHeader({ tr, session }: { tr: SessionTranscript; session: TranscriptData["session"] }): JSX.Element {
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
        {session?.project ? (
          <span class="chip" title={session.project} data-testid="transcript-project">
            {projectName(session.project)}
            {session.gitBranch ? <span class="branch mono">{session.gitBranch}</span> : null}
          </span>
        ) : null}
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
          <dd class="num">{session ? <Cost usd={session.costUsd} unpriced={session.unpricedResponses} /> : "—"}</dd>
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
            {session?.parentKey ? <a href={href({ name: "session", key: session.parentKey })}>{tr.parentDisplayName ?? session.parentKey}</a> : (tr.parentDisplayName ?? "—")}
          </p>
          {tr.spawnPrompt ? (
            <details>
              <summary>{t("transcript.spawnPrompt")}</summary>
              <div class="msg-text">{tr.spawnPrompt}</div>
            </details>
          ) : null}
        </div>
      ) : null}
      {session?.subAgents.length ? <SubAgents list={session.subAgents} /> : null}
    </section>
  );
}

function SubAgents({ list }: { list: SubAgent[] }): JSX.Element {
  return (
    <div class="spawn" data-testid="sub-agents">
      <p class="muted small">{t("transcript.subAgents")}</p>
      <ul class="rows">
        {list.map((a) => (
          <li key={a.key} class="row">
            <div class="row-main">
              <a class="row-title" href={href({ name: "session", key: a.key })}>
                {a.displayName}
              </a>
              <span class="row-sub mono">{a.key}</span>
            </div>
            <span class="num muted">{fmtCompact(a.totalTokens)}</span>
            <span class="num">{fmtUsd(a.costUsd)}</span>
            <Badge tone={sessionTone(a.status)} dot>
              {t(STATUS_LABEL[a.status])}
            </Badge>
          </li>
        ))}
      </ul>
    </div>
  );
}
