// Puts the bundled demo state where the daemon reads it, with its timestamps moved to now.
//
// SQLite writes -wal/-shm files beside a database even to read it, and the live replay appends to
// the copy, so the bundle itself is never opened: it is copied to $XDG_STATE_HOME/gateway-insights/
// demo/ and moved in time there (the recording's last moment becomes "now"). A copy that is still
// fresh (touched by a replay in the last hour, same gateway-insights version) is kept as it is, so
// a restart goes on where the demo was; a stale one is replaced, and the caller starts a new store
// for it (`fresh`), since history read from the old copy would sit at the old times.
//
// Which recordings there are is the registered providers' business: each provider's module
// declares its demo (shared/providers/demo-contract.ts) with its folder under shared/demo/ and how a
// copy of it is moved to now; this file copies, makes private and puts in place, and names none.
// The first registered provider with a recording in the bundle (the one with the agent gateway
// today) is installed at `target` and carries the marker; the others go beside it, each under its
// folder's name.
import { chmodSync, cpSync, lstatSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { InsightsError } from "../base/errors.js";
import { ensurePrivateDir } from "../base/private-files.js";
import { dirname, join } from "node:path";
import { packageRoot } from "../base/package-root.js";
import { VERSION } from "../base/version.js";
import type { DemoCopy, DemoEntry, ProviderDemo } from "../providers/demo-contract.js";
import { DEMOS } from "../providers/modules.js";
import type { ProviderName } from "../providers/registry.js";

/**
 * What the demo generator wrote about the bundled recording (shared/demo/demo-state.json): an
 * entry per provider, under its demo's `manifestKey`.
 */
export type DemoManifest = Record<string, DemoEntry>;

/** One provider's installed copy. */
export interface InstalledCopy extends DemoCopy {
  readonly provider: ProviderName;
  readonly demo: ProviderDemo;
}

/** Marker file in the copy: which version installed it, how far it was moved, when a replay last wrote. */
interface DemoMarker {
  version: string;
  /** Added to every recorded timestamp at install. */
  offsetMs: number;
  installedAt: number;
  touchedAt: number;
}

export const MARKER_FILE = ".gateway-insights-demo";
/** A copy nobody has written to for this long is replaced by a new one moved to now. */
export const STALE_AFTER_MS = 3_600_000;

export function demoRoot(): string {
  return join(packageRoot(), "shared", "demo");
}

export function readManifest(root = demoRoot()): DemoManifest {
  return JSON.parse(readFileSync(join(root, "demo-state.json"), "utf8")) as DemoManifest;
}

export function readMarker(target: string): DemoMarker | null {
  try {
    const m = JSON.parse(readFileSync(join(target, MARKER_FILE), "utf8")) as Partial<DemoMarker>;
    if (typeof m.version !== "string" || typeof m.offsetMs !== "number" || typeof m.installedAt !== "number" || typeof m.touchedAt !== "number") return null;
    return m as DemoMarker;
  } catch {
    return null; // missing or from an older version (it held only the version string)
  }
}

function writeMarker(target: string, m: DemoMarker): void {
  const tmp = join(target, `${MARKER_FILE}.${process.pid}.tmp`);
  writeFileSync(tmp, JSON.stringify(m) + "\n");
  renameSync(tmp, join(target, MARKER_FILE));
}

/** A replay wrote at `now`: the copy stays fresh. */
export function touchDemoState(target: string, now: number): void {
  const m = readMarker(target);
  if (m) writeMarker(target, { ...m, touchedAt: now });
}

interface InstallOptions {
  now: number;
  /** shared/demo by default (tests pass their own bundle). */
  root?: string;
}

export interface InstalledDemo {
  /** A new copy was made (any history kept for the old one no longer matches). */
  fresh: boolean;
  marker: DemoMarker;
  manifest: DemoManifest;
  /** Every provider's copy, in the registry's order: the first is at `target` (it carries the marker), the others beside it. */
  copies: readonly InstalledCopy[];
}

const isEntry = (v: unknown): v is DemoEntry =>
  typeof v === "object" && v !== null && typeof (v as DemoEntry).recordedFrom === "number" && typeof (v as DemoEntry).recordedUntil === "number";

/** Where each provider with a recording in the bundle is installed, moved by how much when installed at `at`. */
function placeCopies(target: string, manifest: DemoManifest, at: number): InstalledCopy[] {
  const recorded = DEMOS.flatMap(({ provider, demo }) => {
    const entry: unknown = Object.hasOwn(manifest, demo.manifestKey) ? manifest[demo.manifestKey] : undefined;
    if (entry === undefined) return [];
    if (!isEntry(entry)) throw new InsightsError("SOURCE_CORRUPT", `the demo bundle's demo-state.json: "${demo.manifestKey}" has no recordedFrom/recordedUntil`, { key: demo.manifestKey });
    return [{ provider, demo, entry }];
  });
  return recorded.map((r, i) => ({ ...r, dir: i === 0 ? target : join(dirname(target), r.demo.folder), offsetMs: r.demo.offsetAt(r.entry, at) }));
}

export function installDemoState(target: string, { now, root = demoRoot() }: InstallOptions): InstalledDemo {
  const manifest = readManifest(root);
  const marker = readMarker(target);
  const placed = placeCopies(target, manifest, now);
  const [primary, ...beside] = placed;
  if (!primary) throw new InsightsError("SOURCE_CORRUPT", `the demo bundle ${root} has no recording of a registered provider`, { root });
  // A clock that went backwards past the last write (or a copy from the future) is stale too.
  const fresh = marker !== null && marker.version === VERSION && now - marker.touchedAt <= STALE_AFTER_MS && now >= marker.touchedAt - STALE_AFTER_MS && ownDir(target) && beside.every((c) => ownDir(c.dir));
  // A kept copy was moved when it was installed: each provider's offset follows from that moment.
  const kept = (m: DemoMarker): InstalledDemo => ({ fresh: false, marker: m, manifest, copies: placeCopies(target, manifest, m.installedAt) });
  if (fresh) return kept(marker);

  // Built beside the target and renamed into place, so a crash mid-copy leaves no half-moved state.
  // The copy lives in our private state dir; neither it nor its parent may be a link or another
  // user's (SQLite writes -shm files beside the demo databases it opens).
  ensurePrivateDir(dirname(target), "the demo dir", { followLink: false });
  // The other providers' copies first: the first copy carries the marker, so a start that stops
  // half-way leaves no marker and the next start installs everything again.
  for (const c of beside) installCopy(join(root, c.demo.folder), c, now);
  const staging = stagedCopy(join(root, primary.demo.folder), primary, now);
  const next: DemoMarker = { version: VERSION, offsetMs: primary.offsetMs, installedAt: now, touchedAt: now };
  writeMarker(staging, next);
  // rm removes a link itself, never what it points at.
  rmSync(target, { recursive: true, force: true });
  try {
    renameSync(staging, target);
  } catch (err) {
    // Another process (a daemon starting while the CLI renders in-process) put its copy there first: use that one.
    rmSync(staging, { recursive: true, force: true });
    const theirs = readMarker(target);
    if (!theirs) throw err;
    return kept(theirs);
  }
  return { fresh: true, marker: next, manifest, copies: placed };
}

/** A private copy of `src` beside the copy's place, moved to now by its provider: the staging dir. */
function stagedCopy(src: string, c: InstalledCopy, now: number): string {
  const staging = `${c.dir}.staging-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  cpSync(src, staging, { recursive: true });
  makePrivate(staging);
  c.demo.moveToNow(staging, c.entry, now);
  return staging;
}

/** Copies one provider's bundled recording into place, private and moved in time, replacing what was there. */
function installCopy(src: string, c: InstalledCopy, now: number): void {
  const staging = stagedCopy(src, c, now);
  rmSync(c.dir, { recursive: true, force: true });
  try {
    renameSync(staging, c.dir);
  } catch (err) {
    // Another process installed its copy at the same moment: keep that one.
    rmSync(staging, { recursive: true, force: true });
    if (!ownDir(c.dir)) throw err;
  }
}

/** The bundle may be installed read-only (a global npm install); the copy is ours alone, and writable. */
function makePrivate(dir: string): void {
  chmodSync(dir, 0o700);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) makePrivate(path);
    else if (entry.isFile()) chmodSync(path, 0o600);
  }
}

/** A real directory (not a link) owned by this user. */
function ownDir(path: string): boolean {
  try {
    const st = lstatSync(path);
    return st.isDirectory() && (typeof process.geteuid !== "function" || st.uid === process.geteuid());
  } catch {
    return false;
  }
}
