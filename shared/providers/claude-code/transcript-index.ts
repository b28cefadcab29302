// The transcripts of one install and where they were seen (issue 18): the full listing, kept, so an
// install nobody can watch (past the watch limit) is polled at a cost that follows what changed,
// not what exists. A poll stats directories first: a file made, removed or renamed changes its
// directory's mtime, so only a directory whose stamp moved is listed again. Directories written
// lately (HOT_MS) or where a session runs (`sessions/<pid>.json`, noteLive) are stat-ed on every
// poll, the others in slices, each once per STAMP_MS. An append changes only the file, so the files
// written lately and the transcripts of running sessions (a resumed session appends to its old
// file) are stat-ed on every poll, and every directory is listed again, files stat-ed, once per
// SWEEP_MS in slices: the safety net for a writer with no record here (another machine). Those two
// cadences are what an idle install costs (issue 18: <= 1 % of a core at 20,000 transcripts).
// docs/providers.md "How a polled Claude Code install is read" states the trade-off.
import * as fs from "node:fs";
import * as path from "node:path";
import type { TranscriptRef } from "../contract.js";
import { runNow, runPaced } from "../paced.js";
import { classifyIoError, fail, ok } from "../result.js";
import type { SourceResult, SourceWarning } from "../result.js";
import { changeTokenOf, parseTranscriptId, plainName, readDir, statAs } from "./files.js";

/** Files stat-ed (and folders listed) between two points where a paced listing may pause (~5 µs each). */
export const LIST_PACE = 500;
/** A file written within this long is stat-ed on every poll: an append to it is seen at the next one. */
export const HOT_MS = 15 * 60_000;
/** A directory not written lately, with no session running in it, has its stamp checked once in this long (a slice per poll). */
export const STAMP_MS = 60_000;
/** Every directory is listed again, its files stat-ed, once in this long (a slice per poll). */
export const SWEEP_MS = 10 * 60_000;
/**
 * A directory changed this recently is listed again at the next poll even when its stamp did not
 * move: two changes within one tick of the file system's clock leave the same mtime.
 */
const RACY_MS = 3000;

/** The file-system calls the index makes (tests count them). */
export type IndexFs = Pick<typeof fs, "statSync" | "readdirSync">;

/** A running session (LiveSession): its transcript is `projects/<slug of cwd>/<sessionKey>.jsonl`. */
interface LiveRef {
  sessionKey: string;
  cwd: string | null;
}

/**
 * The project dir names Claude Code may give a cwd (format doc §1): every `/` and `.` made `-` as
 * observed; every other character that is not a letter or digit too, as newer builds do. Both are
 * tried, since a miss only means the slower slices find the session.
 */
function slugsOf(cwd: string): string[] {
  const observed = cwd.replace(/[/.]/g, "-");
  const strict = cwd.replace(/[^a-zA-Z0-9]/g, "-");
  return (observed === strict ? [observed] : [observed, strict]).filter(plainName);
}

interface Seen {
  ref: TranscriptRef;
  mtimeMs: number;
}

/** One listed directory: a project (`projects/<slug>`) or a session's `subagents/`. */
interface Dir {
  path: string;
  /** Its stat before it was listed; null when it was not there. */
  stamp: Stamp | null;
  mtimeMs: number;
  files: Map<string, Seen>;
  /** A project's session dirs, each by name, as the `subagents/` inside it. */
  sessions: Map<string, Dir> | null;
}

/** What a poll found: the transcripts new or changed, and how many went away. */
interface PollResult {
  changed: TranscriptRef[];
  removed: number;
}

/** What moves when a directory's entries change, kept as numbers: a stamp string per stat was most of a poll's garbage. */
interface Stamp {
  ino: number;
  mtimeMs: number;
  ctimeMs: number;
}

const sameStamp = (a: Stamp | null, b: Stamp | null): boolean => a === b || (a !== null && b !== null && a.ino === b.ino && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs);

function stampOf(io: IndexFs, p: string): { stamp: Stamp | null; mtimeMs: number } {
  try {
    const st = io.statSync(p, { throwIfNoEntry: false });
    return st?.isDirectory() ? { stamp: { ino: st.ino, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs }, mtimeMs: st.mtimeMs } : { stamp: null, mtimeMs: 0 };
  } catch {
    return { stamp: null, mtimeMs: 0 }; // EACCES, ELOOP: listed as empty, as the listing does
  }
}

