// Gemini CLI's fixture for the conformance suite (kit.ts); its figures come from the format's
// counting rule done by hand over the raw session files (test/helpers/gemini-oracle.ts), never from
// the reader. The real 0.61.0 fixture's sessions (its README) changed the way Gemini CLI changes
// them: A1 (ce196191) was resumed once (its second header line starts the resumed turn); A2
// (9e5167fb) holds a plain response to copy; W1 (f16a21d4) gets a new turn; Gemini CLI deletes
// sessions itself (30-day cleanup), here A2 and the sub-agent.
import * as fs from "node:fs";
import * as path from "node:path";
import { Pricer } from "../../../shared/pricing/pricer.js";
import type { Install } from "../../../shared/providers/contract.js";
import { GeminiCliProvider } from "../../../shared/providers/gemini-cli/provider.js";
import { openGeminiReader } from "../../../shared/providers/gemini-cli/reader.js";
import { expected, isMessage, isPrompt, sessionFiles, type SessionFile } from "../gemini-oracle.js";
import { copyFixture, type RawLine } from "../openclaw-fixtures.js";
import { cutAt, type FixtureCopy, type Oracle } from "./kit.js";

/** Real state written by Gemini CLI 0.61.0 (fixtures/gemini-cli-0.61.0/README.md lists the scenario). */
export const GEMINI_FIXTURE = "gemini-cli-0.61.0";

export function copyGeminiHome(): { home: string; geminiDir: string } {
  const home = copyFixture(GEMINI_FIXTURE);
  return { home, geminiDir: path.join(home, ".gemini") };
}

export function geminiInstall(dir: string): Install {
  return { provider: "gemini-cli", id: "gemini-cli:default", localId: "default", name: "default", tags: ["gemini-cli", "default"], dir };
}

/** The kit's oracle over these files (in path order: the first holding a response owns it). */
export function oracleOf(files: SessionFile[]): Oracle {
  const o = expected(files);
  return { bySession: o.bySession, total: o.total, files: files.length, incidents: { error: o.total.errors, warning: o.total.warnings } };
}

function byPrefix(prefix: string, files: SessionFile[]): SessionFile {
  const f = files.find((x) => x.sessionId.startsWith(prefix));
  if (!f) throw new Error(`no session ${prefix} in the fixture`);
  return f;
}

/** Where a file's last resume starts: its last header line. */
const lastHeader = (f: SessionFile): number => f.lines.findLastIndex((l) => typeof l.sessionId === "string" && l.projectHash !== undefined);

const jsonl = (lines: RawLine[]): string => lines.map((l) => `${JSON.stringify(l)}\n`).join("");

/** A fake procfs with one run of Gemini CLI (the relaunch pair) in `cwd`. */
export function fakeGeminiRun(procRoot: string, cwd: string, pids: { parent: number; child: number }): void {
  fs.mkdirSync(procRoot, { recursive: true });
  fs.writeFileSync(path.join(procRoot, "stat"), "cpu 1 2 3\nbtime 0\n");
  const bundle = "/usr/lib/node_modules/@google/gemini-cli/bundle/gemini.js";
  for (const [pid, ppid] of [[pids.parent, 1], [pids.child, pids.parent]] as const) {
    const dir = path.join(procRoot, String(pid));
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "comm"), "node\n");
    fs.writeFileSync(path.join(dir, "cmdline"), ["node", bundle, "-p", "hello"].join("\0") + "\0");
    fs.writeFileSync(path.join(dir, "stat"), `${pid} (node) S ${ppid} ${pid} ${pid} 0 -1 4194304 0 0 0 0 10 5 0 0 20 0 11 0 100 0 1000 0 0`);
    fs.symlinkSync(cwd, path.join(dir, "cwd"));
  }
}

export function geminiCliFixture(): FixtureCopy {
  const { home, geminiDir } = copyGeminiHome();
  const all = (): SessionFile[] => sessionFiles(geminiDir);
  const procRoot = path.join(home, "proc");
  return {
    sourceId: "gemini-cli:default",
    provider: () => new GeminiCliProvider({ env: {}, home, dirs: null, pricer: new Pricer() }),
    expected: () => oracleOf(all()),
    resumable: () => {
      const f = byPrefix("ce196191", all());
      return { key: f.sessionId, file: f.file, ...cutAt(f.file, lastHeader(f)) };
    },
    newTurn: () => {
      // W1's last prompt and final reply again, 30 minutes later, under new message ids.
      const f = byPrefix("f16a21d4", all());
      const prompt = f.lines.findLast(isPrompt) as RawLine;
      const reply = f.lines.findLast((l) => isMessage(l) && l.type === "gemini" && l.tokens && !l.toolCalls) as RawLine;
      const later = (ts: string): string => new Date(Date.parse(ts) + 30 * 60_000).toISOString();
      const p = { ...prompt, id: `${prompt.id}-again`, timestamp: later(prompt.timestamp) };
      const r = { ...reply, id: `${reply.id}-again`, timestamp: later(reply.timestamp) };
      return { key: f.sessionId, file: f.file, head: "", tail: jsonl([p, { $set: { lastUpdated: p.timestamp } }, r, { $set: { lastUpdated: r.timestamp } }]) };
    },
    copyResponse: (where) => {
      // A new session of the same project (its file sorting first or last) repeating A2's response.
      const src = byPrefix("9e5167fb", all());
      const key = where === "first" ? "00000000-0000-4000-8000-000000000001" : "ffffffff-ffff-4fff-8fff-ffffffffffff";
      const header = { ...(src.lines[0] as RawLine), sessionId: key };
      const record = src.lines.find((l) => isMessage(l) && l.type === "gemini" && l.tokens) as RawLine;
      const minute = where === "first" ? "2026-11-27T15-00" : "2026-11-27T15-50";
      return { key, original: src.sessionId, file: path.join(path.dirname(src.file), `session-${minute}-${key.slice(0, 8)}.jsonl`), text: jsonl([header, record]) };
    },
    truncate: () => {
      const f = byPrefix("ce196191", all());
      return { key: f.sessionId, file: f.file, bytes: Buffer.byteLength(cutAt(f.file, lastHeader(f)).head) };
    },
    replaced: () => all().map((f) => f.file),
    removable: () => {
      const files = all();
      return [byPrefix("9e5167fb", files), byPrefix("7956600e", files)].map((f) => ({ key: f.sessionId, file: f.file }));
    },
    live: () => {
      // A `gemini` run in web-ui, writing W3 (the newest file of that project once it writes).
      const f = byPrefix("a2be3156", all());
      return {
        key: f.sessionId,
        show: () => {
          fakeGeminiRun(procRoot, "/home/op/code/web-ui", { parent: 4300, child: 4301 });
          const later = new Date(Date.now() + 60_000);
          fs.utimesSync(f.file, later, later);
        },
        running: () => {
          const r = openGeminiReader(geminiInstall(geminiDir), { live: { procRoot, uid: process.getuid?.() ?? null } });
          if (!r.ok) throw r.error;
          try {
            const live = r.value.liveSessions();
            if (!live.ok) throw live.error;
            return live.value.map((s) => s.sessionKey);
          } finally {
            r.value.close();
          }
        },
      };
    },
  };
}
