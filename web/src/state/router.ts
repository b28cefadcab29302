// A hash router: the views are addressed as #/sessions, #/sessions/<key>, … so the page works
// from any path the daemon serves it at and a reload keeps the view.
import { signal } from "@preact/signals";

export type Route =
  | { name: "overview" }
  | { name: "sessions" }
  | { name: "session"; key: string }
  | { name: "events" }
  | { name: "cron" }
  | { name: "logs" }
  | { name: "control" }
  | { name: "not-found"; path: string };

export function parseHash(hash: string): Route {
  const path = hash.replace(/^#/, "").replace(/^\/+/, "").replace(/\/+$/, "");
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
      return rest.length === 0 ? { name: head } : { name: "not-found", path };
    default:
      return { name: "not-found", path };
  }
}

export function hrefOf(route: Route): string {
  switch (route.name) {
    case "overview":
      return "#/";
    case "session":
      return `#/sessions/${encodeURIComponent(route.key)}`;
    case "not-found":
      return `#/${route.path}`;
    default:
      return `#/${route.name}`;
  }
}

export const route = signal<Route>(parseHash(window.location.hash));

window.addEventListener("hashchange", () => {
  route.value = parseHash(window.location.hash);
});

export function navigate(to: Route): void {
  window.location.hash = hrefOf(to);
}
