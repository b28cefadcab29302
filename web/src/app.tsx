// The page: the sign-in gate first (the page is public so it can explain how to sign in), then
// the shell with its header, tabs, connection banner and the current view.
import type { JSX } from "preact";
import { useEffect, useRef } from "preact/hooks";
import { nudgeChanges, startChanges, stopChanges } from "./api/changes";
import { fetchShell } from "./api/queries";
import { checkSession } from "./api/session";
import { AlertBanner } from "./components/AlertBanner";
import { ConnectionBanner } from "./components/ConnectionBanner";
import { Header } from "./components/Header";
import { Nav } from "./components/Nav";
import { ErrorNotice, Loading } from "./components/States";
import { lang, t, type MessageKey } from "./i18n/i18n";
import { useLive } from "./lib/use-live";
import { auth } from "./state/auth";
import { observeServerNow } from "./state/clock";
import { replaceSource, route, urlSource, type Route } from "./state/router";
import { scopeId, switcherShown } from "./state/scope";
import { shell } from "./state/shell";
import { isGatewaySystem, PROVIDER_NAME } from "./lib/providers";
import { AlertsRoute } from "./views/AlertsRoute";
import { ControlView } from "./views/Control";
import { CronView } from "./views/Cron";
import { EventsView } from "./views/Events";
import { LogsView } from "./views/Logs";
import { NotFoundView } from "./views/NotFound";
import { OverviewView } from "./views/Overview";
import { SessionsView } from "./views/Sessions";
import { SignInView } from "./views/SignIn";
import { TranscriptView } from "./views/Transcript";

export function App(): JSX.Element {
  useEffect(() => {
    void checkSession();
    // Back from a sleeping laptop or a dropped network: reconnect now rather than at the next backoff.
    const wake = (): void => {
      if (document.hidden) return;
      nudgeChanges();
      if (auth.value.status === "unreachable") void checkSession();
    };
    document.addEventListener("visibilitychange", wake);
    window.addEventListener("online", wake);
    return () => {
      document.removeEventListener("visibilitychange", wake);
      window.removeEventListener("online", wake);
    };
  }, []);

  const a = auth.value;
  useEffect(() => {
    if (a.status === "ready") startChanges();
    else if (a.status === "signed-out") stopChanges();
  }, [a.status]);

  if (a.status === "checking") {
    return (
      <div class="splash">
        <Loading label={t("state.connecting")} />
      </div>
    );
  }
  if (a.status !== "ready") return <SignInView />;
  return <Shell />;
}

function Shell(): JSX.Element {
  const mainRef = useRef<HTMLElement>(null);
  // Refetched when the language changes: the daemon writes the health messages in it.
  const live = useLive(fetchShell, [lang.value], { pollMs: 15_000, minGapMs: 2000 });
  useEffect(() => {
    if (!live.data) return;
    shell.value = live.data;
    const self = live.data.self;
    observeServerNow(Date.parse(self.now));
  }, [live.data]);

  // The address names the source shown, so a copied link opens the same view of the same source.
  const id = scopeId.value;
  useEffect(() => {
    // Read again here, not the render's `id`: the address may have changed since that render (a
    // link opened as the page loads), and writing the older scope back would undo it.
    const now = scopeId.value;
    if (now && switcherShown.value && urlSource.value !== now) replaceSource(now);
  }, [id, switcherShown.value, urlSource.value]);

  const r = route.value;
  useEffect(() => {
    document.title = `${t(VIEW_TITLE[r.name])} · ${t("app.title")}`;
  }, [r.name, lang.value]);
  const first = useRef(true);
  useEffect(() => {
    // Move focus to the new view (not on first load), so keyboard and screen-reader users land on it.
    if (first.current) {
      first.current = false;
      return;
    }
    mainRef.current?.focus({ preventScroll: true });
    window.scrollTo(0, 0);
  }, [r.name, r.name === "session" ? r.key : ""]);

  return (
    <div class="app">
      <a
        class="skip-link"
        href="#main"
        onClick={(e) => {
          e.preventDefault();
          mainRef.current?.focus();
        }}
      >
        {t("nav.skip")}
      </a>
      <div class="chrome">
        <Header />
        <Nav />
      </div>
      <ConnectionBanner onRetry={live.reload} />
      <AlertBanner />
      <main id="main" ref={mainRef} tabIndex={-1} data-view={r.name}>
        {shell.value ? <View /> : live.error ? <ErrorNotice error={live.error} onRetry={live.reload} /> : <Loading />}
      </main>
      <footer class="footer">
        <span>
          gateway-insights {live.data ? `v${live.data.self.version}` : ""}
          {(live.data?.systems ?? []).map((sys) => {
            const v = isGatewaySystem(sys) ? sys.gateway.version : sys.versions[0];
            return v ? ` · ${PROVIDER_NAME[sys.provider]} v${v}` : "";
          })}
        </span>
      </footer>
    </div>
  );
}

const VIEW_TITLE: Record<Route["name"], MessageKey> = {
  overview: "nav.overview",
  sessions: "nav.sessions",
  session: "nav.sessions",
  events: "nav.events",
  cron: "nav.cron",
  logs: "nav.logs",
  control: "nav.control",
  alerts: "nav.alerts",
  "not-found": "notFound.title",
};

function View(): JSX.Element {
  const r = route.value;
  switch (r.name) {
    case "overview":
      return <OverviewView />;
    case "sessions":
      return <SessionsView />;
    case "session":
      return <TranscriptView sessionKey={r.key} />;
    case "events":
      return <EventsView />;
    case "cron":
      return <CronView />;
    case "logs":
      return <LogsView />;
    case "control":
      return <ControlView />;
    case "alerts":
      return <AlertsRoute />;
    case "not-found":
      return <NotFoundView />;
  }
}
