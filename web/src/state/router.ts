// A hash router: the views are addressed as #/sessions, #/sessions/<key>, … so the page works
// from any path the daemon serves it at and a reload keeps the view. The data source the views
// show rides along as `?source=<id>` (`agent:main`, `claude-code:default`, `all`), so a link opens
// the same view of the same provider (state/scope.ts decides which source that is).
import { signal } from "@preact/signals";

export type Route =
  | { name: "overview" }
  | { name: "sessions" }
  | { name: "session"; key: string }
  | { name: "events" }
  | { name: "cron" }
  | { name: "logs" }
  | { name: "control" }
  | { name: "alerts" }
  | { name: "not-found"; path: string };

function split(hash: string): { path: string; query: string } {
  const raw = hash.replace(/^#/, "");
  const q = raw.indexOf("?");
  return q < 0 ? { path: raw, query: "" } : { path: raw.slice(0, q), query: raw.slice(q + 1) };
}

export function parseHash(hash: string): Route {
  const path = split(hash).path.replace(/^\/+/, "").replace(/\/+$/, "");
  const [head = "", ...rest] = path.split("/");
  switch (head) {
    case "":
    case "overview":
      return { name: "overview" };
    case "sessions":
      if (rest.length === 0) return { name: "sessions" };
      try {
        return { name: "session", key: decodeURIComponent(rest.join("/")) };
      } catch {
        return { name: "not-found", path };
      }
    case "events":
    case "cron":
    case "logs":
    case "control":
    case "alerts":
      return rest.length === 0 ? { name: head } : { name: "not-found", path };
    default:
      return { name: "not-found", path };
  }
}

/** The `source` the address names, or null (absent, empty, or not decodable). */
export function sourceParam(hash: string): string | null {
  try {
    const v = new URLSearchParams(split(hash).query).get("source");
    return v && v.length <= 300 ? v : null;
  } catch {
    return null;
  }
}

/** The address of a view; with `source`, of that view for that source. */
export function hrefOf(route: Route, source?: string | null): string {
  let path: string;
  switch (route.name) {
    case "overview":
      path = "#/";
      break;
    case "session":
      path = `#/sessions/${encodeURIComponent(route.key)}`;
      break;
    case "not-found":
      path = `#/${route.path}`;
      break;
    default:
      path = `#/${route.name}`;
  }
  // The colon of a source id stays readable in the address bar (it is allowed in a query).
  return source ? `${path}?source=${encodeURIComponent(source).replace(/%3A/gi, ":")}` : path;
}

export const route = signal<Route>(parseHash(window.location.hash));
/** The `?source=` of the address, as written (state/scope.ts checks it). */
export const urlSource = signal<string | null>(sourceParam(window.location.hash));

window.addEventListener("hashchange", () => {
  route.value = parseHash(window.location.hash);
  urlSource.value = sourceParam(window.location.hash);
});

export function navigate(to: Route, source?: string | null): void {
  window.location.hash = hrefOf(to, source);
}

/** Writes `source` into the address without a new history entry (the view stays). */
export function replaceSource(source: string | null): void {
  const next = hrefOf(route.value, source);
  if (window.location.hash === next) return;
  window.history.replaceState(window.history.state, "", next);
  urlSource.value = source;
}
