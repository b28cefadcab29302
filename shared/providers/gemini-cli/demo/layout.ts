// Where Gemini CLI 0.61.0 keeps a project's sessions (gemini-cli-format.md §3), as the demo writer
// and the demo bundle need it: the project registry (projects.json: cwd -> slug, with Gemini CLI's
// slug rule), each slug dir's .project_root, and the session file name, which holds the UTC minute
// the file was opened and the session id's first 8 characters. After the demo install moved the
// times inside the bundle's files, renameSessionsToStart names them as Gemini CLI would have.
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";

const pad = (n: number): string => String(n).padStart(2, "0");

/** `session-YYYY-MM-DDTHH-MM-<id8>.jsonl` for a session opened at `ms` (UTC). */
export function sessionFileName(ms: number, sessionId: string): string {
  const d = new Date(ms);
  return `session-${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}-${pad(d.getUTCMinutes())}-${sessionId.slice(0, 8)}.jsonl`;
}

/** The session headers' `projectHash`: sha256 of the absolute cwd, lowercase hex. */
export function projectHash(cwd: string): string {
  return createHash("sha256").update(cwd).digest("hex");
}

/** Gemini CLI's slug for a cwd: the basename lower-cased, every other run of characters one "-", "-N" on a collision. */
export function slugFor(cwd: string, taken: ReadonlySet<string>): string {
  const base = basename(cwd).toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "") || "project";
  if (!taken.has(base)) return base;
  for (let i = 1; ; i++) if (!taken.has(`${base}-${i}`)) return `${base}-${i}`;
}

function readRegistry(geminiDir: string): Record<string, string> {
  try {
    const v = JSON.parse(readFileSync(join(geminiDir, "projects.json"), "utf8")) as { projects?: unknown };
    const p = v.projects;
    if (!p || typeof p !== "object") return {};
    return Object.fromEntries(Object.entries(p as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === "string"));
  } catch {
    return {};
  }
}

/**
 * The project's slug, registering the cwd first if it is new (projects.json pretty-printed and
 * replaced through a temp file, .project_root in tmp/<slug>/ and history/<slug>/), as a first run
 * in that folder does.
 */
export function ensureProject(geminiDir: string, cwd: string): string {
  const projects = readRegistry(geminiDir);
  const known = projects[cwd];
  if (known) return known;
  const slug = slugFor(cwd, new Set(Object.values(projects)));
  projects[cwd] = slug;
  for (const root of ["tmp", "history"]) {
    mkdirSync(join(geminiDir, root, slug), { recursive: true });
    writeFileSync(join(geminiDir, root, slug, ".project_root"), cwd);
  }
  const tmp = join(geminiDir, `projects.json.${process.pid}.tmp`);
  writeFileSync(tmp, JSON.stringify({ projects }, null, 2));
  renameSync(tmp, join(geminiDir, "projects.json"));
  return slug;
}

const SESSION = /^session-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-([0-9a-f]{8})\.jsonl$/;

/**
 * Gives every main session file under `geminiDir/tmp/<slug>/chats/` the name of the minute its
 * first header's `startTime` says (the file was opened then): after the demo install moved the
 * times inside the files, their names follow.
 */
export function renameSessionsToStart(geminiDir: string): void {
  let slugs: string[];
  try {
    slugs = readdirSync(join(geminiDir, "tmp"));
  } catch {
    return;
  }
  for (const slug of slugs) {
    const chats = join(geminiDir, "tmp", slug, "chats");
    let names: string[];
    try {
      names = readdirSync(chats);
    } catch {
      continue;
    }
    for (const name of names) {
      const m = SESSION.exec(name);
      if (!m) continue;
      const first = readFileSync(join(chats, name), "utf8").split("\n", 1)[0] ?? "";
      let start = NaN;
      try {
        start = Date.parse(String((JSON.parse(first) as { startTime?: unknown }).startTime));
      } catch {
        continue; // not a header: leave the file as it is
      }
      if (Number.isNaN(start)) continue;
      const moved = sessionFileName(start, m[1] as string);
      if (moved !== name) renameSync(join(chats, name), join(chats, moved));
    }
  }
}
