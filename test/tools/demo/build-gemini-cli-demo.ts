// Builds shared/demo/gemini-home/.gemini/ (the Gemini CLI part of the bundled demo) and records its
// window in shared/demo/demo-state.json. Run by hand when the demo content changes, never at start:
//
//   node --import tsx test/tools/demo/build-gemini-cli-demo.ts [--fixtures DIR] [--out DIR]
//
// The real Gemini CLI 0.61.0 recording in the reference fixtures (`gemini-cli-0.61.0`) gives the
// files that are not sessions (settings.json as the runner wrote it; trustedFolders.json and the
// project registry in its layout, for the demo's folders) and the rule every session record must
// follow: the script fails when any record has a shape (its kind and keys) the real CLI did not
// write there. The sessions themselves are laid out over one working day with the demo writer's
// record builder (shared/providers/gemini-cli/demo/records.ts), so the bundle and the live writer
// write alike: three projects (two of them folders named `app`, which Gemini CLI registers as
// `app` and `app-1`), two models, tool rounds (one tool error), a sub-agent, a session resumed in
// a later minute (the second header, the re-listing without tokens, and the stray ~1 KB file
// Gemini CLI then opens under the resume's minute), and one request over Pro's 200k-token tier.
// File names are the UTC minutes of the recording; the install renames them after its time shift
// (renameSessionsToStart). Its choices come from a fixed seed, so a rerun gives the same demo.
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { RecordedManifest as DemoManifest } from "../../helpers/demo-bundle.js";
import { seededRandom, uuid, type Random } from "../../../shared/base/random.js";
import { GEMINI_TURNS, WRITER_CWD, type GeminiTurnContent } from "../../../shared/providers/gemini-cli/demo/content.js";
import { ensureProject, projectHash, sessionFileName } from "../../../shared/providers/gemini-cli/demo/layout.js";
import { contextMessage, GeminiPrompt, resumeRecords, turnRecords, type Json, type SessionCtx } from "../../../shared/providers/gemini-cli/demo/records.js";
import { foreignShapes } from "../../helpers/gemini-shapes.js";
import { arg, defaultFixtures, iso, listFiles, MARKERS, repoRoot, toJsonl, treeBytes } from "./jsonl-template.js";

const SEED = 20261129;
const RECORDING = "gemini-cli-0.61.0";
const END = Date.parse("2026-11-28T21:30:00.000Z");
const MIN = 60_000;
/** The demo user's home, as in the other demos. */
const HOME = "/home/op";

const WEB = "/home/op/code/acme-web/app";
const ADMIN = "/home/op/code/acme-admin/app";

interface TurnPlan {
  /** Minutes before the end. */
  at: number;
  content: GeminiTurnContent;
  /** Resumed from a new process (`--resume latest`) before this turn. */
  resume?: boolean;
  /** The conversation's prompt has grown to this many tokens first (a long pasted log). */
  promptTokens?: number;
}

interface SessionPlan {
  cwd: string;
  model: string;
  turns: TurnPlan[];
}

const turn = (answerStart: string): GeminiTurnContent => {
  const c = GEMINI_TURNS.find((t) => t.answer.startsWith(answerStart));
  if (!c) throw new Error(`no demo turn answers "${answerStart}"`);
  return c;
};

const WEB_TURNS: GeminiTurnContent[] = [
  {
    prompt: "Demo: the Acme web app's sign-up form accepts an empty company name. Fix it.",
    calls: [{ name: "read_file", args: { file_path: `${WEB}/src/forms/signup.ts` }, output: "export const signup = z.object({ email: z.string().email(), company: z.string() });" }],
    answer: "`company` was `z.string()`, which allows \"\". It is now `z.string().trim().min(1)`, and the form shows \"Company name is required\".",
    thought: "Tightening the schema",
  },
  {
    prompt: "Add a test for that.",
    calls: [
      { name: "write_file", args: { file_path: `${WEB}/src/forms/signup.test.ts`, content: "…" }, output: `Successfully created and wrote to new file: ${WEB}/src/forms/signup.test.ts.` },
      { name: "run_shell_command", args: { command: "npx vitest run src/forms", description: "Run the form tests" }, output: "Output: ✓ src/forms/signup.test.ts (3 tests)\nExit Code: 0" },
    ],
    answer: "Added `signup.test.ts` with an empty, a blank and a valid company name; all three pass.",
    thought: "Writing the test",
  },
  {
    prompt: "Demo: here is last night's error log from the Acme web app. What went wrong?",
    calls: [],
    answer: "Every error is the same `ECONNRESET` from the billing API between 02:10 and 02:24, during its maintenance window. Nothing on our side failed; the retries recovered all but 3 checkouts, listed below.",
    thought: "Reading the log",
  },
];

