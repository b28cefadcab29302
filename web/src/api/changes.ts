// The `dataChanged` stream, shared by every view: one SSE subscription while signed in, fanned
// out to listeners by source. After a gap (the stream was down) every listener hears "*", since
// changes may have been missed. Beside it, `alertChanged` (an alert fired or resolved, rules,
// channels or mutes changed) for the alert banner and view, with the same catch-up after a gap.
import { observeServerNow } from "../state/clock";
import { stream } from "../state/connection";
import { ALERT_CHANGED_SUBSCRIPTION } from "./alerts";
import { subscribeLive, type LiveHandle } from "./live";

export type ChangeListener = (source: string) => void;
export const ANY_SOURCE = "*";

const listeners = new Set<ChangeListener>();
let handle: LiveHandle | null = null;
const alertListeners = new Set<() => void>();
let alertHandle: LiveHandle | null = null;

/** Called whenever an alert changes (and after the alert stream was down: something may have). */
export function onAlertChange(listener: () => void): () => void {
  alertListeners.add(listener);
  return () => alertListeners.delete(listener);
}

function emitAlert(): void {
  for (const l of [...alertListeners]) l();
}

export function onChange(listener: ChangeListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function emit(source: string): void {
  for (const l of [...listeners]) l(source);
}

export function startChanges(): void {
  startAlertChanges();
  if (handle) return;
  let wasDown = false;
  handle = subscribeLive<{ dataChanged: { source: string; ts: number } }>("subscription Changes { dataChanged { source ts } }", {}, {
    data: ({ dataChanged }) => {
      observeServerNow(dataChanged.ts);
      emit(dataChanged.source);
    },
    state: (s) => {
      stream.value = s;
      if (s === "down") wasDown = true;
      if (s === "live" && wasDown) {
        wasDown = false;
        emit(ANY_SOURCE);
      }
    },
  });
}

function startAlertChanges(): void {
  if (alertHandle) return;
  let wasDown = false;
  alertHandle = subscribeLive<{ alertChanged: { kind: string; ts: number } }>(ALERT_CHANGED_SUBSCRIPTION, {}, {
    data: ({ alertChanged }) => {
      observeServerNow(alertChanged.ts);
      emitAlert();
    },
    state: (s) => {
      if (s === "down") wasDown = true;
      if (s === "live" && wasDown) {
        wasDown = false;
        emitAlert();
      }
    },
  });
}

export function stopChanges(): void {
  alertHandle?.close();
  alertHandle = null;
  handle?.close();
  handle = null;
  stream.value = "connecting";
}

/** Reconnects now if the stream is down (called when the tab becomes visible or the network returns). */
export function nudgeChanges(): void {
  handle?.nudge();
  alertHandle?.nudge();
}
