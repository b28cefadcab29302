// Gemini CLI's fixture for the conformance suite (kit.ts), and the format's counting rule done by
// hand over the raw session files (gemini-cli-format.md §5): the oracle the suite and the reader's
// unit tests take their figures from, never from the reader. The real 0.61.0 fixture's sessions
// (its README) changed the way Gemini CLI changes them: A1 (ce196191) was resumed once (its second
// header line starts the resumed turn); A2 (9e5167fb) holds a plain response to copy; W1 (f16a21d4)
// gets a new turn; Gemini CLI deletes sessions itself (30-day cleanup), here A2 and the sub-agent.
import * as fs from "node:fs";
import * as path from "node:path";
import { Pricer, priceUsage } from "../../../shared/pricing/pricer.js";
import type { Install } from "../../../shared/providers/contract.js";
import { GeminiCliProvider } from "../../../shared/providers/gemini-cli/provider.js";
import { openGeminiReader } from "../../../shared/providers/gemini-cli/reader.js";
import { copyFixture, rawLines, type RawLine } from "../openclaw-fixtures.js";
import { cutAt, zeroFigures, type Figures, type FixtureCopy, type Oracle } from "./kit.js";

/** Real state written by Gemini CLI 0.61.0 (fixtures/gemini-cli-0.61.0/README.md lists the scenario). */
export const GEMINI_FIXTURE = "gemini-cli-0.61.0";

export function copyGeminiHome(): { home: string; geminiDir: string } {
  const home = copyFixture(GEMINI_FIXTURE);
  return { home, geminiDir: path.join(home, ".gemini") };
}

export function geminiInstall(dir: string): Install {
  return { provider: "gemini-cli", id: "gemini-cli:default", localId: "default", name: "default", tags: ["gemini-cli", "default"], dir };
}

/** One session file as the oracle sees it. */
export interface SessionFileLines {
  /** The header's sessionId (a sub-agent's file name says the same). */
  key: string;
  parent: string | null;
  file: string;
  lines: RawLine[];
}

/** Every session file under `<geminiDir>/tmp/<slug>/chats/` (sub-agents in `<parent>/`), in path order (a transcript's id is its path). */
export function sessionFiles(geminiDir: string): SessionFileLines[] {
  const out: SessionFileLines[] = [];
  const tmp = path.join(geminiDir, "tmp");
  for (const slug of fs.existsSync(tmp) ? fs.readdirSync(tmp) : []) {
    const chats = path.join(tmp, slug, "chats");
    if (!fs.existsSync(chats)) continue;
    for (const name of fs.readdirSync(chats)) {
      const abs = path.join(chats, name);
      if (fs.statSync(abs).isDirectory()) {
        for (const sub of fs.readdirSync(abs)) out.push({ key: sub.replace(/\.jsonl$/, ""), parent: name, file: path.join(abs, sub), lines: rawLines(path.join(abs, sub)) });
      } else if (/^session-.*\.jsonl$/.test(name)) {
        const lines = rawLines(abs);
        out.push({ key: (lines[0] as RawLine).sessionId, parent: null, file: abs, lines });
      }
    }
  }
  const rel = (f: SessionFileLines): string => path.relative(geminiDir, f.file);
  return out.sort((a, b) => (rel(a) < rel(b) ? -1 : rel(a) > rel(b) ? 1 : 0));
}

/** A top-level message record (never a `$set` re-listing, never a header). */
const isMessage = (l: RawLine): boolean => typeof l.id === "string" && typeof l.type === "string" && l.$set === undefined;
const isPrompt = (l: RawLine): boolean => isMessage(l) && l.type === "user" && Array.isArray(l.content) && l.content.some((p: RawLine) => typeof p.text === "string") && !l.content.some((p: RawLine) => p.functionResponse);

export interface GeminiResponse {
  key: string;
  model: string;
  ts: number;
  mapped: { input: number; output: number; cacheRead: number; cacheWrite: number; reasoning: number };
}

/** The file's responses: top-level gemini records with tokens, the first of each id (§5), mapped as design §10 says. */
export function responsesOf(lines: RawLine[]): GeminiResponse[] {
  const seen = new Set<string>();
  const out: GeminiResponse[] = [];
  for (const l of lines) {
    if (!isMessage(l) || l.type !== "gemini" || !l.tokens || seen.has(l.id)) continue;
    seen.add(l.id);
    const t = l.tokens;
    out.push({ key: l.id, model: l.model, ts: Date.parse(l.timestamp), mapped: { input: t.input - t.cached + t.tool, cacheRead: t.cached, cacheWrite: 0, output: t.output + t.thoughts, reasoning: t.thoughts } });
  }
  return out;
}

export function oracleCost(r: GeminiResponse): number | null {
  const p = priceUsage(r.model, { inputTokens: r.mapped.input, cacheReadTokens: r.mapped.cacheRead, cacheWrite5mTokens: 0, cacheWrite1hTokens: 0, outputTokens: r.mapped.output }, { at: r.ts });
  return "unpriced" in p ? null : p.costUsd;
}

