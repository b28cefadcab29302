// The progress bar of a long first read without a daemon (cli/first-read.ts), on stderr: drawn
// only when stderr is a terminal and the read has taken more than a moment, so a quick run, a
// pipe, a redirect or a script's `2>log` never see it, and stdout (`--json`) is never touched.
import type { Clock } from "../shared/base/clock.js";
import type { ScanProgress } from "../shared/ingest/transcript-scanner.js";

/** What the bar writes to: process.stderr, or a stand-in in tests. */
export interface ProgressStream {
  isTTY?: boolean;
  /** 0 or missing when the terminal does not say (a pty without a size): 80 then. */
  columns?: number;
  write(text: string): boolean;
}

interface ProgressOptions {
  stream: ProgressStream;
  clock: Clock;
  /** Nothing is drawn before the read has taken this long (default 500 ms): a quick run stays quiet. */
  delayMs?: number;
  /** At most one redraw per this many ms (default 100). */
  everyMs?: number;
  /** Redraw on a timer too, so the elapsed time moves during a long listing (default true; off in tests). */
  ticking?: boolean;
}

const WIDTH = 24;

export class ProgressBar {
  private readonly started: number;
  private latest: ScanProgress = { caughtUp: 0, listed: 0 };
  private lastDraw = -Infinity;
  private drawn = false;
  private readonly timer: NodeJS.Timeout | null;

  constructor(private readonly o: ProgressOptions) {
    this.started = o.clock.now();
    this.timer = o.stream.isTTY && o.ticking !== false ? setInterval(() => this.draw(), o.everyMs ?? 100) : null;
    this.timer?.unref();
  }

  /** The read's progress over every source so far. */
  update(p: ScanProgress): void {
    this.latest = p;
    this.draw();
  }

  /** Clears the bar (before anything else is written to stderr) and stops the timer. */
  done(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.drawn) this.o.stream.write("\r\x1b[2K");
    this.drawn = false;
  }

  private draw(): void {
    const { stream, clock } = this.o;
    if (!stream.isTTY) return;
    const now = clock.now();
    if (now - this.started < (this.o.delayMs ?? 500) || now - this.lastDraw < (this.o.everyMs ?? 100)) return;
    this.lastDraw = now;
    this.drawn = true;
    stream.write(`\r\x1b[2K${progressLine(this.latest, now - this.started, stream.columns || 80)}`);
  }
}

/** One line: `reading transcripts [#########...............]  38%  1,204 of 3,150  12 s`, cut to the terminal's width. */
export function progressLine(p: ScanProgress, elapsedMs: number, columns: number): string {
  const fraction = p.listed > 0 ? Math.min(1, p.caughtUp / p.listed) : 0;
  const filled = Math.round(fraction * WIDTH);
  const percent = `${Math.floor(fraction * 100)}%`.padStart(4);
  const counts = p.listed > 0 ? `  ${p.caughtUp.toLocaleString("en-US")} of ${p.listed.toLocaleString("en-US")}` : "  listing files";
  const line = `reading transcripts [${"#".repeat(filled)}${".".repeat(WIDTH - filled)}] ${percent}${counts}  ${Math.floor(elapsedMs / 1000)} s`;
  // One column short of the width: a full line would wrap on some terminals and break the `\r` redraw.
  return line.slice(0, Math.max(0, columns - 1));
}
