// `usage`, `export` and `snapshot` with no daemon running read the providers' files in-process
// before they answer. Figures from a read that stopped half-way look like whole figures (the docs'
// `| jq .totals.costUsd` printed 70 % of the cost on a 2 GB history), so the read goes on to the
// end, with a progress bar on a terminal; a read that cannot end (the user's --timeout ran out, a
// file that cannot be read, a provider whose data cannot be read) is a READ_INCOMPLETE error
// (exit 4) and nothing is printed on stdout. What was read is kept in the store either way, so the
// next run goes on from there.
import type { Clock } from "../shared/base/clock.js";
import { InsightsError } from "../shared/base/errors.js";
import { withDeadline } from "../shared/ingest/collector.js";
import type { SourceRegistry } from "../shared/ingest/source-registry.js";
import type { ScanProgress } from "../shared/ingest/transcript-scanner.js";
import { SKIP_AFTER_FAILURES } from "../shared/ingest/unreadable-files.js";
import type { Collector } from "../shared/ingest/collector.js";
import { ProgressBar, type ProgressStream } from "./progress.js";

/** Problems named in the message; the rest are counted. */
const NAMED = 3;

/** Every source's latest pass, summed for the bar and for the message of a read cut short. */
class ReadTally {
  private readonly bySource = new Map<string, ScanProgress>();

  constructor(private readonly onChange: (total: ScanProgress) => void = () => undefined) {}

  /** For the collector's `scanProgress`. */
  readonly record = (sourceId: string, p: ScanProgress): void => {
    this.bySource.set(sourceId, p);
    this.onChange(this.total());
  };

  total(): ScanProgress {
    let caughtUp = 0;
    let listed = 0;
    for (const p of this.bySource.values()) {
      caughtUp += p.caughtUp;
      listed += p.listed;
    }
    return { caughtUp, listed };
  }
}

interface FirstRead {
  /** Goes to openData's `collector.scanProgress`. */
  tally: ReadTally;
  /** Reads every source to its end; throws READ_INCOMPLETE when it cannot. */
  run(collector: Collector): Promise<void>;
}

/** The read with its bar on `stream` (process.stderr); `budgetMs` null: no limit. */
export function firstRead(o: { budgetMs: number | null; clock: Clock; stream: ProgressStream }): FirstRead {
  const bar = new ProgressBar({ stream: o.stream, clock: o.clock });
  const tally = new ReadTally((total) => bar.update(total));
  return {
    tally,
    run: (collector) => readThrough(collector, { budgetMs: o.budgetMs, clock: o.clock, tally }).finally(() => bar.done()),
  };
}

/**
 * One pass of every source, then more while a source is not caught up: a transcript that fails to
 * read is tried by the next pass and skipped after SKIP_AFTER_FAILURES failures, so one pass more
 * than that settles every source that can settle. Then anything left unread is named.
 */
async function readThrough(collector: Collector, o: { budgetMs: number | null; clock: Clock; tally: ReadTally }): Promise<void> {
  const { registry } = collector;
  const started = o.clock.now();
  for (let pass = 0; pass <= SKIP_AFTER_FAILURES && (pass === 0 || !registry.ready); pass++) {
    const run = collector.run("agents");
    if (o.budgetMs === null) await run;
    else if ((await withDeadline(run, Math.max(0, o.budgetMs - (o.clock.now() - started)))) === "timeout") throw outOfTime(o.budgetMs, o.tally.total());
  }
  const problems = unread(registry);
  if (problems.length) {
    const more = problems.length > NAMED ? ` (and ${problems.length - NAMED} more)` : "";
    throw new InsightsError("READ_INCOMPLETE", `the providers' files could not all be read, so no figures are printed (they would be partial): ${problems.slice(0, NAMED).join("; ")}${more}`, {
      hint: "Fix what is named (permissions, a file being replaced) and run the command again; what was read is kept.",
      unread: problems.length,
    });
  }
}

function outOfTime(budgetMs: number, p: ScanProgress): InsightsError {
  const read = p.listed > 0 ? ` (${p.caughtUp.toLocaleString("en-US")} of ${p.listed.toLocaleString("en-US")} transcripts read)` : "";
  return new InsightsError("READ_INCOMPLETE", `the first read of the providers' files did not finish within --timeout ${budgetMs / 1000} s${read}, so no figures are printed (they would be partial)`, {
    hint: "Run it again: what was read is kept and the next run goes on from there. Without --timeout it reads to the end; `insightsctl start` reads in the background.",
    timeoutMs: budgetMs,
  });
}

/** What the read left out: providers whose data could not be read, files skipped as unreadable, sources that never caught up. */
export function unread(registry: SourceRegistry): string[] {
  const out: string[] = [];
  for (const p of registry.readProviders()) {
    const err = registry.providerError(p.name);
    if (err) out.push(`${p.name}: ${err.message}`);
  }
  for (const s of registry.agentSnapshots()) {
    for (const f of s.skippedFiles ?? []) out.push(`${f.path}: ${f.error}`);
    if (!s.firstPassDone && s.state.status !== "DISCONNECTED") out.push(`${s.id}: ${s.state.lastError ?? "its first read did not finish"}`);
  }
  return out;
}
