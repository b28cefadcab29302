// Data that stays current: fetched when a view mounts (or its inputs change), then again when
// `dataChanged` names one of its sources, after the event stream reconnects, and on a slow poll
// as a safety net. Refetches are coalesced (one in flight, at most one per `minGapMs`), and the
// last good data is kept while a refetch fails, so a view never blanks because the daemon blinked.
import { useEffect, useRef, useState } from "preact/hooks";
import { ANY_SOURCE, onAlertChange, onChange } from "../api/changes";
import { ApiError } from "../api/errors";

export interface LiveState<T> {
  data: T | null;
  error: ApiError | null;
  /** True until the first answer for the current inputs (old data stays visible meanwhile). */
  loading: boolean;
  /** Refetch now. */
  reload(): void;
}

export interface LiveOptions {
  /** dataChanged sources that make this refetch (`agent:main`, `system`, …); default every source. */
  sources?: readonly string[];
  /** Safety-net refresh period; 0 turns it off. Default 30 s. */
  pollMs?: number;
  /** Minimum time between two fetches caused by changes. Default 1 s. */
  minGapMs?: number;
  /** Refetch on `alertChanged` too (alerts fired or resolved, rules, channels or mutes changed). */
  alerts?: boolean;
}

export function useLive<T>(fetcher: (signal: AbortSignal) => Promise<T>, deps: readonly unknown[], options: LiveOptions = {}): LiveState<T> {
  const [state, setState] = useState<{ data: T | null; error: ApiError | null; loading: boolean }>({ data: null, error: null, loading: true });
  const fetcherRef = useRef(fetcher);
  fetcherRef.current = fetcher;
  const reloadRef = useRef<() => void>(() => undefined);
  const { pollMs = 30_000, minGapMs = 1000, alerts = false } = options;
  const sourcesKey = options.sources?.join(",") ?? "";

  useEffect(() => {
    let alive = true;
    let inFlight: AbortController | null = null;
    let pending = false;
    let dirty = false;
    let lastRun = 0;
    let timer: number | undefined;
    const wanted = sourcesKey ? new Set(sourcesKey.split(",")) : null;
    setState((s) => ({ ...s, loading: true, error: null }));

    const run = async (): Promise<void> => {
      if (!alive) return;
      if (inFlight) {
        pending = true;
        return;
      }
      // A hidden tab does not refetch; it catches up when it is shown again.
      if (document.hidden && lastRun > 0) {
        dirty = true;
        return;
      }
      lastRun = Date.now();
      const ac = new AbortController();
      inFlight = ac;
      try {
        const data = await fetcherRef.current(ac.signal);
        if (alive) setState({ data, error: null, loading: false });
      } catch (e) {
        if (!alive || ac.signal.aborted) return;
        if (!(e instanceof ApiError)) console.error(e);
        const error = e instanceof ApiError ? e : new ApiError("http", null, null);
        setState((s) => ({ data: s.data, error, loading: false }));
      } finally {
        inFlight = null;
        if (alive && pending) {
          pending = false;
          schedule();
        }
      }
    };

    const schedule = (): void => {
      if (!alive || timer !== undefined) return;
      const wait = Math.max(0, lastRun + minGapMs - Date.now());
      timer = window.setTimeout(() => {
        timer = undefined;
        void run();
      }, wait);
    };

    void run();
    const offChange = onChange((source) => {
      if (source === ANY_SOURCE || !wanted || wanted.has(source)) schedule();
    });
    const offAlert = alerts ? onAlertChange(schedule) : () => undefined;
    const poll = pollMs > 0 ? window.setInterval(schedule, pollMs) : undefined;
    const onVisible = (): void => {
      if (!document.hidden && dirty) {
        dirty = false;
        schedule();
      }
    };
    document.addEventListener("visibilitychange", onVisible);
    reloadRef.current = () => {
      lastRun = 0;
      schedule();
    };
    return () => {
      alive = false;
      inFlight?.abort();
      window.clearTimeout(timer);
      window.clearInterval(poll);
      offChange();
      offAlert();
      document.removeEventListener("visibilitychange", onVisible);
    };
    // The caller's deps decide when the inputs changed; the fetcher itself is read through a ref.
  }, [...deps, sourcesKey, pollMs, minGapMs, alerts]);

  return { ...state, reload: () => reloadRef.current() };
}
