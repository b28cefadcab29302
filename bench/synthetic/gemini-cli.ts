// A synthetic Gemini CLI history (~/.gemini, /work/shared/gemini-cli-format.md) made of the records
// the provider's demo writer builds (shared/providers/gemini-cli/demo/records.ts): main sessions
// over the last 30 days on the projects of the other histories (registered in projects.json, one
// pair of them with the same folder name, so a slug gets its "-1"), each a few interactive turns and
// then resumes from later processes. What a reader must get right is all there: every tool round's
// gemini record written twice (once more with its toolCalls), each resume's header line again and
// its `$set.messages` re-listing of the old messages without tokens, the stray file a resume in a
// later minute leaves (header and context only, same <id8>), and generalist sub-agents in
// chats/<parentSessionId>/.
//
// Size: half the Codex history's (500 MB, 5000 sessions; --quick 12.5 MB, 125), because Gemini
// CLI deletes sessions older than 30 days at every start, so a real history covers half the 60
// days the others are spread over.
//
//   node --import tsx bench/synthetic/gemini-cli.ts [--quick] [--bytes 500m] [--files 5000] [--seed 1] [--now <iso>] [--rebuild]
//
// Output: .tmp/bench/providers/gemini-cli-…/home/.gemini (GEMINI_CLI_HOME=…/home) and manifest.json.
import * as fs from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { between, pick, seededRandom, uuid, type Random } from "../../shared/base/random.js";
import { GEMINI_TURNS } from "../../shared/providers/gemini-cli/demo/content.js";
import { ensureProject, projectHash, sessionFileName } from "../../shared/providers/gemini-cli/demo/layout.js";
import { contextMessage, GeminiPrompt, resumeRecords, turnRecords, type GeminiTokens, type Json, type SessionCtx } from "../../shared/providers/gemini-cli/demo/records.js";
import { addDay, sortedDays, type DayTotals } from "./daily.js";
import { cacheDir, DAY, describeDataset, ensureDataset, finishBuild, generatorArgs, MINUTE, pickProject, projectCwd, relative, startBuild, type EnsureOptions, type ProviderDataset, type ProviderManifest, type ProviderParams } from "./provider-common.js";
import { Rng } from "./random.js";

const VERSION = 1;
export const GM_SIZES = { full: { bytes: 500e6, files: 5000 }, quick: { bytes: 12.5e6, files: 125 } } as const;
/** Gemini CLI's default session retention (format §6): nothing older is left on disk. */
const RETENTION_DAYS = 30;
const MODELS: readonly string[] = ["gemini-2.5-pro", "gemini-2.5-pro", "gemini-2.5-flash", "gemini-2.5-flash", "gemini-3-pro-preview"];

/** Project p's cwd; every tenth lives under ~/forks with the folder name of another (a slug collision). */
function cwdOf(p: number): string {
  return p % 10 === 9 ? `/home/op/forks/${path.basename(projectCwd(p - 9))}` : projectCwd(p);
}

type Tally = (at: number, t: GeminiTokens) => void;

/** The demo's prompt model, telling the generator every response it makes (sub-agents' too, through fork). */
class TalliedPrompt extends GeminiPrompt {
  constructor(
    random: Random,
    model: string,
    private readonly tally: Tally,
  ) {
    super(random, model);
  }
  override respond(at: number, added: number, visible: number, toolResult: boolean): GeminiTokens {
    const t = super.respond(at, added, visible, toolResult);
    this.tally(at, t);
    return t;
  }
  override fork(): GeminiPrompt {
    return new TalliedPrompt(this.random, this.model, this.tally);
  }
}

interface Totals {
  files: number;
  bytes: number;
  lines: number;
  counts: Record<string, number>;
  days: Map<string, DayTotals>;
}

function writeJsonl(file: string, lines: readonly Json[], totals: Totals): void {
  const text = lines.map((l) => `${JSON.stringify(l)}\n`).join("");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  totals.files++;
  totals.bytes += Buffer.byteLength(text);
  totals.lines += lines.length;
}

/** Bytes of JSONL lines (ASCII but for a few characters: close enough for a budget). */
const size = (lines: readonly Json[]): number => lines.reduce((a, l) => a + JSON.stringify(l).length + 1, 0);

const bump = (t: Totals, k: string, n = 1): void => void (t.counts[k] = (t.counts[k] ?? 0) + n);

