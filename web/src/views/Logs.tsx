// The gateway log, live: the latest lines, then every new one as the daemon reads it (the `logs`
// subscription over SSE). Level and module filters go to the server; the text search is local.
// Pause holds new lines back (and counts them); follow keeps the newest line in view.
import type { JSX } from "preact";
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { subscribeLive } from "../api/live";
import { fetchRecentLogs, LOGS_SUBSCRIPTION } from "../api/queries";
import type { LogEntry, LogLevel } from "../api/types";
import { Icon } from "../components/Icon";
import { SourceNotice } from "../components/SourceNotice";
import { Empty, ErrorNotice } from "../components/States";
import { ViewHeader } from "../components/ViewHeader";
import { locale, t, tn } from "../i18n/i18n";
import { ApiError } from "../api/errors";
import { levelTone } from "../lib/tones";
import { readPref, writePref } from "../lib/storage";
import type { StreamState } from "../state/connection";
import { RequireSource } from "../components/RequireSource";
import { atLeast, keyOf, LEVELS, merge, moduleMatches } from "./logs/log-lines";

/** Lines fetched when the view opens (the daemon's maximum is 1000). */
const INITIAL = 500;

export function LogsView(): JSX.Element {
  return <RequireSource openclaw>{(src) => <GatewayLog id={src.id} />}</RequireSource>;
}

