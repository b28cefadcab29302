// The two reads every JSONL provider's reader makes (Claude Code transcripts, Codex rollouts),
// written once: a bounded batch of events after a cursor (readTranscript), and every kept line of a
// file for the transcript view (readMessages). The provider supplies only what differs: which
// lines to keep (from their first bytes) and what a kept line yields.
import type { ActivityEvent } from "../contract.js";
import { SourceError, fail, ok, type SourceResult, type SourceWarning } from "../result.js";
import { readLines, warningOffset, type LineCursor, type ReadLinesOptions } from "./line-reader.js";

export interface EventLines {
  events: ActivityEvent[];
  /** Where the next call starts: past the last line turned into events. */
  cursor: LineCursor;
  done: boolean;
  restarted: boolean;
}

/**
 * Events of the kept lines after `start`, at most about `max`: once `max` is reached the remaining
 * kept lines are only located, not handed to `onLine`, and the first one's offset is where the
 * next call starts. `onLine` pushes a line's events into `events` and its warnings into `warnings`
 * (`where` names the line: `<file>:<offset>`). Warnings about lines past the stop are dropped: the
 * next call reads those lines again and says them then.
 */
export function readEventLines(
  file: string,
  start: LineCursor | null,
  options: ReadLinesOptions,
  max: number,
  onLine: (line: Buffer, pos: number, where: string, events: ActivityEvent[], warnings: SourceWarning[]) => void,
): SourceResult<EventLines> {
  const warnings: SourceWarning[] = [];
  const events: ActivityEvent[] = [];
  let stopAt: number | null = null;
  const r = readLines(file, start, options, (line, pos) => {
    if (events.length >= max) {
      stopAt ??= pos;
      return;
    }
    onLine(line, pos, `${file}:${pos}`, events, warnings);
  });
  if (!r.ok) return fail(r.error, [...r.warnings, ...warnings]);
  const stop = stopAt as number | null;
  const own = stop === null ? r.warnings : r.warnings.filter((w) => (warningOffset(w) ?? 0) < stop);
  return ok(
    {
      events,
      cursor: stop === null ? r.value.cursor : { ...r.value.cursor, offset: stop },
      done: stop === null && r.value.done,
      restarted: r.value.restarted,
    },
    [...own, ...warnings],
  );
}

/**
 * Every kept line of `file`, in file order, to `onLine` of a fresh `start()` state; its `bytes` is
 * the file size. A file replaced while being read is read again from the start (up to 3 times)
 * rather than mixing two files' lines.
 */
export function readWholeFile<S>(
  file: string,
  options: ReadLinesOptions,
  start: () => S,
  onLine: (state: S, line: Buffer, pos: number, where: string, warnings: SourceWarning[]) => void,
): SourceResult<{ state: S; bytes: number }> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const warnings: SourceWarning[] = [];
    const state = start();
    let cursor: LineCursor | null = null;
    for (;;) {
      const r = readLines(file, cursor, options, (line, pos) => onLine(state, line, pos, `${file}:${pos}`, warnings));
      if (!r.ok) return fail(r.error, [...warnings, ...r.warnings]);
      warnings.push(...r.warnings);
      if (r.value.restarted) break;
      cursor = r.value.cursor;
      if (r.value.done) return ok({ state, bytes: cursor.size }, warnings);
    }
  }
  return fail(new SourceError("corrupt", `${file}: replaced while being read`, { where: file }));
}
