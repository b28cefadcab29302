// The Gemini CLI generator on a small size: what it writes reads back, through our Gemini CLI
// reader and through the independent checker, to the per-day totals the generator tallied as it
// made each response (its own inputs); the traps of the format are in it (records written twice,
// resumes with their re-listings and stray files, sub-agents, a slug collision); the same seed and
// anchor give the same bytes.
//   TEST_DIRS=bench node test/run.mjs bench/synthetic/gemini-cli
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { openGeminiReader } from "../../shared/providers/gemini-cli/reader.js";
import type { ActivityEvent, SourceReader, TranscriptRef } from "../../shared/providers/contract.js";
import { addDay, sortedDays, type DayTotals } from "./daily.js";
import { checkGeminiCli } from "./expected-gemini-cli.js";
import { ensureGeminiCliData } from "./gemini-cli.js";
import { jsonlFiles } from "./jsonl.js";

const NOW = Date.parse("2026-11-20T06:00:00Z");
const DAY = 86_400_000;
const quiet = (): void => {};

function treeHash(dir: string): string {
  const h = createHash("sha256");
  for (const f of jsonlFiles(dir)) h.update(path.relative(dir, f)).update(fs.readFileSync(f));
  h.update(fs.readFileSync(path.join(dir, "projects.json")));
  return h.digest("hex");
}

function readAll(reader: SourceReader, ref: TranscriptRef): ActivityEvent[] {
  const events: ActivityEvent[] = [];
  let cursor: unknown = null;
  for (let i = 0; i < 100_000; i++) {
    const b = reader.readTranscript(ref, cursor, 500);
    if (!b.ok) throw b.error;
    events.push(...b.value.events);
    cursor = b.value.cursor;
    if (b.value.done) return events;
  }
  throw new Error("never done");
}

test("Gemini CLI: our reader and the checker get the generator's totals; the format's traps are there; deterministic", async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "gi-bench-gemini-"));
  try {
    const params = { bytes: 1.5e6, files: 20, seed: 3 };
    const a = ensureGeminiCliData(params, { now: NOW, dir: path.join(tmp, "a"), log: quiet });
    const geminiDir = path.join(a.dir, a.manifest.root);
    const m = a.manifest;
    assert.ok(m.bytes > params.bytes * 0.5 && m.bytes < params.bytes * 2, `${m.bytes} bytes for ${params.bytes} asked`);
    assert.ok((m.counts.responses ?? 0) > 0 && (m.counts.resumes ?? 0) > 0 && (m.counts["sub-agents"] ?? 0) > 0, JSON.stringify(m.counts));
    assert.is(m.counts["stray files"], m.counts.resumes, "every resume in a later minute leaves a stray file");

    // Our reader: responses once per key, by UTC day of their time.
    const opened = openGeminiReader({ provider: "gemini-cli", id: "gemini-cli:default", localId: "default", name: "default", tags: ["gemini-cli", "default"], dir: geminiDir });
    if (!opened.ok) throw opened.error;
    const refs = opened.value.listTranscripts();
    if (!refs.ok) throw refs.error;
    const days = new Map<string, DayTotals>();
    const seen = new Set<string>();
    const sessions = new Set<string>();
    for (const ref of refs.value) {
      sessions.add(String(ref.sessionKey));
      for (const e of readAll(opened.value, ref)) {
        if (e.kind !== "response" || !e.usage || e.ts === null) continue;
        if (e.key !== null && seen.has(e.key)) continue;
        if (e.key !== null) seen.add(e.key);
        addDay(days, new Date(e.ts).toISOString().slice(0, 10), { input: e.usage.input, output: e.usage.output, cacheRead: e.usage.cacheRead, cacheWrite: e.usage.cacheWrite });
      }
    }
    assert.equal(sortedDays(days), m.expected);
    assert.is(seen.size, m.counts.responses);
    // Each main session once (its stray files merge into it), each sub-agent its own.
    assert.is(sessions.size, params.files + (m.counts["sub-agents"] ?? 0));

    // The independent checker agrees, and saw the records written twice.
    const check = await checkGeminiCli(geminiDir);
    assert.equal(check.daily, m.expected);
    assert.ok(check.repeatedRecords > 0, "tool rounds write their record twice");
    assert.is(check.files, m.files);
    for (const d of m.expected) assert.ok(Date.parse(d.date) >= NOW - 31 * DAY && Date.parse(d.date) < NOW, d.date);

    // Several projects, one slug with Gemini CLI's collision suffix, each slug's .project_root its cwd.
    const projects = (JSON.parse(fs.readFileSync(path.join(geminiDir, "projects.json"), "utf8")) as { projects: Record<string, string> }).projects;
    assert.is(Object.keys(projects).length, m.counts.projects);
    assert.ok(Object.keys(projects).length > 1);
    for (const [cwd, slug] of Object.entries(projects)) assert.is(fs.readFileSync(path.join(geminiDir, "tmp", slug, ".project_root"), "utf8"), cwd);

    const b = ensureGeminiCliData(params, { now: NOW, dir: path.join(tmp, "b"), log: quiet });
    assert.is(treeHash(path.join(b.dir, b.manifest.root)), treeHash(geminiDir));
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

test.run();