function GatewayLog({ id }: { id: string }): JSX.Element {
  const saved = readPref("logLevel");
  const [level, setLevel] = useState<LogLevel>(LEVELS.includes(saved as LogLevel) ? (saved as LogLevel) : "INFO");
  const [module, setModule] = useState("");
  const [query, setQuery] = useState("");
  const [lines, setLines] = useState<LogEntry[]>([]);
  const [paused, setPaused] = useState(false);
  const [held, setHeld] = useState(0);
  const [follow, setFollow] = useState(true);
  const [streamState, setStreamState] = useState<StreamState>("connecting");
  const [error, setError] = useState<ApiError | null>(null);
  const [loaded, setLoaded] = useState(false);
  const [modules, setModules] = useState<string[]>([]);
  const pausedRef = useRef(false);
  const heldLines = useRef<LogEntry[]>([]);
  const boxRef = useRef<HTMLDivElement>(null);
  const autoScrolling = useRef(false);

  pausedRef.current = paused;

  useEffect(() => {
    let alive = true;
    let ready = false;
    let early: LogEntry[] = [];
    const ac = new AbortController();
    heldLines.current = [];
    setHeld(0);
    setLoaded(false);
    setError(null);

    const accept = (entries: LogEntry[]): void => {
      if (!ready) {
        early = early.concat(entries);
        return;
      }
      if (pausedRef.current) {
        heldLines.current = merge(heldLines.current, entries);
        setHeld(heldLines.current.length);
        return;
      }
      setLines((cur) => merge(cur, entries));
    };

    const loadRecent = async (): Promise<void> => {
      try {
        const recent = await fetchRecentLogs(id, INITIAL, ac.signal);
        if (!alive) return;
        const wanted = recent.filter((e) => atLeast(e.level, level) && moduleMatches(module, e.module));
        setModules((m) => [...new Set([...m, ...recent.map((e) => e.module)])].sort());
        setLines((cur) => merge(ready ? cur : [], wanted.concat(early)));
        early = [];
        ready = true;
        setError(null);
      } catch (e) {
        if (!alive || ac.signal.aborted) return;
        ready = true;
        setError(e instanceof ApiError ? e : new ApiError("http", null, null));
      } finally {
        if (alive) setLoaded(true);
      }
    };

    let wasDown = false;
    const filter = { level, ...(module ? { module } : {}) };
    const handle = subscribeLive<{ logs: LogEntry }>(LOGS_SUBSCRIPTION, { filter }, {
      data: ({ logs }) => {
        if (!alive) return;
        accept([logs]);
        setModules((m) => (m.includes(logs.module) ? m : [...m, logs.module].sort()));
      },
      state: (s) => {
        setStreamState(s);
        if (s === "down") wasDown = true;
        // Lines written while the stream was down were missed: fetch the latest again and merge.
        if (s === "live" && wasDown) {
          wasDown = false;
          void loadRecent();
        }
      },
    });
    void loadRecent();
    return () => {
      alive = false;
      ac.abort();
      handle.close();
    };
  }, [id, level, module]);

  // Follow: keep the newest line in view after every change.
  useLayoutEffect(() => {
    const box = boxRef.current;
    if (!box || !follow) return;
    autoScrolling.current = true;
    box.scrollTop = box.scrollHeight;
  }, [lines, follow, query]);

  const onScroll = (): void => {
    const box = boxRef.current;
    if (!box) return;
    if (autoScrolling.current) {
      autoScrolling.current = false;
      return;
    }
    const atBottom = box.scrollTop + box.clientHeight >= box.scrollHeight - 24;
    if (follow !== atBottom) setFollow(atBottom);
  };

  const togglePause = (): void => {
    if (paused) {
      const pending = heldLines.current;
      heldLines.current = [];
      setHeld(0);
      setLines((cur) => merge(cur, pending));
    }
    setPaused(!paused);
  };

  const q = query.trim().toLowerCase();
  const shown = q ? lines.filter((e) => e.message.toLowerCase().includes(q) || e.module.toLowerCase().includes(q)) : lines;
  const prefixes = [...new Set(modules.filter((m) => m.includes("/")).map((m) => m.slice(0, m.indexOf("/") + 1)))];
  const timeFmt = new Intl.DateTimeFormat(locale.value, { hour: "2-digit", minute: "2-digit", second: "2-digit", fractionalSecondDigits: 3, hourCycle: "h23" });
  const streamLabel = paused ? t("logs.paused") : streamState === "live" ? t("live.live") : streamState === "down" ? t("live.reconnecting") : t("live.connecting");

  return (
    <div class="view logs">
      <ViewHeader title={t("nav.logs")} sub={t("logs.sub")}>
        <span class={`live live-${paused ? "paused" : streamState}`} data-testid="logs-state" data-state={paused ? "paused" : streamState}>
          <span class="live-dot" aria-hidden="true" />
          <span class="live-label">{streamLabel}</span>
        </span>
      </ViewHeader>
      <SourceNotice />
      <div class="toolbar">
        <label class="select">
          <span class="select-label">{t("logs.level")}</span>
          <select
            value={level}
            data-testid="log-level"
            onChange={(e) => {
              const v = (e.currentTarget as HTMLSelectElement).value as LogLevel;
              setLevel(v);
              writePref("logLevel", v);
            }}
          >
            {LEVELS.map((l) => (
              <option key={l} value={l}>
                {t("logs.atLeast", { level: l })}
              </option>
            ))}
          </select>
        </label>
        <label class="select">
          <span class="select-label">{t("logs.module")}</span>
          <select value={module} data-testid="log-module" onChange={(e) => setModule((e.currentTarget as HTMLSelectElement).value)}>
            <option value="">{t("logs.allModules")}</option>
            {prefixes.map((p) => (
              <option key={`p:${p}`} value={p}>
                {t("logs.prefix", { prefix: p })}
              </option>
            ))}
            {[...new Set([...modules, ...(module && !module.endsWith("/") ? [module] : [])])].map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        </label>
        <label class="search">
          <Icon name="search" />
          <span class="sr-only">{t("logs.search")}</span>
          <input type="search" placeholder={t("logs.searchPlaceholder")} value={query} onInput={(e) => setQuery((e.currentTarget as HTMLInputElement).value)} data-testid="log-search" />
        </label>
        <div class="toolbar-end">
          <button type="button" class={`btn btn-sm${paused ? " btn-primary" : ""}`} aria-pressed={paused} onClick={togglePause} data-testid="log-pause">
            <Icon name={paused ? "play" : "pause"} />
            {paused ? (held ? t("logs.resumeWith", { n: held }) : t("logs.resume")) : t("logs.pause")}
          </button>
          <button type="button" class="btn btn-sm" aria-pressed={follow} onClick={() => setFollow(!follow)} data-testid="log-follow">
            <Icon name="down" />
            {t("logs.follow")}
          </button>
          <button type="button" class="btn btn-sm btn-ghost" onClick={() => setLines([])} title={t("logs.clear")}>
            <Icon name="clear" />
            <span class="hide-sm">{t("logs.clear")}</span>
          </button>
        </div>
      </div>
      {error ? <ErrorNotice error={error} compact /> : null}
      <div class="panel log-panel">
        <div class="log-box" ref={boxRef} onScroll={onScroll} role="log" aria-live="off" aria-label={t("nav.logs")} tabIndex={0} data-testid="log-box">
          {!loaded ? null : shown.length === 0 ? (
            <Empty title={lines.length ? t("logs.noMatch") : t("logs.empty")} hint={lines.length ? undefined : t("logs.emptyHint")} />
          ) : (
            <ol class="log-lines">
              {shown.map((e) => (
                <li key={keyOf(e)} class={`log-line tone-${levelTone(e.level)}`}>
                  <time class="log-time" dateTime={e.time}>
                    {timeFmt.format(Date.parse(e.time))}
                  </time>
                  <span class="log-level">{e.level}</span>
                  <span class="log-module">{e.module}</span>
                  <span class="log-msg">{e.message}</span>
                </li>
              ))}
            </ol>
          )}
        </div>
        <p class="table-foot muted small">
          {tn("count.lines", shown.length)}
          {!follow ? (
            <button type="button" class="btn btn-sm btn-ghost" onClick={() => setFollow(true)}>
              <Icon name="down" />
              {t("logs.jumpLatest")}
            </button>
          ) : null}
        </p>
      </div>
    </div>
  );
}
