// Which process is Codex's own program (shared/providers/own-process.ts checks the owner), so a
// writer lock held by another program is not shown as a live session.
import { base, type ProgramMatch } from "../own-process.js";

/** The TUI's app-server daemon runs a copy of the binary under `CODEX_HOME/packages/app-server-daemon/releases/<version-triple>/`. */
const CODEX_DAEMON_COPY = /[/\\]packages[/\\]app-server-daemon[/\\]releases[/\\][^/\\]+[/\\][^/\\]+$/;

/** Codex: the native `codex` binary (the lock holder), or the TUI's app-server daemon copy of it. */
export const isCodexProgram: ProgramMatch = (id) =>
  id.comm === "codex" || base(id.exe ?? undefined) === "codex" || base(id.argv[0]) === "codex" || [id.exe, id.argv[0]].some((p) => p !== null && p !== undefined && CODEX_DAEMON_COPY.test(p));
