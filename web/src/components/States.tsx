// Empty, loading and error states, so every view says what is going on instead of showing a
// blank area or a raw error.
import type { ComponentChildren, JSX } from "preact";
import type { ApiError } from "../api/errors";
import { t, type MessageKey } from "../i18n/i18n";
import { Icon } from "./Icon";

export function Empty({ title, hint, children }: { title: string; hint?: string; children?: ComponentChildren }): JSX.Element {
  return (
    <div class="empty">
      <p class="empty-title">{title}</p>
      {hint ? <p class="empty-hint">{hint}</p> : null}
      {children}
    </div>
  );
}

export function Loading({ label }: { label?: string }): JSX.Element {
  return (
    <div class="loading" role="status">
      <span class="spinner" aria-hidden="true" />
      <span>{label ?? t("state.loading")}</span>
    </div>
  );
}

/** The catalog message for an API failure (the daemon's own sentence goes in `detail`). */
export function errorMessage(err: ApiError): string {
  const byCode: Record<string, MessageKey> = {
    NOT_FOUND: "error.notFound",
    SOURCE_UNAVAILABLE: "error.sourceUnavailable",
    OPERATION_IN_PROGRESS: "error.operationInProgress",
    BAD_USER_INPUT: "error.badInput",
    INTERNAL_SERVER_ERROR: "error.internal",
    AMBIGUOUS_SELECTOR: "error.ambiguous",
  };
  if (err.kind === "network") return t("error.network");
  if (err.kind === "forbidden") return t("error.forbidden");
  if (err.kind === "rate-limited") return t("error.rateLimited");
  if (err.kind === "unauthenticated") return t("error.unauthenticated");
  const key = err.code ? byCode[err.code] : undefined;
  return t(key ?? "error.generic");
}

export function ErrorNotice({ error, onRetry, compact }: { error: ApiError; onRetry?: () => void; compact?: boolean }): JSX.Element {
  // The daemon masks internal errors itself; other messages are plain sentences worth showing.
  const detail = error.code !== "INTERNAL_SERVER_ERROR" && error.kind !== "network" ? error.detail : null;
  return (
    <div class={`notice tone-err${compact ? " compact" : ""}`} role="alert">
      <Icon name="alert" />
      <div class="notice-body">
        <p>{errorMessage(error)}</p>
        {detail ? <p class="notice-detail">{detail}</p> : null}
      </div>
      {onRetry ? (
        <button type="button" class="btn btn-sm" onClick={onRetry}>
          {t("action.retry")}
        </button>
      ) : null}
    </div>
  );
}

export function Callout({ tone, title, children }: { tone: "warn" | "err" | "info"; title: string; children?: ComponentChildren }): JSX.Element {
  return (
    <div class={`notice tone-${tone}`} role={tone === "err" ? "alert" : "note"}>
      <Icon name={tone === "info" ? "info" : "alert"} />
      <div class="notice-body">
        <p class="notice-title">{title}</p>
        {children ? <div class="notice-detail">{children}</div> : null}
      </div>
    </div>
  );
}
