// One session's transcript. The newest page is live (refetched on dataChanged, so a message
// written to disk appears without a reload); older pages load on request above it. While the
// reader is at the bottom the page follows new messages, otherwise a pill offers to jump.
import type { JSX } from "preact";
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { ApiError } from "../api/errors";
import { fetchTranscript } from "../api/queries";
import type { TranscriptMessage } from "../api/types";
import { Icon } from "../components/Icon";
import { SourceNotice } from "../components/SourceNotice";
import { Empty, ErrorNotice, Loading } from "../components/States";
import { ViewHeader } from "../components/ViewHeader";
import { t, tn } from "../i18n/i18n";
import { fmtInt } from "../lib/format";
import { useLive } from "../lib/use-live";
import { RequireSource } from "../components/RequireSource";
import { href } from "../state/scope";
import { Message } from "./transcript/Message";
import { TranscriptHeader } from "./transcript/TranscriptHeader";

const PAGE = 50;

function nearBottom(): boolean {
  const el = document.scrollingElement ?? document.documentElement;
  return el.scrollTop + window.innerHeight >= el.scrollHeight - 160;
}

export function TranscriptView({ sessionKey }: { sessionKey: string }): JSX.Element {
  return <RequireSource>{(src) => <Transcript id={src.id} sessionKey={sessionKey} />}</RequireSource>;
}

function Transcript({ id, sessionKey }: { id: string; sessionKey: string }): JSX.Element {
  const live = useLive((signal) => fetchTranscript(id, sessionKey, { limit: PAGE }, signal), [id, sessionKey], { sources: [id] });
  const [older, setOlder] = useState<{ messages: TranscriptMessage[]; hasPrevious: boolean } | null>(null);
  const [olderState, setOlderState] = useState<{ loading: boolean; error: ApiError | null }>({ loading: false, error: null });
  const [unseen, setUnseen] = useState(0);
  const follow = useRef(false);
  const lastCursor = useRef<string | null>(null);
  const heightBeforePrepend = useRef<number | null>(null);

  useEffect(() => {
    setOlder(null);
    setUnseen(0);
    lastCursor.current = null;
  }, [id, sessionKey]);

  useEffect(() => {
    const onScroll = (): void => {
      follow.current = nearBottom();
      if (follow.current) setUnseen(0);
    };
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => window.removeEventListener("scroll", onScroll);
  }, []);

  const latest = live.data?.sessionTranscript ?? null;
  const latestCursors = new Set(latest?.messages.map((m) => m.cursor) ?? []);
  const olderMessages = (older?.messages ?? []).filter((m) => !latestCursors.has(m.cursor));
  const messages = [...olderMessages, ...(latest?.messages ?? [])];
  const hasPrevious = older ? older.hasPrevious : (latest?.pageInfo.hasPreviousPage ?? false);
  const newest = messages.at(-1)?.cursor ?? null;

  // New messages at the end: follow them when the reader is at the bottom, else count them.
  useLayoutEffect(() => {
    if (!newest) return;
    const prev = lastCursor.current;
    lastCursor.current = newest;
    if (prev === null) {
      // First load: a transcript that fits on screen is "at the bottom" without any scrolling.
      follow.current = nearBottom();
      return;
    }
    if (prev === newest) return;
    const before = messages.findIndex((m) => m.cursor === prev);
    const added = before >= 0 ? messages.length - 1 - before : 1;
    if (follow.current) window.scrollTo({ top: document.documentElement.scrollHeight });
    else setUnseen((n) => n + added);
  }, [newest]);

  // Older messages were put above: keep what the reader was looking at in place.
  useLayoutEffect(() => {
    if (heightBeforePrepend.current === null) return;
    const grown = document.documentElement.scrollHeight - heightBeforePrepend.current;
    heightBeforePrepend.current = null;
    if (grown > 0) window.scrollBy(0, grown);
  }, [older]);

  const loadOlder = async (): Promise<void> => {
    const before = messages[0]?.cursor;
    if (!before || olderState.loading) return;
    setOlderState({ loading: true, error: null });
    try {
      const page = await fetchTranscript(id, sessionKey, { limit: PAGE, before });
      heightBeforePrepend.current = document.documentElement.scrollHeight;
      setOlder({ messages: [...page.sessionTranscript.messages, ...olderMessages], hasPrevious: page.sessionTranscript.pageInfo.hasPreviousPage });
      setOlderState({ loading: false, error: null });
    } catch (e) {
      setOlderState({ loading: false, error: e instanceof ApiError ? e : new ApiError("http", null, null) });
    }
  };

  const jump = (): void => {
    window.scrollTo({ top: document.documentElement.scrollHeight, behavior: "smooth" });
    setUnseen(0);
  };

  const title = latest?.displayName ?? sessionKey;
  return (
    <div class="view transcript">
      <a class="back-link" href={href({ name: "sessions" })}>
        <Icon name="back" size={14} />
        {t("nav.sessions")}
      </a>
      <ViewHeader title={title} sub={<span class="mono">{sessionKey}</span>} />
      <SourceNotice />
      {live.error && live.error.code === "NOT_FOUND" ? (
        <Empty title={t("transcript.notFound")} hint={t("transcript.notFoundHint")}>
          <a class="btn" href={href({ name: "sessions" })}>
            {t("nav.sessions")}
          </a>
        </Empty>
      ) : live.error && !latest ? (
        <ErrorNotice error={live.error} onRetry={live.reload} />
      ) : !latest ? (
        <Loading />
      ) : (
        <>
          {live.error ? <ErrorNotice error={live.error} onRetry={live.reload} compact /> : null}
          <TranscriptHeader tr={latest} session={live.data?.session ?? null} />
          <div class="messages" data-testid="messages" aria-label={t("transcript.messagesLabel")}>
            {hasPrevious ? (
              <div class="load-older">
                <button type="button" class="btn" onClick={() => void loadOlder()} disabled={olderState.loading}>
                  {olderState.loading ? <span class="spinner spinner-sm" aria-hidden="true" /> : null}
                  {t("transcript.loadOlder")}
                </button>
                <span class="muted small">{tn("transcript.showing", latest.totalMessages, { shown: fmtInt(messages.length) })}</span>
              </div>
            ) : null}
            {olderState.error ? <ErrorNotice error={olderState.error} compact /> : null}
            {messages.length === 0 ? <Empty title={t("transcript.empty")} /> : messages.map((m) => <Message key={m.cursor} m={m} />)}
          </div>
          {unseen > 0 ? (
            <button type="button" class="btn btn-primary jump-pill" onClick={jump}>
              <Icon name="down" />
              {tn("count.newMessages", unseen)}
            </button>
          ) : null}
        </>
      )}
    </div>
  );
}
