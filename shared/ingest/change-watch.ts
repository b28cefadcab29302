// Change detection (design §1 "sources -> store", issue 13): each source's directories are watched
// (fs.watch, inotify on Linux) where its provider says its data changes (Provider.watchTargets),
// so an event a provider appends is seen at once instead of at the next poll. A burst of writes
// (one turn writes a transcript several times) folds into one refresh of that source only. The
// poll keeps running as the fallback: when watching fails (the inotify limits, ENOSPC / EMFILE, a
// watch that errors later, too many directories), the source is "polling" with the reason, which
// the `detection` health check shows, and watching is tried again later.
import * as fs from "node:fs";
import * as path from "node:path";
import type { Clock } from "../base/clock.js";
import { errorMessage } from "../base/errors.js";
import type { Logger } from "../base/log/logger.js";
import type { WatchTarget } from "../providers/contract.js";

export type WatchEventType = "rename" | "change";

/** One watched directory. */
interface DirWatch {
  close(): void;
}

/**
 * Starts watching one directory (not recursive). May throw (ENOSPC, EMFILE, ENOENT); a watch that
 * fails later calls `onError`. Injected so tests can drive events and failures.
 */
export type WatchFactory = (dir: string, onEvent: (type: WatchEventType, name: string | null) => void, onError: (err: Error) => void) => DirWatch;

/** fs.watch, not keeping the process alive on its own. */
export const fsWatchFactory: WatchFactory = (dir, onEvent, onError) => {
  const w = fs.watch(dir, { persistent: false }, (type, name) => onEvent(type === "rename" ? "rename" : "change", name === null ? null : String(name)));
  w.on("error", onError);
  return { close: () => w.close() };
};

export interface DetectionState {
  mode: "watching" | "polling";
  /** Why the source is polled only; null while watching. */
  reason: string | null;
  /** Epoch ms of the last change of mode or reason. */
  since: number;
}

/**
 * Which files changed in one burst (absolute paths), so the source may read just those
 * (AgentSource.refresh). Given only when every event of the burst named a file; null stands for
 * "not known": read everything, as before.
 */
export interface ChangeHint {
  paths: ReadonlySet<string>;
}

/** Changed names gathered per burst at most; a burst beyond it is "not known" (a full pass is cheaper then). */
export const MAX_HINT_PATHS = 256;

interface ChangeWatcherOptions {
  watch: WatchFactory;
  clock: Clock;
  logger: Logger;
  /**
   * A source's data may have changed (once per burst); `hint` names the files that changed when
   * every event of the burst said so, else null (a nameless event, a directory made, removed or
   * replaced, a root that appeared, more than MAX_HINT_PATHS names).
   */
  onChange(sourceId: string, hint: ChangeHint | null): void;
  /** A source's detection state changed. */
  onState?(sourceId: string, state: DetectionState | null): void;
  /** How long a burst of events is gathered before the one refresh (default 20 ms). */
  debounceMs?: number;
  /** Directories watched at most, all sources together (each costs an inotify watch; default 4096). */
  maxDirs?: number;
  /** After a failure, watching is tried again at the first sync this long after (default 60 s). */
  retryMs?: number;
}

interface Watched {
  dir: string;
  /** The target it belongs to; null for the parent of a root that does not exist yet. */
  target: WatchTarget | null;
  /** Path relative to the target's dir ("" for the dir itself). */
  rel: string;
  /** For a parent watch: the missing root it waits for. */
  waitsFor: string | null;
  /** The dir's inode when watched: a watch follows its inode, so a dir replaced at the same path is not watched any more. */
  ino: number | null;
  handle: DirWatch;
}

interface Entry {
  id: string;
  targets: WatchTarget[];
  /** The targets' dirs and depths: equal key, same watch set. */
  key: string;
  watches: Map<string, Watched>;
  state: DetectionState | null;
  retryAt: number;
  /** A root was missing at the last build: check on every sync whether it appeared. */
  waiting: boolean;
  timer: NodeJS.Timeout | null;
  /** The files named in the burst being gathered; null once something in it was not a named file. */
  paths: Set<string> | null;
}

/** Why a watch could not be made, in words a user can act on. */
function watchFailureReason(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === "ENOSPC") return "the system's inotify watch limit is reached (raise fs.inotify.max_user_watches)";
  if (code === "EMFILE") return "too many inotify instances or open files (raise fs.inotify.max_user_instances or the open-file limit)";
  return errorMessage(err);
}

const inoOf = (p: string): number | null => {
  try {
    return fs.statSync(p).ino;
  } catch {
    return null;
  }
};

const isDir = (p: string): boolean => {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
};

class TooManyDirs extends Error {}

export class ChangeWatcher {
  private readonly entries = new Map<string, Entry>();
  private readonly debounceMs: number;
  private readonly maxDirs: number;
  private readonly retryMs: number;
  private dirs = 0;
  private closed = false;