const byId = (a: TranscriptRef, b: TranscriptRef): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export class TranscriptIndex {
  private readonly projects: string;
  private projectsStamp: Stamp | null = null;
  private slugs = new Map<string, Dir>();
  /** Files written lately (HOT_MS), by id, with the directory that lists them. */
  private readonly hot = new Map<string, Dir>();
  /** Project dirs written lately (theirs or a session's `subagents/`): stamps checked on every poll. */
  private readonly hotSlugs = new Set<string>();
  /** Project dirs where a session runs now (noteLive): stamps checked on every poll. */
  private liveSlugs = new Set<string>();
  /** Transcripts of the sessions running now: stat-ed on every poll, however old. */
  private liveIds = new Set<string>();
  /** The slugs in slice order, remade when the set changes; where the next stamp and sweep slices start. */
  private order: string[] = [];
  private stampAt = 0;
  private sweepAt = 0;
  private lastPoll = 0;
  private built = false;

  constructor(
    installDir: string,
    /** Wall-clock ms: compared with file mtimes, which are the kernel's wall clock. */
    private readonly now: () => number = Date.now,
    private readonly io: IndexFs = fs,
  ) {
    this.projects = path.join(installDir, "projects");
  }

  /** A full listing was made: polls may follow. */
  get ready(): boolean {
    return this.built;
  }

  get size(): number {
    let n = 0;
    for (const d of this.slugs.values()) {
      n += d.files.size;
      for (const s of d.sessions?.values() ?? []) n += s.files.size;
    }
    return n;
  }

  /** Lists every transcript anew (stat-ing each), keeps it, and gives it sorted by id. */
  list(): SourceResult<TranscriptRef[]> {
    return runNow(this.listing());
  }

  /** list(), awaiting `pause()` every LIST_PACE files. */
  listPaced(pause: () => Promise<void>): Promise<SourceResult<TranscriptRef[]>> {
    return runPaced(this.listing(), pause);
  }

  private *listing(): Generator<void, SourceResult<TranscriptRef[]>> {
    const { stamp } = stampOf(this.io, this.projects);
    let names: fs.Dirent[];
    try {
      names = this.io.readdirSync(this.projects, { withFileTypes: true });
    } catch (err) {
      this.reset();
      if ((err as { code?: unknown }).code === "ENOENT") {
        this.built = true;
        return ok([]);
      }
      return fail(classifyIoError(err, this.projects));
    }
    const warnings: SourceWarning[] = [];
    const slugs = new Map<string, Dir>();
    const count = { n: 0 };
    for (const d of names) {
      if (!plainName(d.name)) continue;
      const slugDir = path.join(this.projects, d.name);
      if (!statAs(slugDir, d, "dir", warnings, this.io)) continue;
      slugs.set(d.name, yield* this.listSlug(d.name, warnings, count));
    }
    this.reset();
    this.slugs = slugs;
    this.order = [...slugs.keys()];
    for (const [name, d] of slugs) this.noteHotSlug(name, d);
    this.projectsStamp = stamp;
    this.built = true;
    const out: TranscriptRef[] = [];
    for (const dir of this.dirs()) for (const [id, seen] of dir.files) {
      out.push(seen.ref);
      this.noteHot(id, seen, dir);
    }
    out.sort(byId);
    return ok(out, warnings);
  }

  private reset(): void {
    this.slugs = new Map();
    this.hot.clear();
    this.hotSlugs.clear();
    this.order = [];
    this.projectsStamp = null;
    this.lastPoll = this.now();
  }

  private *dirs(): Generator<Dir> {
    for (const d of this.slugs.values()) {
      yield d;
      if (d.sessions) yield* d.sessions.values();
    }
  }

  /** One project dir: its transcripts, and each session dir's `subagents/`. Stat-ed before it is read, so a change meanwhile moves the stamp. */
  /**
   * `prev`: the same dir as listed before; a file whose token did not move keeps its entry, so a
   * sweep of an idle install keeps the objects it has rather than parsing and making them anew.
   */
  private *listSlug(slug: string, warnings: SourceWarning[], count: { n: number }, stamped?: { stamp: Stamp | null; mtimeMs: number }, prev?: Dir): Generator<void, Dir> {
    const slugDir = path.join(this.projects, slug);
    // A poll passes the stamp it just took (one stat less per directory listed).
    const dir: Dir = { path: slugDir, ...(stamped ?? stampOf(this.io, slugDir)), files: new Map(), sessions: new Map() };
    for (const entry of readDir(slugDir, warnings, this.io)) {
      if (!plainName(entry.name)) continue;
      const p = path.join(slugDir, entry.name);
      if (entry.name.endsWith(".jsonl")) {
        this.add(dir, `projects/${slug}/${entry.name}`, statAs(p, entry, "file", warnings, this.io), prev);
        if (++count.n % LIST_PACE === 0) yield;
        continue;
      }
      // A session's own dir holds its sub-agents (and, in some versions, other per-session state).
      if (!entry.isDirectory()) continue;
      if (++count.n % LIST_PACE === 0) yield;
      dir.sessions?.set(entry.name, yield* this.listSubagents(slug, entry.name, warnings, count, prev?.sessions?.get(entry.name)));
    }
    return dir;
  }

  private *listSubagents(slug: string, session: string, warnings: SourceWarning[], count: { n: number }, prev?: Dir): Generator<void, Dir> {
    const subDir = path.join(this.projects, slug, session, "subagents");
    const dir: Dir = { path: subDir, ...stampOf(this.io, subDir), files: new Map(), sessions: null };
    if (dir.stamp === null) return dir;
    for (const sub of readDir(subDir, warnings, this.io)) {
      if (!sub.name.startsWith("agent-") || !sub.name.endsWith(".jsonl")) continue;
      this.add(dir, `projects/${slug}/${session}/subagents/${sub.name}`, statAs(path.join(subDir, sub.name), sub, "file", warnings, this.io), prev);
      if (++count.n % LIST_PACE === 0) yield;
    }
    return dir;
  }

  private add(dir: Dir, id: string, st: fs.Stats | null, prev?: Dir): void {
    if (!st) return;
    const token = changeTokenOf(st);
    const kept = prev?.files.get(id);
    if (kept?.ref.changeToken === token) {
      dir.files.set(kept.ref.id, kept);
      return;
    }
    const parsed = parseTranscriptId(id);
    if (!parsed) return;
    dir.files.set(id, { ref: { id, sessionKey: parsed.sessionKey, parentKey: parsed.parentKey, changeToken: token, sizeBytes: st.size }, mtimeMs: st.mtimeMs });
  }

  private noteHotSlug(name: string, d: Dir): void {
    let newest = d.mtimeMs;
    for (const s of d.sessions?.values() ?? []) newest = Math.max(newest, s.mtimeMs);
    if (this.now() - newest <= HOT_MS) this.hotSlugs.add(name);
    else this.hotSlugs.delete(name);
  }

  /** The next `n` slugs of the round from `at`; returns where the round goes on. */
  private slice(n: number, at: number, into: Set<string>): number {
    const len = this.order.length;
    if (!len) return 0;
    for (let i = 0; i < Math.min(n, len); i++) {
      into.add(this.order[at % len] as string);
      at = (at + 1) % len;
    }
    return at;
  }

  private noteHot(id: string, seen: Seen, dir: Dir): void {
    if (this.now() - seen.mtimeMs <= HOT_MS || this.liveIds.has(id)) this.hot.set(id, dir);
    else this.hot.delete(id);
  }

  /**
   * The sessions running now (`sessions/<pid>.json`, read before every poll): each one's project
   * dir has its stamp checked, and its transcripts (sub-agents' too) are stat-ed, on every poll. A
   * resumed session appends to a transcript that may be months old, which only its own stamp shows.
   */
  noteLive(live: readonly LiveRef[]): void {
    const slugs = new Set<string>();
    const ids = new Set<string>();
    for (const s of live) {
      if (s.cwd === null || !plainName(s.sessionKey)) continue;
      for (const slug of slugsOf(s.cwd)) {
        slugs.add(slug);
        const dir = this.slugs.get(slug);
        if (!dir) continue;
        const id = `projects/${slug}/${s.sessionKey}.jsonl`;
        if (dir.files.has(id)) {
          ids.add(id);
          this.hot.set(id, dir);
        }
        const sub = dir.sessions?.get(s.sessionKey);
        for (const subId of sub?.files.keys() ?? []) {
          ids.add(subId);
          this.hot.set(subId, sub as Dir);
        }
      }
    }
    this.liveSlugs = slugs;
    this.liveIds = ids;
  }

  /**
   * What changed since the last listing or poll, found by stat-ing every directory, the hot files
   * and a slice of the sweep. null before the first full listing (make one) or when the listing
   * itself could not be read (a full pass says why).
   */
  poll(): { result: PollResult; warnings: SourceWarning[] } | null {
    if (!this.built) return null;
    const now = this.now();
    const warnings: SourceWarning[] = [];
    const result: PollResult = { changed: [], removed: 0 };
    const restated = new Set<string>();
    const relist = (before: Dir, after: Dir): void => {
      for (const [id, seen] of after.files) {
        restated.add(id);
        const old = before.files.get(id);
        if (!old || old.ref.changeToken !== seen.ref.changeToken) result.changed.push(seen.ref);
        this.noteHot(id, seen, after);
      }
      for (const id of before.files.keys()) {
        if (after.files.has(id)) continue;
        result.removed++;
        this.hot.delete(id);
      }
    };
    const drop = (d: Dir): void => relist(d, { ...d, files: new Map(), sessions: null });
    const count = { n: 0 };

    // The projects dir: slugs made or removed.
    const projects = stampOf(this.io, this.projects);
    if (projects.stamp === null && this.projectsStamp === null && this.slugs.size === 0) return { result, warnings };
    if (!sameStamp(projects.stamp, this.projectsStamp) || now - projects.mtimeMs < RACY_MS) {
      const names = projects.stamp === null ? [] : readDir(this.projects, warnings, this.io);
      const present = new Set<string>();
      for (const d of names) {
        if (!plainName(d.name)) continue;
        // A known slug's own stamp is checked below; only a new name is stat-ed here.
        if (this.slugs.has(d.name)) {
          present.add(d.name);
          continue;
        }
        if (!statAs(path.join(this.projects, d.name), d, "dir", warnings, this.io)) continue;
        present.add(d.name);
        const made = runNow(this.listSlug(d.name, warnings, count));
        relist(emptyLike(made), made);
        for (const sub of made.sessions?.values() ?? []) relist(emptyLike(sub), sub);
        this.slugs.set(d.name, made);
        this.noteHotSlug(d.name, made);
      }
      for (const [name, d] of this.slugs) {
        if (present.has(name)) continue;
        drop(d);
        for (const s of d.sessions?.values() ?? []) drop(s);
        this.slugs.delete(name);
        this.hotSlugs.delete(name);
      }
      this.projectsStamp = projects.stamp;
      if (this.order.length !== this.slugs.size || this.order.some((s) => !this.slugs.has(s))) this.order = [...this.slugs.keys()];
    }

    // This poll's slices: every slug's stamp once per STAMP_MS, every slug listed once per
    // SWEEP_MS, whatever the poll interval; slugs written lately or with a session running on every poll.
    const elapsed = Math.max(0, now - this.lastPoll);
    this.lastPoll = now;
    const share = (period: number): number => Math.ceil((this.order.length * elapsed) / period);
    const check = new Set<string>(this.hotSlugs);
    for (const name of this.liveSlugs) if (this.slugs.has(name)) check.add(name);
    this.stampAt = this.slice(share(STAMP_MS), this.stampAt, check);
    const due = new Set<string>();
    this.sweepAt = this.slice(share(SWEEP_MS), this.sweepAt, due);

    for (const name of new Set([...check, ...due])) {
      const before = this.slugs.get(name);
      if (!before) {
        this.hotSlugs.delete(name);
        continue;
      }
      const st = stampOf(this.io, before.path);
      if (due.has(name) || !sameStamp(st.stamp, before.stamp) || now - st.mtimeMs < RACY_MS) {
        const after = runNow(this.listSlug(name, warnings, count, st, before));
        relist(before, after);
        for (const [session, sub] of after.sessions ?? []) relist(before.sessions?.get(session) ?? emptyLike(sub), sub);
        for (const [session, old] of before.sessions ?? []) if (!after.sessions?.has(session)) drop(old);
        this.slugs.set(name, after);
        this.noteHotSlug(name, after);
        continue;
      }
      // A new sub-agent file changes its `subagents/`, not the project dir.
      for (const [session, sub] of before.sessions ?? []) {
        const sst = stampOf(this.io, sub.path);
        if (sameStamp(sst.stamp, sub.stamp) && now - sst.mtimeMs >= RACY_MS) continue;
        const after = runNow(this.listSubagents(name, session, warnings, count, sub));
        relist(sub, after);
        before.sessions?.set(session, after);
      }
      this.noteHotSlug(name, before);
    }

    // The files written lately, not stat-ed above: an append moves only the file's own stamp.
    for (const [id, dir] of this.hot) {
      if (restated.has(id)) continue;
      const seen = dir.files.get(id);
      if (!seen) {
        this.hot.delete(id);
        continue;
      }
      let st: fs.Stats | undefined;
      try {
        st = this.io.statSync(path.join(path.dirname(this.projects), ...id.split("/")), { throwIfNoEntry: false });
      } catch {
        st = undefined;
      }
      // Gone or no longer a file: its directory's stamp moved, the next poll lists it again.
      if (!st?.isFile()) continue;
      const token = changeTokenOf(st);
      const next: Seen = token === seen.ref.changeToken ? seen : { ref: { ...seen.ref, changeToken: token, sizeBytes: st.size }, mtimeMs: st.mtimeMs };
      if (next !== seen) {
        dir.files.set(id, next);
        result.changed.push(next.ref);
      }
      this.noteHot(id, next, dir);
    }
    result.changed.sort(byId);
    return { result, warnings };
  }
}

const emptyLike = (d: Dir): Dir => ({ ...d, files: new Map(), sessions: null });

/** Every transcript of the install, sorted by id, listed once. No `projects/` dir yet is an empty list. */
export function listTranscriptFiles(installDir: string): SourceResult<TranscriptRef[]> {
  return new TranscriptIndex(installDir).list();
}

/** listTranscriptFiles, awaiting `pause()` every LIST_PACE files. */
export function listTranscriptFilesPaced(installDir: string, pause: () => Promise<void>): Promise<SourceResult<TranscriptRef[]>> {
  return new TranscriptIndex(installDir).listPaced(pause);
}
