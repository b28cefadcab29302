// The one logger. consola dispatches; our reporter turns each call into a LogRecord and fans it
// out to the console (consola's own fancy reporter on a TTY, one JSON object per line otherwise),
// the size-capped daemon.log, an in-memory ring for `logs -f` backlogs, and live subscribers.
import { createConsola, type ConsolaInstance, type ConsolaReporter, type LogObject, type LogType } from "consola";
import { isLevel, levelRank, type Level, type LogRecord } from "./record.js";
import type { RotatingFile } from "./rotating-file.js";

export type Fields = Record<string, unknown>;

export interface Logger {
  trace(msg: string, fields?: Fields): void;
  debug(msg: string, fields?: Fields): void;
  info(msg: string, fields?: Fields): void;
  warn(msg: string, fields?: Fields): void;
  error(msg: string, fields?: Fields): void;
  fatal(msg: string, fields?: Fields): void;
  /** A logger whose records carry `module`. */
  child(module: string): Logger;
}

/** pretty: consola's human reporter; json: one object per line; off: nothing on the console. */
export type ConsoleMode = "pretty" | "json" | "off";

interface LogHubOptions {
  level?: Exclude<Level, "fatal">;
  console?: ConsoleMode;
  /** Where console output goes; stderr keeps stdout clean for data. */
  stream?: NodeJS.WriteStream;
  file?: RotatingFile;
  ringSize?: number;
  /** Colours in pretty mode; off with NO_COLOR. */
  colors?: boolean;
}

// consola counts levels the other way round: 0 fatal/error ... 5 trace.
const CONSOLA_LEVEL: Record<Level, number> = { fatal: 0, error: 0, warn: 1, info: 3, debug: 4, trace: 5 };
const CONSOLA_TYPE: Record<Level, LogType> = { fatal: "fatal", error: "error", warn: "warn", info: "info", debug: "debug", trace: "trace" };

function levelOfType(type: LogType): Level {
  if (isLevel(type)) return type;
  if (type === "verbose") return "trace";
  return "info"; // success, ready, start, log, box
}

export class LogHub {
  readonly logger: Logger;
  private readonly consola: ConsolaInstance;
  private readonly pretty: ConsolaInstance;
  private consoleMode: ConsoleMode;
  private stream: NodeJS.WriteStream;
  private file: RotatingFile | undefined;
  private level: Level;
  private readonly ring: LogRecord[] = [];
  private readonly ringSize: number;
  private readonly subscribers = new Set<(r: LogRecord) => void>();

  constructor(options: LogHubOptions = {}) {
    this.level = options.level ?? "info";
    this.consoleMode = options.console ?? defaultConsoleMode(options.stream ?? process.stderr);
    this.stream = options.stream ?? process.stderr;
    this.file = options.file;
    this.ringSize = options.ringSize ?? 1000;
    const reporter: ConsolaReporter = { log: (obj) => this.dispatch(obj) };
    // Throttling would fold repeated lines into one; a daemon log must keep every line.
    this.consola = createConsola({ level: CONSOLA_LEVEL[this.level], reporters: [reporter], throttle: 0 });
    // consola ignores TTY detection unless told: pass fancy and colours explicitly.
    this.pretty = createConsola({
      fancy: true,
      level: 5,
      throttle: 0,
      stdout: this.stream,
      stderr: this.stream,
      formatOptions: { colors: options.colors ?? !process.env.NO_COLOR, date: true, compact: true },
    });
    this.logger = this.makeLogger("");
  }

  setLevel(level: Exclude<Level, "fatal">): void {
    this.level = level;
    this.consola.level = CONSOLA_LEVEL[level];
  }

  setConsole(mode: ConsoleMode): void {
    this.consoleMode = mode;
  }

  setFile(file: RotatingFile | undefined): void {
    this.file = file;
  }

  /** Live records from now on; returns the unsubscribe function. */
  subscribe(fn: (r: LogRecord) => void): () => void {
    this.subscribers.add(fn);
    return () => this.subscribers.delete(fn);
  }

  /** The last `n` records at or above `minLevel` still in memory. */
  recent(n: number, minLevel: Level = "trace"): LogRecord[] {
    const min = levelRank(minLevel);
    // slice(-0) is the whole array: none asked for is none.
    if (!(n > 0)) return [];
    return this.ring.filter((r) => levelRank(r.level) >= min).slice(-n);
  }

  close(): void {
    this.file?.close();
    this.file = undefined;
    this.subscribers.clear();
  }

  private makeLogger(module: string): Logger {
    const tagged = module ? this.consola.withTag(module) : this.consola;
    const at =
      (level: Level) =>
      (msg: string, fields?: Fields): void => {
        tagged[CONSOLA_TYPE[level]](msg, ...(fields ? [fields] : []));
      };
    return {
      trace: at("trace"),
      debug: at("debug"),
      info: at("info"),
      warn: at("warn"),
      error: at("error"),
      fatal: at("fatal"),
      child: (sub) => this.makeLogger(module ? `${module}/${sub}` : sub),
    };
  }

  private dispatch(obj: LogObject): void {
    const record = toRecord(obj);
    if (this.consoleMode === "json") this.stream.write(JSON.stringify(record) + "\n");
    else if (this.consoleMode === "pretty") {
      for (const r of this.pretty.options.reporters) r.log(obj, { options: this.pretty.options });
    }
    if (this.file) {
      try {
        this.file.write(JSON.stringify(record));
      } catch (err) {
        // A full disk must not take the daemon down; say so once on the console.
        if (this.consoleMode !== "off") this.stream.write(`daemon.log write failed: ${err instanceof Error ? err.message : String(err)}\n`);
      }
    }
    this.ring.push(record);
    if (this.ring.length > this.ringSize) this.ring.splice(0, this.ring.length - this.ringSize);
    for (const fn of this.subscribers) {
      try {
        fn(record);
      } catch {
        // a broken subscriber is its own problem
      }
    }
  }
}

function toRecord(obj: LogObject): LogRecord {
  const [first, ...rest] = obj.args as unknown[];
  const record: LogRecord = {
    time: obj.date.toISOString(),
    level: levelOfType(obj.type),
    module: obj.tag ?? "",
    msg: first instanceof Error ? first.message : String(first ?? ""),
  };
  for (const extra of rest) {
    if (extra && typeof extra === "object" && !Array.isArray(extra)) {
      for (const [k, v] of Object.entries(extra as Fields)) {
        if (k === "time" || k === "level" || k === "module" || k === "msg") continue;
        record[k] = v instanceof Error ? v.message : v;
      }
    }
  }
  return record;
}

function defaultConsoleMode(stream: NodeJS.WriteStream): ConsoleMode {
  return stream.isTTY ? "pretty" : "json";
}
