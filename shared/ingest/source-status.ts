// The SourceStatus state machine (design §3): INITIALIZING until the first full read ends,
// CONNECTED while reads succeed, DISCONNECTED when the backing store is gone, ERROR when reads
// fail, with lastError and since. Every change is reported to the listener.
import type { SourceError } from "../providers/result.js";

export type SourceStatus = "INITIALIZING" | "CONNECTED" | "DISCONNECTED" | "ERROR";

export interface StatusState {
  status: SourceStatus;
  lastError: string | null;
  /** Epoch ms of the last status change. */
  since: number;
}

export class StatusMachine {
  private state: StatusState;

  constructor(
    now: number,
    private readonly onChange: (next: StatusState, previous: StatusState) => void = () => undefined,
  ) {
    this.state = { status: "INITIALIZING", lastError: null, since: now };
  }

  get current(): StatusState {
    return this.state;
  }

  connected(now: number): void {
    this.set({ status: "CONNECTED", lastError: null, since: now });
  }

  failed(error: SourceError, now: number): void {
    const status: SourceStatus = error.kind === "missing" ? "DISCONNECTED" : "ERROR";
    this.set({ status, lastError: error.message, since: now });
  }

  private set(next: StatusState): void {
    const prev = this.state;
    if (prev.status === next.status && prev.lastError === next.lastError) return;
    this.state = next;
    this.onChange(next, prev);
  }
}