/** Every session's figures (a session's files summed) and the total; a response copied into several files counts for the first (in path order). */
export function geminiOracle(files: SessionFileLines[]): Oracle & { warnings: number } {
  const owned = new Set<string>();
  const bySession = new Map<string, Figures>();
  const total = zeroFigures();
  let warnings = 0;
  for (const f of files) {
    const s = zeroFigures();
    for (const r of responsesOf(f.lines)) {
      if (owned.has(r.key)) continue;
      owned.add(r.key);
      s.responses++;
      s.input += r.mapped.input;
      s.output += r.mapped.output;
      s.cacheRead += r.mapped.cacheRead;
      s.reasoning += r.mapped.reasoning;
      const cost = oracleCost(r);
      if (cost === null) s.unpriced++;
      else s.cost += cost;
    }
    s.prompts = new Set(f.lines.filter(isPrompt).map((l) => l.id)).size;
    s.toolCalls = new Set(f.lines.filter((l) => isMessage(l) && l.type === "gemini").flatMap((l) => (l.toolCalls ?? []).map((c: RawLine) => c.id))).size;
    s.errors = new Set(f.lines.filter((l) => isMessage(l) && l.type === "error").map((l) => l.id)).size;
    warnings += new Set(f.lines.filter((l) => isMessage(l) && l.type === "warning").map((l) => l.id)).size;
    const had = bySession.get(f.key);
    if (had) for (const k of Object.keys(s) as Array<keyof Figures>) had[k] += s[k];
    else bySession.set(f.key, s);
    for (const k of Object.keys(total) as Array<keyof Figures>) total[k] += s[k];
  }
  return { bySession, total, files: files.length, incidents: { error: total.errors, warning: warnings }, warnings };
}

function byPrefix(prefix: string, fs_: SessionFileLines[]): SessionFileLines {
  const f = fs_.find((x) => x.key.startsWith(prefix));
  if (!f) throw new Error(`no session ${prefix} in the fixture`);
  return f;
}

/** Where a file's last resume starts: its last header line. */
const lastHeader = (f: SessionFileLines): number => f.lines.findLastIndex((l) => typeof l.sessionId === "string" && l.projectHash !== undefined);

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
  const all = (): SessionFileLines[] => sessionFiles(geminiDir);
  const procRoot = path.join(home, "proc");
  return {
    sourceId: "gemini-cli:default",
    provider: () => new GeminiCliProvider({ env: {}, home, dirs: null, pricer: new Pricer() }),
    expected: () => geminiOracle(all()),
    resumable: () => {
      const f = byPrefix("ce196191", all());
      return { key: f.key, file: f.file, ...cutAt(f.file, lastHeader(f)) };
    },
    newTurn: () => {
      // W1's last prompt and final reply again, 30 minutes later, under new message ids.
      const f = byPrefix("f16a21d4", all());
      const prompt = f.lines.findLast(isPrompt) as RawLine;
      const reply = f.lines.findLast((l) => isMessage(l) && l.type === "gemini" && l.tokens && !l.toolCalls) as RawLine;
      const later = (ts: string): string => new Date(Date.parse(ts) + 30 * 60_000).toISOString();
      const p = { ...prompt, id: `${prompt.id}-again`, timestamp: later(prompt.timestamp) };
      const r = { ...reply, id: `${reply.id}-again`, timestamp: later(reply.timestamp) };
      return { key: f.key, file: f.file, head: "", tail: jsonl([p, { $set: { lastUpdated: p.timestamp } }, r, { $set: { lastUpdated: r.timestamp } }]) };
    },
    copyResponse: (where) => {
      // A new session of the same project (its file sorting first or last) repeating A2's response.
      const src = byPrefix("9e5167fb", all());
      const key = where === "first" ? "00000000-0000-4000-8000-000000000001" : "ffffffff-ffff-4fff-8fff-ffffffffffff";
      const header = { ...(src.lines[0] as RawLine), sessionId: key };
      const record = src.lines.find((l) => isMessage(l) && l.type === "gemini" && l.tokens) as RawLine;
      const minute = where === "first" ? "2026-11-27T15-00" : "2026-11-27T15-50";
      return { key, original: src.key, file: path.join(path.dirname(src.file), `session-${minute}-${key.slice(0, 8)}.jsonl`), text: jsonl([header, record]) };
    },
    truncate: () => {
      const f = byPrefix("ce196191", all());
      return { key: f.key, file: f.file, bytes: Buffer.byteLength(cutAt(f.file, lastHeader(f)).head) };
    },
    replaced: () => all().map((f) => f.file),
    removable: () => {
      const files = all();
      return [byPrefix("9e5167fb", files), byPrefix("7956600e", files)].map((f) => ({ key: f.key, file: f.file }));
    },
    live: () => {
      // A `gemini` run in web-ui, writing W3 (the newest file of that project once it writes).
      const f = byPrefix("a2be3156", all());
      return {
        key: f.key,
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
