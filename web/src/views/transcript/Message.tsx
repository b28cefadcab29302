// One transcript message: who spoke, when, the text (long ones folded), the tools an assistant
// called, and the tokens and cost of that model call.
import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { TranscriptMessage } from "../../api/types";
import { Icon } from "../../components/Icon";
import { t, type MessageKey } from "../../i18n/i18n";
import { fmtDateTime, fmtFull, fmtInt, fmtUsd } from "../../lib/format";

const ROLE: Record<string, MessageKey> = { user: "role.user", assistant: "role.assistant", toolResult: "role.toolResult" };
const FOLD_CHARS = 1200;
const FOLD_LINES = 18;

function MessageText({ text }: { text: string }): JSX.Element {
  const long = text.length > FOLD_CHARS || text.split("\n").length > FOLD_LINES;
  const [open, setOpen] = useState(false);
  if (!text) return <p class="msg-text muted">{t("transcript.noText")}</p>;
  return (
    <div class={`msg-text-wrap${long && !open ? " folded" : ""}`}>
      <div class="msg-text">{text}</div>
      {long ? (
        <button type="button" class="btn btn-sm btn-ghost msg-fold" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? t("transcript.showLess") : t("transcript.showMore")}
        </button>
      ) : null}
    </div>
  );
}

export function Message({ m }: { m: TranscriptMessage }): JSX.Element {
  const role = ROLE[m.role];
  const failed = m.isError || !!m.errorMessage;
  return (
    <article class={`msg role-${m.role}${failed ? " msg-failed" : ""}`} data-testid="message" data-role={m.role}>
      <header class="msg-head">
        <span class="msg-role">{role ? t(role) : m.role}</span>
        {m.toolName ? <span class="chip mono">{m.toolName}</span> : null}
        {m.model ? <span class="muted mono small">{m.model}</span> : null}
        {m.timestamp ? (
          <time class="msg-time muted small" dateTime={m.timestamp} title={fmtFull(m.timestamp)}>
            {fmtDateTime(m.timestamp, true)}
          </time>
        ) : null}
      </header>
      {m.text || m.toolCalls.length === 0 ? <MessageText text={m.text} /> : null}
      {m.toolCalls.length ? (
        <ul class="tool-calls" aria-label={t("transcript.toolCalls")}>
          {m.toolCalls.map((c, i) => (
            <li key={c.id ?? i} class="chip">
              <Icon name="tool" size={12} />
              <span class="mono">{c.name ?? t("transcript.tool")}</span>
            </li>
          ))}
        </ul>
      ) : null}
      {m.errorMessage ? <p class="msg-error">{m.errorMessage}</p> : null}
      {/* A response written as several lines (Claude Code: one per content block) carries its usage once. */}
      {m.role === "assistant" && (m.totalTokens > 0 || m.costUsd !== null) ? (
        <footer class="msg-usage num" data-testid="message-usage">
          <span>
            {t("tokens.in")} {fmtInt(m.inputTokens)}
          </span>
          <span>
            {t("tokens.out")} {fmtInt(m.outputTokens)}
          </span>
          {m.cacheReadTokens ? (
            <span>
              {t("tokens.cacheRead")} {fmtInt(m.cacheReadTokens)}
            </span>
          ) : null}
          {m.cacheWriteTokens ? (
            <span>
              {t("tokens.cacheWrite")} {fmtInt(m.cacheWriteTokens)}
            </span>
          ) : null}
          <span class="msg-total">
            {t("tokens.total")} {fmtInt(m.totalTokens)}
          </span>
          {m.costUsd !== null ? <span>{fmtUsd(m.costUsd)}</span> : null}
          {m.stopReason && m.stopReason !== "stop" ? <span class="muted">{m.stopReason}</span> : null}
        </footer>
      ) : null}
    </article>
  );
}
