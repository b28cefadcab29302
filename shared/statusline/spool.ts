// The spool: where `insightsctl statusline` leaves its readings while no daemon runs, one JSON
// report a line, and where the daemon takes them from when it starts. The file is private (0600,
// in the private state dir, never through a link) and small: a reading arrives after every
// message, so with no daemon for days it would grow without end; past MAX_SPOOL_BYTES it starts
// again from the newest reading (the latest figures are what matter; the history they lose was
// never seen by a daemon anyway).
import fs from "node:fs";
import { dirname } from "node:path";
import { ensurePrivateDir, openPrivateAppend, readPrivateFile, writePrivateFile } from "../base/private-files.js";
import { MAX_REPORT_BYTES, readReport, type StatusReport } from "./report.js";

export const MAX_SPOOL_BYTES = 64 * 1024;

/** Adds one report; throws (UNSAFE_PATH, an fs error) when the state dir or file is not ours. */
export function appendToSpool(file: string, report: StatusReport): void {
  const line = JSON.stringify(report) + "\n";
  if (Buffer.byteLength(line) > MAX_REPORT_BYTES) return;
  ensurePrivateDir(dirname(file), "the state dir");
  const fd = openPrivateAppend(file, "the status-line spool");
  try {
    if (fs.fstatSync(fd).size + Buffer.byteLength(line) <= MAX_SPOOL_BYTES) {
      // One write of a small line with O_APPEND: two status lines at once never interleave.
      fs.writeSync(fd, line);
      return;
    }
  } finally {
    fs.closeSync(fd);
  }
  writePrivateFile(file, line);
}

export interface TakenSpool {
  reports: StatusReport[];
  /** Lines that were not a valid report (dropped). */
  bad: number;
}

/**
 * Takes every report in the spool and leaves it empty. The file is renamed first, so a status
 * line written meanwhile starts a new spool rather than being lost to a truncate.
 */
export function takeSpool(file: string): TakenSpool {
  const taking = `${file}.taking`;
  try {
    // A `.taking` left by a daemon that died mid-take is read first (rename would replace it).
    if (!fs.existsSync(taking)) fs.renameSync(file, taking);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { reports: [], bad: 0 };
    throw err;
  }
  const out: TakenSpool = { reports: [], bad: 0 };
  try {
    // Refuses a link, another user's file or one far past our cap.
    const text = readPrivateFile(taking, "the status-line spool") ?? "";
    for (const line of text.split("\n")) {
      if (!line.trim()) continue;
      try {
        if (Buffer.byteLength(line) > MAX_REPORT_BYTES) throw new Error("too long");
        out.reports.push(readReport(JSON.parse(line)));
      } catch {
        out.bad++;
      }
    }
  } finally {
    fs.rmSync(taking, { force: true });
  }
  return out;
}