const ADMIN_TURNS: GeminiTurnContent[] = [
  {
    prompt: "Demo: which admin pages still use the old Acme table component?",
    calls: [],
    answer: "Four pages: users, invoices, audit log and feature flags. The sub-agent's list is below; the invoices page also passes a prop the new component dropped.",
    thought: "Summarising the sub-agent's report",
    agent: {
      task: "Find every import of components/LegacyTable in src/pages and note the props each page passes.",
      calls: [{ name: "grep_search", args: { pattern: "LegacyTable", dir_path: "src/pages" }, output: "src/pages/users.tsx:3\nsrc/pages/invoices.tsx:5\nsrc/pages/audit.tsx:4\nsrc/pages/flags.tsx:2" }],
      report: "users, invoices, audit, flags import LegacyTable; invoices passes `stickyHeader`, which the new Table does not have.",
    },
  },
  {
    prompt: "Run the admin app's type check.",
    calls: [{ name: "run_shell_command", args: { command: "npx tsc --noEmit", description: "Type-check the admin app" }, output: "Output: src/pages/flags.tsx(18,7): error TS2322: Type 'string' is not assignable to type 'boolean'.\nExit Code: 2", error: true }],
    answer: "One type error: `flags.tsx` line 18 passes the flag's value as a string. I parse it to a boolean there; the check is clean now.",
    thought: "Fixing the type error",
  },
];

const PLANS: SessionPlan[] = [
  { cwd: WEB, model: "gemini-2.5-flash", turns: [{ at: -560, content: WEB_TURNS[0]! }, { at: -554, content: WEB_TURNS[1]! }] },
  { cwd: ADMIN, model: "gemini-2.5-pro", turns: [{ at: -470, content: ADMIN_TURNS[0]! }, { at: -462, content: ADMIN_TURNS[1]! }] },
  {
    cwd: WRITER_CWD,
    model: "gemini-2.5-pro",
    turns: [
      { at: -330, content: { ...turn("The splash image"), prompt: "Demo: the Acme mobile app's Android build fails on the new splash screen. Find out why." } },
      { at: -322, content: turn("The list now has") },
      { at: -150, content: turn("All 128 tests pass"), resume: true },
    ],
  },
  { cwd: WEB, model: "gemini-2.5-pro", turns: [{ at: -95, content: WEB_TURNS[2]!, promptTokens: 226_000 }] },
  { cwd: WRITER_CWD, model: "gemini-2.5-flash", turns: [{ at: -40, content: { ...turn("`Login.tsx`"), prompt: "Demo: why does the Acme mobile login screen flash white in dark mode?" } }, { at: -33, content: turn("One lint error") }] },
];

const SETTINGS_NOTE = "settings.json";

function buildSession(gemini: string, plan: SessionPlan, random: Random): { first: number; last: number } {
  const slug = ensureProject(gemini, plan.cwd);
  const hash = projectHash(plan.cwd);
  const chats = join(gemini, "tmp", slug, "chats");
  mkdirSync(chats, { recursive: true });
  const firstAt = END + (plan.turns[0] as TurnPlan).at * MIN;
  const opened = firstAt - 40;
  const s: SessionCtx = { sessionId: uuid(random), cwd: plan.cwd, slug, prompt: new GeminiPrompt(random, plan.model) };
  const file = join(chats, sessionFileName(opened, s.sessionId));
  const t0 = iso(opened);
  const lines: Json[] = [{ sessionId: s.sessionId, projectHash: hash, startTime: t0, lastUpdated: t0, kind: "main" }, { $set: { messages: [contextMessage(s, HOME, opened + 1)], lastUpdated: iso(opened + 1) } }];
  let last = opened;
  for (const t of plan.turns) {
    const start = END + t.at * MIN;
    if (t.resume) {
      const resumedAt = start - 45;
      lines.push(...resumeRecords(lines, s, resumedAt, HOME));
      // A resume in a later minute than the file's name: Gemini CLI also opens a file named by the
      // resume's minute holding only the header and the context (gemini-cli-format.md §6).
      const stray = join(chats, sessionFileName(resumedAt, s.sessionId));
      if (stray !== file) writeFileSync(stray, toJsonl(resumeRecords([], s, resumedAt, HOME).slice(0, 2)));
    }
    if (t.promptTokens !== undefined) s.prompt.size = t.promptTokens;
    const out = turnRecords(random, s, t.content, start, hash);
    lines.push(...out.main);
    if (out.sub) {
      mkdirSync(join(chats, s.sessionId), { recursive: true });
      writeFileSync(join(chats, s.sessionId, `${out.sub.sessionId}.jsonl`), toJsonl(out.sub.lines));
    }
    last = out.end;
  }
  writeFileSync(file, toJsonl(lines));
  return { first: opened, last };
}

