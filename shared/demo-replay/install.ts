// Puts the bundled demo state where the daemon reads it, with its timestamps moved to now.
//
// SQLite writes -wal/-shm files beside a database even to read it, and the live replay appends to
// the copy, so the bundle itself is never opened: it is copied to $XDG_STATE_HOME/gateway-insights/
// demo/ and moved in time there (the recording's last moment becomes "now"). A copy that is still
// fresh (touched by a replay in the last hour, same gateway-insights version) is kept as it is, so
// a restart goes on where the demo was; a stale one is replaced, and the caller starts a new store
// for it (`fresh`), since history read from the old copy would sit at the old times.
import { chmodSync, cpSync, lstatSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { ensurePrivateDir } from "../base/private-files.js";
import { dirname, join } from "node:path";
import { packageRoot } from "../base/package-root.js";
import { VERSION } from "../base/version.js";
import { renameRolloutsToLocal, shiftProviderTree } from "./provider-shift.js";
import { recordingShift, shiftStateTree, type TimeShift } from "./time-shift.js";
import { unshiftCronExpressionRuns } from "../providers/openclaw/demo/cron-schedules.js";
import { renameSessionsToStart } from "../providers/gemini-cli/demo/layout.js";

/** What the demo generator wrote about the bundled recording (shared/demo/demo-state.json). */
export interface DemoManifest {
  openclaw: {
    /** The state dir, relative to shared/demo/. */
    dir: string;
    /** Epoch ms of the recording's first and last activity. */
    recordedFrom: number;
    recordedUntil: number;
    /** When the recorded gateway started (its lock file and "gateway ready" log line). */
    gatewayStartedAt: number;
  };
  /** Claude Code's state: a home dir (relative to shared/demo/) holding its config dir, and the recording's window. */
  claudeCode?: ProviderRecording;
  /** Codex's state: a home dir holding CODEX_HOME (`.codex`). */
  codex?: ProviderRecording;
  /** Gemini CLI's state: a home dir holding `.gemini`. */
  geminiCli?: ProviderRecording;
}

/** A provider's bundled state and the window its times fall in (epoch ms). */
interface ProviderRecording {
  /** The home dir, relative to shared/demo/ (installed beside the OpenClaw copy under the same name). */
  home: string;
  /** The provider's dir inside it (`.claude`, `.codex`). */
  configDir: string;
  recordedFrom: number;
  recordedUntil: number;
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
  /** The installed Claude Code demo home (its config dir is `.claude` inside), beside the OpenClaw copy; null when the bundle has none. */
  claudeCodeHome: string | null;
  /** The installed Codex demo home (CODEX_HOME is `.codex` inside). */
  codexHome: string | null;
  /** The installed Gemini CLI demo home (`.gemini` inside). */
  geminiCliHome: string | null;
}

/** Where a provider's bundled home is installed: beside the OpenClaw copy, under the bundle's name. */
function providerTarget(target: string, rec: ProviderRecording | undefined): string | null {
  return rec ? join(dirname(target), rec.home) : null;
}

export function installDemoState(target: string, { now, root = demoRoot() }: InstallOptions): InstalledDemo {
  const manifest = readManifest(root);
  const marker = readMarker(target);
  // A clock that went backwards past the last write (or a copy from the future) is stale too.
  const claudeCodeHome = providerTarget(target, manifest.claudeCode);
  const codexHome = providerTarget(target, manifest.codex);
  const geminiCliHome = providerTarget(target, manifest.geminiCli);
  const homes = { claudeCodeHome, codexHome, geminiCliHome };
  const providersThere = [claudeCodeHome, codexHome, geminiCliHome].every((h) => h === null || ownDir(h));
  const fresh = marker !== null && marker.version === VERSION && now - marker.touchedAt <= STALE_AFTER_MS && now >= marker.touchedAt - STALE_AFTER_MS && ownDir(target) && providersThere;
  if (fresh) return { fresh: false, marker, manifest, ...homes };

  const { recordedFrom, recordedUntil } = manifest.openclaw;
  const shift = recordingShift(recordedFrom, recordedUntil, now);
  // Built beside the target and renamed into place, so a crash mid-copy leaves no half-moved state.
  // The copy lives in our private state dir; neither it nor its parent may be a link or another
  // user's (SQLite writes -shm files beside the demo databases it opens).
  ensurePrivateDir(dirname(target), "the demo dir", { followLink: false });
  // The other providers' copies first: the OpenClaw copy carries the marker, so a start that
  // stops half-way leaves no marker and the next start installs everything again.
  if (manifest.claudeCode && claudeCodeHome) installProviderCopy(join(root, manifest.claudeCode.home), claudeCodeHome, providerShift(manifest.claudeCode, now), { seconds: false });
  if (manifest.codex && codexHome) {
    const shift = providerShift(manifest.codex, now);
    installProviderCopy(join(root, manifest.codex.home), codexHome, shift, { seconds: true, after: (dir) => renameRolloutsToLocal(join(dir, manifest.codex?.configDir ?? ".codex"), shift) });
  }
  // Gemini CLI names a session file by its start minute: the shifted files are renamed to match.
  if (manifest.geminiCli && geminiCliHome) installProviderCopy(join(root, manifest.geminiCli.home), geminiCliHome, providerShift(manifest.geminiCli, now), { seconds: false, after: (dir) => renameSessionsToStart(join(dir, manifest.geminiCli?.configDir ?? ".gemini")) });
  const staging = `${target}.staging-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  cpSync(join(root, manifest.openclaw.dir), staging, { recursive: true });
  makePrivate(staging);
  shiftStateTree(staging, shift);
  unshiftCronExpressionRuns(staging);
  const next: DemoMarker = { version: VERSION, offsetMs: shift.offsetMs, installedAt: now, touchedAt: now };
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
    return { fresh: false, marker: theirs, manifest, ...homes };
  }
  return { fresh: true, marker: next, manifest, ...homes };
}

/**
 * The shift that ends a provider's recording now, in whole seconds: Codex writes unix seconds
 * beside milliseconds, and both must move alike (the recording then ends up to a second before now).
 */
function providerShift(rec: ProviderRecording, now: number): TimeShift {
  const s = recordingShift(rec.recordedFrom, rec.recordedUntil, now);
  return { ...s, offsetMs: Math.floor(s.offsetMs / 1000) * 1000 };
}

/** Copies one provider's bundled home to `dest`, private and moved in time, replacing what was there. */
function installProviderCopy(src: string, dest: string, shift: TimeShift, o: { seconds: boolean; after?: (dir: string) => void }): void {
  const staging = `${dest}.staging-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  cpSync(src, staging, { recursive: true });
  makePrivate(staging);
  shiftProviderTree(staging, shift, { seconds: o.seconds });
  o.after?.(staging);
  rmSync(dest, { recursive: true, force: true });
  try {
    renameSync(staging, dest);
  } catch (err) {
    // Another process installed its copy at the same moment: keep that one.
    rmSync(staging, { recursive: true, force: true });
    if (!ownDir(dest)) throw err;
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