/** One main session: turns in its first process, then resumes until its share of the bytes is written or time runs out. */
function writeSession(i: number, params: ProviderParams, now: number, geminiDir: string, slugs: Map<string, string>, totals: Totals): void {
  const r = seededRandom((Math.imul(params.seed, 0x9e3779b1) ^ Math.imul(i + 1, 0x85ebca6b)) >>> 0);
  const cwd = cwdOf(pickProject(new Rng(Math.floor(r() * 2 ** 32))));
  let slug = slugs.get(cwd);
  if (slug === undefined) slugs.set(cwd, (slug = ensureProject(geminiDir, cwd)));
  const hash = projectHash(cwd);
  // The HOME the sessions' text names (the projects are under it), not where the dataset is built.
  const home = "/home/op";
  const tally: Tally = (at, t) => {
    addDay(totals.days, new Date(at).toISOString().slice(0, 10), { input: t.input - t.cached + t.tool, output: t.output + t.thoughts, cacheRead: t.cached, cacheWrite: 0 });
    bump(totals, "responses");
  };
  const s: SessionCtx = { sessionId: uuid(r), cwd, slug, prompt: new TalliedPrompt(r, pick(r, MODELS), tally) };
  const chats = path.join(geminiDir, "tmp", slug, "chats");
  const budget = (params.bytes / params.files) * (0.3 + 1.4 * r());
  const opened = now - RETENTION_DAYS * DAY + Math.floor(r() * (RETENTION_DAYS - 2) * DAY);
  const lines: Json[] = [
    { sessionId: s.sessionId, projectHash: hash, startTime: new Date(opened).toISOString(), lastUpdated: new Date(opened).toISOString(), kind: "main" },
    { $set: { messages: [contextMessage(s, home, opened + 1)], lastUpdated: new Date(opened + 1).toISOString() } },
  ];
  let t = opened + between(r, 30, 110);
  let bytes = 0;
  for (let block = 0; bytes < budget; block++) {
    if (block > 0) {
      // A later `gemini --resume latest`: 10 minutes to 2 days on.
      t += Math.round(10 * MINUTE * Math.exp(r() * Math.log(288)));
      if (t > now - 120 * MINUTE) break; // room for the block's turns before `now`
      const resumed = resumeRecords(lines, s, t, home);
      lines.push(...resumed);
      bytes += size(resumed);
      bump(totals, "resumes");
      // Resumed in a later minute than the file's name: a second file with only the header and context (format §6).
      writeJsonl(path.join(chats, sessionFileName(t, s.sessionId)), [lines.at(-4) as Json, lines.at(-3) as Json], totals);
      bump(totals, "stray files");
      t += between(r, 30, 110);
    }
    for (let turn = between(r, 1, 6); turn > 0 && bytes < budget; turn--) {
      const out = turnRecords(r, s, pick(r, GEMINI_TURNS), t, hash);
      lines.push(...out.main);
      bytes += size(out.main) + (out.sub ? size(out.sub.lines) : 0);
      bump(totals, "turns");
      if (out.sub) {
        writeJsonl(path.join(chats, s.sessionId, `${out.sub.sessionId}.jsonl`), out.sub.lines, totals);
        bump(totals, "sub-agents");
      }
      t = out.end + between(r, 20_000, 6 * MINUTE);
    }
  }
  writeJsonl(path.join(chats, sessionFileName(opened, s.sessionId)), lines, totals);
}

function build(params: ProviderParams, now: number, dir: string, log: (m: string) => void): ProviderManifest {
  const started = Date.now();
  const work = startBuild(dir);
  const geminiDir = path.join(work, "home", ".gemini");
  fs.mkdirSync(geminiDir, { recursive: true });
  const totals: Totals = { files: 0, bytes: 0, lines: 0, counts: {}, days: new Map() };
  const slugs = new Map<string, string>();
  let lastLog = Date.now();
  for (let i = 0; i < params.files; i++) {
    writeSession(i, params, now, geminiDir, slugs, totals);
    if (Date.now() - lastLog > 5000) {
      lastLog = Date.now();
      log(`  ${i + 1}/${params.files} sessions, ${(totals.bytes / 1e6).toFixed(0)} MB (${((Date.now() - started) / 1000).toFixed(0)} s)`);
    }
  }
  totals.counts.projects = slugs.size;
  const manifest: ProviderManifest = {
    version: VERSION,
    kind: "gemini-cli",
    params,
    now,
    builtAt: new Date(started).toISOString(),
    buildMs: Date.now() - started,
    root: "home/.gemini",
    home: "home",
    files: totals.files,
    bytes: totals.bytes,
    sessions: params.files,
    lines: totals.lines,
    counts: totals.counts,
    expected: sortedDays(totals.days),
  };
  finishBuild(work, dir, manifest);
  return manifest;
}

/** The cached dataset for `params`, built first when missing. `dir` replaces the cache dir (tests). */
export function ensureGeminiCliData(params: ProviderParams, opts: EnsureOptions = {}): ProviderDataset {
  const dir = opts.dir ?? cacheDir("gemini-cli", params, VERSION);
  const details = `${params.files} sessions, ${(params.bytes / 1e6).toFixed(1)} MB, seed ${params.seed}`;
  return ensureDataset(dir, VERSION, opts, "Gemini CLI history", details, (now, log) => build(params, now, dir, log));
}

function main(): void {
  const { params, now, rebuild } = generatorArgs(GM_SIZES);
  const d = ensureGeminiCliData(params, { rebuild, now });
  process.stdout.write(`${d.cached ? "cached" : "built"}: ${relative(d.dir)}\n${describeDataset(d.manifest)}\nGEMINI_CLI_HOME=${path.join(d.dir, d.manifest.home)}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
