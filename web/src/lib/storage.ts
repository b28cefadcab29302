// localStorage that never throws: private windows and locked-down browsers may refuse it, and a
// preference that cannot be saved must not break the page.
const PREFIX = "gateway-insights.";

export function readPref(name: string): string | null {
  try {
    return window.localStorage.getItem(PREFIX + name);
  } catch {
    return null;
  }
}

export function writePref(name: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(PREFIX + name);
    else window.localStorage.setItem(PREFIX + name, value);
  } catch {
    // not saved; the choice still applies to this page
  }
}