  constructor(private readonly options: ChangeWatcherOptions) {
    this.debounceMs = options.debounceMs ?? 20;
    this.maxDirs = options.maxDirs ?? 4096;
    this.retryMs = options.retryMs ?? 60_000;
  }

  /** Directories watched now, all sources together. */
  get watchedDirs(): number {
    return this.dirs;
  }

  state(sourceId: string): DetectionState | null {
    return this.entries.get(sourceId)?.state ?? null;
  }

  /**
   * Brings a source's watches in line with its targets (after every poll pass): new targets are
   * watched, a root that appeared is entered, a failed source is tried again once retryMs passed.
   */
  sync(sourceId: string, targets: WatchTarget[]): void {
    if (this.closed) return;
    if (!targets.length) return this.remove(sourceId);
    const key = JSON.stringify(targets.map((t) => [t.dir, t.depth]));
    let entry = this.entries.get(sourceId);
    if (!entry) {
      entry = { id: sourceId, targets, key, watches: new Map(), state: null, retryAt: 0, waiting: false, timer: null, paths: new Set() };
      this.entries.set(sourceId, entry);
      return this.build(entry);
    }
    entry.targets = targets;
    const now = this.options.clock.now();
    if (entry.key !== key) {
      entry.key = key;
      return this.build(entry);
    }
    if (entry.state?.mode === "polling" && now >= entry.retryAt) return this.build(entry);
    // A root replaced by another dir at the same path (moved away and made anew): watch the new one,
    // and read the source, as the events that would have said so were missed (a watched source sits
    // out most poll passes, so what was written there before the new watch would wait for the safety net).
    const replaced = entry.state?.mode === "watching" && targets.some((t) => this.replaced(entry, t.dir));
    // A missing root (or its parent) that appeared without an event we saw.
    const appeared = (t: WatchTarget): boolean => !entry.watches.has(t.dir) && (isDir(t.dir) || (!entry.watches.has(path.dirname(t.dir)) && isDir(path.dirname(t.dir))));
    if (replaced || (entry.state?.mode === "watching" && entry.waiting && targets.some(appeared))) {
      this.build(entry);
      this.schedule(entry);
    }
  }

  private replaced(entry: Entry, dir: string): boolean {
    const w = entry.watches.get(dir);
    return w !== undefined && w.ino !== inoOf(dir);
  }

  /** Stops watching a source (it is gone from the registry). */
  remove(sourceId: string): void {
    const entry = this.entries.get(sourceId);
    if (!entry) return;
    this.closeWatches(entry);
    if (entry.timer) clearTimeout(entry.timer);
    this.entries.delete(sourceId);
    this.options.onState?.(sourceId, null);
  }

  close(): void {
    this.closed = true;
    for (const id of [...this.entries.keys()]) this.remove(id);
  }

  /** (Re)makes every watch of a source from its targets. */
  private build(entry: Entry): void {
    this.closeWatches(entry);
    entry.waiting = false;
    try {
      for (const target of entry.targets) {
        if (isDir(target.dir)) this.watchTree(entry, target, target.dir, "");
        else {
          // Not there yet (a first install, a day without sessions): wait for it in its parent.
          entry.waiting = true;
          const parent = path.dirname(target.dir);
          if (isDir(parent) && !entry.watches.has(parent)) this.add(entry, { dir: parent, target: null, rel: "", waitsFor: target.dir });
        }
      }
    } catch (err) {
      return this.fail(entry, err instanceof TooManyDirs ? err.message : watchFailureReason(err));
    }
    // Tried again at every poll pass: cheap (a stat per target), and the dirs may come any time.
    if (!entry.watches.size) return this.fail(entry, `nothing to watch: ${entry.targets.map((t) => t.dir).join(", ")} and their parents do not exist`, 0);
    this.setState(entry, "watching", null);
  }

  /** `dir` and the sub-directories of the target below it that it enters, breadth first. */
  private watchTree(entry: Entry, target: WatchTarget, dir: string, rel: string): void {
    const queue: Array<{ dir: string; rel: string }> = [{ dir, rel }];
    for (let item = queue.shift(); item; item = queue.shift()) {
      if (entry.watches.has(item.dir)) continue;
      this.add(entry, { dir: item.dir, target, rel: item.rel, waitsFor: null });
      const level = item.rel === "" ? 0 : item.rel.split("/").length;
      if (level >= target.depth) continue;
      let names: fs.Dirent[];
      try {
        names = fs.readdirSync(item.dir, { withFileTypes: true });
      } catch {
        continue; // removed meanwhile: its own watch reports it
      }
      for (const d of names) {
        if (!d.isDirectory()) continue;
        const childRel = item.rel === "" ? d.name : `${item.rel}/${d.name}`;
        if (target.enter && !target.enter(childRel)) continue;
        // Each dir queued becomes a watch: past the limit, say so now, not after making (and
        // closing) maxDirs watches, as the retry of a polled install did every minute.
        if (this.dirs + queue.length >= this.maxDirs) throw this.tooMany();
        queue.push({ dir: path.join(item.dir, d.name), rel: childRel });
      }
    }
  }

