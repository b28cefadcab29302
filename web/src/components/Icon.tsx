// A few stroke icons drawn on a 24-unit grid, inline so they follow `currentColor` and need no
// extra request. Decorative: the control that holds one carries the accessible label.
import type { JSX } from "preact";

const PATHS = {
  monitor: "M3 5h18v11H3zM8 20h8M12 16v4",
  sun: "M12 4V2M12 22v-2M4.9 4.9 3.5 3.5M20.5 20.5l-1.4-1.4M4 12H2M22 12h-2M4.9 19.1l-1.4 1.4M20.5 3.5l-1.4 1.4M12 8a4 4 0 1 0 0 8 4 4 0 0 0 0-8z",
  moon: "M20 14.5A8 8 0 0 1 9.5 4 8 8 0 1 0 20 14.5z",
  logout: "M15 4h4v16h-4M10 8l-4 4 4 4M6 12h10",
  refresh: "M20 11a8 8 0 0 0-14.3-4.9L4 8M4 4v4h4M4 13a8 8 0 0 0 14.3 4.9L20 16M20 20v-4h-4",
  search: "M11 4a7 7 0 1 0 0 14 7 7 0 0 0 0-14zM20 20l-4-4",
  pause: "M8 5v14M16 5v14",
  play: "M7 4.5v15l12-7.5z",
  down: "M12 5v14M6 13l6 6 6-6",
  chevron: "M9 6l6 6-6 6",
  chevronDown: "M6 9l6 6 6-6",
  back: "M15 6l-6 6 6 6",
  alert: "M12 3 2 20h20zM12 10v4M12 17.5v.5",
  check: "M5 12.5l4.5 4.5L19 7",
  x: "M6 6l12 12M18 6 6 18",
  info: "M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zM12 11v6M12 7.5v.5",
  restart: "M4 12a8 8 0 1 0 2.3-5.7M4 4v5h5",
  update: "M12 3v12M7 10l5 5 5-5M5 20h14",
  tool: "M8 7l-5 5 5 5M16 7l5 5-5 5M13.5 5l-3 14",
  copy: "M8 8h12v12H8zM4 16V4h12",
  clear: "M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13",
  link: "M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7L11.5 7M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1.5-1.5",
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name, size = 16, class: cls }: { name: IconName; size?: number; class?: string }): JSX.Element {
  return (
    <svg class={`icon${cls ? ` ${cls}` : ""}`} width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false">
      <path d={PATHS[name]} />
    </svg>
  );
}
