// The `dataChanged` stream, shared by every view: one SSE subscription while signed in, fanned
// out to listeners by source. After a gap (the stream was down) every listener hears "*", since
// changes may have been missed.
import { observeServerNow } from "../state/clock";
import { stream } from "../state/connection";
import { subscribeLive, type LiveHandle } from "./live";

export type ChangeListener = (source: string) => void;
export const ANY_SOURCE = "*";

const listeners = new Set<ChangeListener>();
let handle: LiveHandle | null = null;

export function onChange(listener: ChangeListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function emit(source: string): void {
  for (const l of [...listeners]) l(source);
}

export function startChanges(): void {
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

export function stopChanges(): void {
  handle?.close();
  handle = null;
  stream.value = "connecting";
}

/** Reconnects now if the stream is down (called when the tab becomes visible or the network returns). */
export function nudgeChanges(): void {
  handle?.nudge();
}