  private add(entry: Entry, w: Omit<Watched, "handle" | "ino">): void {
    if (this.dirs >= this.maxDirs) throw this.tooMany();
    const watched: Watched = { ...w, ino: inoOf(w.dir), handle: { close: () => undefined } };
    // A watch closed since (rebuilt, dropped) may still deliver: only the current one counts.
    const current = (): boolean => this.entries.get(entry.id) === entry && entry.watches.get(w.dir) === watched;
    watched.handle = this.options.watch(
      w.dir,
      (type, name) => {
        if (current()) this.onEvent(entry, watched, type, name);
      },
      (err) => {
        if (current()) this.fail(entry, `a watch failed: ${watchFailureReason(err)}`);
      },
    );
    entry.watches.set(w.dir, watched);
    this.dirs++;
  }

  private tooMany(): TooManyDirs {
    return new TooManyDirs(`more than ${this.maxDirs} directories to watch`);
  }

  private onEvent(entry: Entry, w: Watched, type: WatchEventType, name: string | null): void {
    const dir = w.dir;
    if (name === null) return this.schedule(entry); // the platform did not say what: refresh
    if (w.waitsFor !== null) {
      if (path.join(dir, name) !== w.waitsFor) return;
      // The root appeared: watch it (and what is already in it) and read it.
      this.build(entry);
      return this.schedule(entry);
    }
    const target = w.target;
    if (!target) return;
    if (type === "rename") {
      if (!isDir(dir) || inoOf(dir) !== w.ino) {
        // The watched dir itself is gone or replaced (removed or renamed): start over from the targets.
        this.build(entry);
        return this.schedule(entry);
      }
      const child = path.join(dir, name);
      const childRel = w.rel === "" ? name : `${w.rel}/${name}`;
      if (entry.watches.has(child) && !isDir(child)) {
        this.dropBelow(entry, child);
        return this.schedule(entry);
      }
      const level = childRel.split("/").length;
      if (!entry.watches.has(child) && level <= target.depth && (!target.enter || target.enter(childRel)) && isDir(child)) {
        try {
          this.watchTree(entry, target, child, childRel);
        } catch (err) {
          return this.fail(entry, err instanceof TooManyDirs ? err.message : watchFailureReason(err));
        }
        // Files may have been written in it before its watch existed.
        return this.schedule(entry);
      }
    }
    if (!target.match || target.match(name)) this.schedule(entry, path.join(dir, name));
  }

  /**
   * One refresh per burst: the first event starts the wait, the rest of the burst joins it. `file`
   * is the entry the event named; without one (null), the burst's hint is "not known".
   */
  private schedule(entry: Entry, file: string | null = null): void {
    if (this.closed) return;
    if (file === null) entry.paths = null;
    else if (entry.paths) {
      entry.paths.add(file);
      if (entry.paths.size > MAX_HINT_PATHS) entry.paths = null;
    }
    if (entry.timer) return;
    entry.timer = setTimeout(() => {
      entry.timer = null;
      const paths = entry.paths;
      // The next burst starts anew; events after this point are read by a refresh after this one.
      entry.paths = new Set();
      if (this.entries.get(entry.id) === entry) this.options.onChange(entry.id, paths && paths.size ? { paths } : null);
    }, this.debounceMs);
    entry.timer.unref();
  }

  /** Back to the poll for this source, saying why; watching is tried again after retryMs. */
  private fail(entry: Entry, reason: string, retryMs = this.retryMs): void {
    if (this.entries.get(entry.id) !== entry) return;
    this.closeWatches(entry);
    entry.retryAt = this.options.clock.now() + retryMs;
    this.setState(entry, "polling", reason);
  }

  private dropBelow(entry: Entry, dir: string): void {
    for (const [d, w] of entry.watches) {
      if (d === dir || d.startsWith(dir + path.sep)) {
        this.closeOne(w);
        entry.watches.delete(d);
      }
    }
  }

  private closeWatches(entry: Entry): void {
    for (const w of entry.watches.values()) this.closeOne(w);
    entry.watches.clear();
  }

  private closeOne(w: Watched): void {
    this.dirs--;
    try {
      w.handle.close();
    } catch {
      // already closed by the platform (its dir was removed)
    }
  }

  private setState(entry: Entry, mode: DetectionState["mode"], reason: string | null): void {
    const prev = entry.state;
    if (prev && prev.mode === mode && prev.reason === reason) return;
    entry.state = { mode, reason, since: this.options.clock.now() };
    const { logger } = this.options;
    if (mode === "polling") logger.warn("change detection falls back to polling", { source: entry.id, reason });
    else if (prev) logger.info("change detection watching again", { source: entry.id });
    else logger.debug("change detection watching", { source: entry.id, dirs: entry.watches.size });
    this.options.onState?.(entry.id, entry.state);
  }
}