/**
 * Fails if any text of the test recording is left (the shared markers, its project names) or a path
 * of another machine. Gemini CLI keeps its state in ~/.gemini/tmp/, so "/tmp/" counts only outside it.
 */
function noRecordingLeft(dir: string): void {
  const markers = [...MARKERS.filter((m) => m.source !== "\\/tmp\\/"), /(?<!\.gemini)\/tmp\//, /api-server/, /web-ui/];
  for (const rel of listFiles(dir)) {
    const text = readFileSync(join(dir, rel), "utf8");
    for (const re of markers) {
      const m = re.exec(text) ?? re.exec(rel.replace(/^\.gemini\/tmp\//, ".gemini/"));
      if (m) throw new Error(`${rel} still holds ${JSON.stringify(m[0])}`);
    }
    const foreign = /"\/(?!home\/op\/)(?:home|root|Users|var|run|srv|opt)\/[^"]*"/.exec(text);
    if (foreign) throw new Error(`${rel} holds a path from another machine: ${foreign[0]}`);
  }
}

function main(): void {
  const fixtures = arg("--fixtures") ?? defaultFixtures(RECORDING);
  const out = resolve(arg("--out") ?? join(repoRoot, "shared", "demo"));
  const recorded = join(fixtures, RECORDING, ".gemini");
  const work = mkdtempSync(join(tmpdir(), "gi-demo-gemini-"));
  try {
    const home = join(work, "gemini-home");
    const gemini = join(home, ".gemini");
    mkdirSync(gemini, { recursive: true });
    // The runner's settings as the recording has them: no update check, no usage statistics, no telemetry, API-key auth.
    writeFileSync(join(gemini, SETTINGS_NOTE), readFileSync(join(recorded, SETTINGS_NOTE)));
    const random = seededRandom(SEED);
    let first = Infinity;
    let last = -Infinity;
    for (const plan of PLANS) {
      const r = buildSession(gemini, plan, random);
      first = Math.min(first, r.first);
      last = Math.max(last, r.last);
    }
    if (last > END) throw new Error(`the demo runs past its end: ${iso(last)}`);
    // trustedFolders.json as the trust dialog writes it, for the demo's folders.
    const trusted = Object.fromEntries(PLANS.map((p) => [p.cwd, "TRUST_FOLDER"]));
    writeFileSync(join(gemini, "trustedFolders.json"), JSON.stringify(trusted, null, 2));
    const foreign = foreignShapes(gemini, recorded);
    if (foreign.length > 0) throw new Error(`records the real Gemini CLI 0.61.0 never wrote: ${foreign.join("; ")}`);
    noRecordingLeft(home);

    const manifestFile = join(out, "demo-state.json");
    // The Gemini CLI entry is read once the demo install knows the provider (see shared/demo/README.md).
    const manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as DemoManifest & { geminiCli?: unknown };
    manifest.geminiCli = { home: "gemini-home", configDir: ".gemini", recordedFrom: first, recordedUntil: END };
    rmSync(join(out, "gemini-home"), { recursive: true, force: true });
    renameSync(home, join(out, "gemini-home"));
    writeFileSync(manifestFile, JSON.stringify(manifest, null, 2) + "\n");
    process.stdout.write(`Gemini CLI demo written to ${join(out, "gemini-home")} (${PLANS.length} sessions, ${treeBytes(join(out, "gemini-home"))} bytes, ${iso(first)} .. ${iso(END)})\n`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main();
