// A wide, small Claude Code history for the idle suite (issue 18): many project dirs holding a few
// short transcripts each (20,000 transcripts in 5,000 dirs by default), so what is measured is
// what an idle daemon spends on noticing changes among that many files, not on reading them. Each
// transcript is a real session's short lines from the 2.1.330 fixture (queue operations, the
// prompt, the answer with its usage, last-prompt), with its own session, message and request ids.
// Files and dirs are dated over the 60 days before the build, as a real history is: a daemon sees
// none of them as written lately. Cached under .tmp/bench/providers/ by size; never changed once built.
import * as fs from "node:fs";
import * as path from "node:path";
import { FIXTURES, PROVIDERS_TMP } from "./provider-common.js";
import { uuid4 } from "./ids.js";
import { Rng } from "./random.js";

const VERSION = 2;
const DAY = 86_400_000;
const SOURCE = path.join(FIXTURES, "claude-code-2.1.330", ".claude", "projects", "-home-op-code-web-ui", "099ba3cc-161b-48e0-aab9-43167bb42fd3.jsonl");
/** Line types kept from the fixture session: the short ones a transcript always has. */
const KEPT = new Set(["queue-operation", "user", "assistant", "last-prompt"]);

export interface WideParams {
  dirs: number;
  files: number;
}

export interface WideDataset {
  /** CLAUDE_CONFIG_DIR. */
  root: string;
  files: number;
  dirs: number;
  bytes: number;
  cached: boolean;
}

/** Builds (or finds) the dataset; `log` gets a progress line now and then. */
export function ensureWideClaudeCode(p: WideParams, log: (m: string) => void): WideDataset {
  const dir = path.join(PROVIDERS_TMP, `claude-code-wide-d${p.dirs}-f${p.files}-v${VERSION}`);
  const root = path.join(dir, "home", ".claude");
  const manifest = path.join(dir, "manifest.json");
  try {
    const m = JSON.parse(fs.readFileSync(manifest, "utf8")) as WideDataset;
    return { ...m, root, cached: true };
  } catch {
    // not built yet
  }
  fs.rmSync(dir, { recursive: true, force: true });
  const lines = fs
    .readFileSync(SOURCE, "utf8")
    .split("\n")
    .filter((l) => l !== "" && KEPT.has((JSON.parse(l) as { type?: string }).type ?? ""));
  const rng = new Rng(1);
  const built = Date.now();
  let bytes = 0;
  for (let f = 0; f < p.files; f++) {
    const slug = `-home-op-code-project-${String(f % p.dirs).padStart(5, "0")}`;
    const projectDir = path.join(root, "projects", slug);
    if (f < p.dirs) fs.mkdirSync(projectDir, { recursive: true });
    const sessionId = uuid4(rng);
    const text = lines
      .map((l) => {
        const o = JSON.parse(l) as Record<string, unknown>;
        o.sessionId = sessionId;
        if (typeof o.requestId === "string") o.requestId = `req_${sessionId}`;
        const msg = o.message as Record<string, unknown> | undefined;
        if (msg && typeof msg.id === "string") msg.id = `msg_${sessionId}`;
        return `${JSON.stringify(o)}\n`;
      })
      .join("");
    const file = path.join(projectDir, `${sessionId}.jsonl`);
    fs.writeFileSync(file, text);
    const when = new Date(built - 1000 - rng.next() * 60 * DAY);
    fs.utimesSync(file, when, when);
    bytes += text.length;
    if ((f + 1) % 5000 === 0) log(`  ${f + 1}/${p.files} transcripts written`);
  }
  // Last: writing a file moved its dir's mtime.
  for (const slug of fs.readdirSync(path.join(root, "projects"))) {
    const when = new Date(built - 1000 - rng.next() * 60 * DAY);
    fs.utimesSync(path.join(root, "projects", slug), when, when);
  }
  const made: WideDataset = { root, files: p.files, dirs: p.dirs, bytes, cached: false };
  fs.writeFileSync(manifest, JSON.stringify(made));
  return made;
}
