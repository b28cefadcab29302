// Test helper: a Claude Code history large enough that its first read takes a while, made of
// copies of the real fixture's top-level transcripts. Each copy is a session of its own (its own
// session id, message ids and request ids), so every response in it counts: the usage oracles
// (usage-expectations.ts) sum them up from the files like any other.
import * as fs from "node:fs";
import * as path from "node:path";

type Line = Record<string, unknown>;

/** A UUID-shaped id, the k-th of a family (stable across runs). */
const idFor = (k: number, salt: number): string => {
  const hex = (k * 7919 + salt * 104_729).toString(16).padStart(12, "0").slice(-12);
  return `f111e500-${salt.toString(16).padStart(4, "0").slice(-4)}-4000-8000-${hex}`;
};

/**
 * Writes `copies` copies of every top-level transcript under `<claudeDir>/projects` into
 * `<claudeDir>/projects/-home-op-filler/`. Returns the number of files written.
 */
export function fillClaudeHistory(claudeDir: string, copies: number): number {
  const projects = path.join(claudeDir, "projects");
  const sources: string[] = [];
  for (const project of fs.readdirSync(projects)) {
    for (const f of fs.readdirSync(path.join(projects, project))) if (f.endsWith(".jsonl")) sources.push(path.join(projects, project, f));
  }
  const target = path.join(projects, "-home-op-filler");
  fs.mkdirSync(target, { recursive: true });
  let written = 0;
  for (let k = 0; k < copies; k++) {
    sources.forEach((file, s) => {
      const session = idFor(k, s + 1);
      const suffix = `_f${k}s${s}`;
      const out: string[] = [];
      for (const raw of fs.readFileSync(file, "utf8").split("\n")) {
        if (raw.trim() === "") continue;
        const l = JSON.parse(raw) as Line;
        if (typeof l.sessionId === "string") l.sessionId = session;
        if (typeof l.uuid === "string") l.uuid = `${l.uuid}${suffix}`;
        if (typeof l.parentUuid === "string") l.parentUuid = `${l.parentUuid}${suffix}`;
        if (typeof l.requestId === "string") l.requestId = `${l.requestId}${suffix}`;
        const message = l.message as Line | undefined;
        if (message && typeof message.id === "string") message.id = `${message.id}${suffix}`;
        out.push(JSON.stringify(l));
      }
      fs.writeFileSync(path.join(target, `${session}.jsonl`), `${out.join("\n")}\n`);
      written++;
    });
  }
  return written;
}
