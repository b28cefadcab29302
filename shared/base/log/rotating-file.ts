// An append-only log file with a size cap: when the next line would pass maxBytes the file is
// renamed to .1 (older ones shift up, the oldest beyond maxFiles is deleted). Writes are
// synchronous so a crash never loses a line that was reported as logged.
//
// The log and its generations are opened without following links and tightened to 0600 (a daemon
// running as root must never append to, or chmod, a file a planted `daemon.log` link points at);
// rotation only renames and removes directory entries, which never reaches through a link.
import { closeSync, fstatSync, mkdirSync, renameSync, rmSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { openPrivateAppend, securePrivateFile } from "../private-files.js";

interface RotatingFileOptions {
  maxBytes: number;
  maxFiles: number;
}

export class RotatingFile {
  private fd: number | null = null;
  private size = 0;

  constructor(
    readonly path: string,
    private options: RotatingFileOptions,
  ) {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    // Generations written before (maybe under a looser umask) become private too.
    for (let i = 1; i <= options.maxFiles; i++) securePrivateFile(`${path}.${i}`, "a rotated daemon log");
    this.open();
  }

  setOptions(options: RotatingFileOptions): void {
    this.options = options;
  }

  write(line: string): void {
    const bytes = Buffer.byteLength(line) + 1;
    if (this.size > 0 && this.size + bytes > this.options.maxBytes) this.rotate();
    if (this.fd === null) this.open();
    writeSync(this.fd as number, line + "\n");
    this.size += bytes;
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  private open(): void {
    this.fd = openPrivateAppend(this.path, "the daemon log");
    this.size = fstatSync(this.fd).size;
  }

  private rotate(): void {
    this.close();
    const { maxFiles } = this.options;
    rmSync(`${this.path}.${maxFiles}`, { force: true });
    for (let i = maxFiles - 1; i >= 1; i--) {
      try {
        renameSync(`${this.path}.${i}`, `${this.path}.${i + 1}`);
      } catch {
        // that generation does not exist yet
      }
    }
    renameSync(this.path, `${this.path}.1`);
    this.open();
  }
}
