// When the alerts are evaluated: soon after a change (changes in between fold into one run) and on
// a timer of the config's evaluateSeconds.
export class EvaluationSchedule {
  private debounce: NodeJS.Timeout | null = null;
  private ticker: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(private readonly o: { evaluate: () => void; debounceMs: number }) {}

  /** Something changed: evaluate after the debounce, unless a run is pending already. */
  changed(): void {
    if (this.closed || this.debounce) return;
    this.debounce = setTimeout(() => {
      this.debounce = null;
      this.o.evaluate();
    }, this.o.debounceMs);
    this.debounce.unref?.();
  }

  /** (Re)starts the timer (the period may have changed with a reload). */
  every(seconds: number): void {
    if (this.ticker) clearInterval(this.ticker);
    if (this.closed) return;
    this.ticker = setInterval(() => this.o.evaluate(), seconds * 1000);
    this.ticker.unref?.();
  }

  close(): void {
    this.closed = true;
    if (this.debounce) clearTimeout(this.debounce);
    if (this.ticker) clearInterval(this.ticker);
  }
}
