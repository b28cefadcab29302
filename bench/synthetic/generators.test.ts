// The Claude Code and Codex generators on small sizes: what they write must read back, by the
// independent checkers, to the totals they recorded; ids must be unique per copy; the same seed
// and anchor must give the same bytes; paths and dates must follow the formats.
//   node --import tsx bench/synthetic/generators.test.ts
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ensureClaudeCodeData } from "./claude-code.js";
import { ensureCodexData } from "./codex.js";
import { checkClaudeCode } from "./expected-claude-code.js";
import { checkCodex } from "./expected-codex.js";
import { jsonlFiles } from "./jsonl.js";
import type { ProviderDataset } from "./provider-common.js";

const NOW = Date.parse("2026-11-20T06:00:00Z");
const DAY = 86_400_000;
const quiet = (): void => {};

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "gi-bench-gen-"));
}

/** A hash of every file under `dir` (paths and bytes). */
function treeHash(dir: string): string {
  const h = createHash("sha256");
  for (const d of fs.readdirSync(dir, { withFileTypes: true, recursive: true }).sort((a, b) => path.join(a.parentPath, a.name).localeCompare(path.join(b.parentPath, b.name)))) {
    if (!d.isFile()) continue;
    const p = path.join(d.parentPath, d.name);
    h.update(path.relative(dir, p)).update(fs.readFileSync(p));
  }
  return h.digest("hex");
}

type Json = Record<string, unknown>;
const lines = (file: string): Json[] => fs.readFileSync(file, "utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Json);

test("Claude Code: totals read back, unique ids, real layout, deterministic", async () => {
  const tmp = tempDir();
  try {
    const params = { bytes: 4e6, files: 14, seed: 7 };
    const a: ProviderDataset = ensureClaudeCodeData(params, { now: NOW, dir: path.join(tmp, "a"), log: quiet });
    const root = path.join(a.dir, a.manifest.root);
    const files = jsonlFiles(path.join(root, "projects"));
    assert.is(files.length, 14);
    assert.is(a.manifest.files, 14);
    const check = await checkClaudeCode(root);
    assert.equal(check.daily, a.manifest.expected);
    assert.ok(check.repeatedLines > 0, "some responses span several lines");

    const keyFile = new Map<string, string>();
    const sessions = new Set<string>();
    let subagents = 0;
    for (const file of files) {
      const rel = path.relative(path.join(root, "projects"), file).split(path.sep);
      const slug = rel[0] as string;
      const sub = rel.length === 4;
      if (sub) subagents++;
      const own = sub ? (rel[1] as string) : path.basename(file, ".jsonl");
      if (!sub) {
        assert.not.ok(sessions.has(own), `session id ${own} used twice`);
        sessions.add(own);
      }
      for (const o of lines(file)) {
        if (typeof o.sessionId === "string") assert.is(o.sessionId, own, `${file}: a line of another session`);
        if (typeof o.cwd === "string") {
          assert.match(o.cwd, /^\/home\/op\/code\/p\d{3}$/);
          assert.is(slug, o.cwd.replace(/[/.]/g, "-"));
        }
        if (typeof o.timestamp === "string") {
          const t = Date.parse(o.timestamp);
          assert.ok(t < NOW && t >= NOW - 61 * DAY, `timestamp ${o.timestamp} out of range`);
        }
        const m = (o.message ?? {}) as Json;
        if (o.type === "assistant" && m.model !== "<synthetic>") {
          const key = `${String(m.id)}|${String(o.requestId)}`;
          const seen = keyFile.get(key);
          assert.ok(seen === undefined || seen === file, `response ${key} in two files`);
          keyFile.set(key, file);
        }
      }
    }
    assert.ok(subagents > 0, "at least one sub-agent transcript");
    assert.is(keyFile.size, check.responses);

    const b = ensureClaudeCodeData(params, { now: NOW, dir: path.join(tmp, "b"), log: quiet });
    assert.is(treeHash(path.join(b.dir, "home")), treeHash(path.join(a.dir, "home")), "same seed and anchor, same bytes");
    const c = ensureClaudeCodeData({ ...params, seed: 8 }, { now: NOW, dir: path.join(tmp, "c"), log: quiet });
    assert.is.not(treeHash(path.join(c.dir, "home")), treeHash(path.join(a.dir, "home")));
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

test("Codex: totals read back both ways, local-date folders, ordinals, unique response ids, deterministic", async () => {
  const tmp = tempDir();
  try {
    const params = { bytes: 2e6, files: 16, seed: 7 };
    const tz = "Pacific/Auckland";
    const a = ensureCodexData(params, { now: NOW, tz, dir: path.join(tmp, "a"), log: quiet });
    const root = path.join(a.dir, a.manifest.root);
    const check = await checkCodex(root);
    assert.equal(check.daily, a.manifest.expected);
    assert.equal(check.inconsistentFiles, []);
    assert.is(check.repeatedRecords, 0);
    const sum = (d: typeof check.daily): number => d.reduce((x, y) => x + y.input + y.output + y.cacheRead, 0);
    assert.is(sum(check.dailyByTokenCount), sum(check.daily));

    const fmt = new Intl.DateTimeFormat("en-CA", { timeZone: tz, year: "numeric", month: "2-digit", day: "2-digit" });
    const files = jsonlFiles(path.join(root, "sessions"));
    assert.is(files.length, 16);
    const responses = new Set<string>();
    for (const file of files) {
      const ls = lines(file);
      const meta = ls[0] as Json;
      assert.is(meta.type, "session_meta");
      const payload = meta.payload as Json;
      // The folder is the local date of creation, the file name carries the session id.
      const local = fmt.format(new Date(String(payload.timestamp)));
      assert.is(path.relative(path.join(root, "sessions"), path.dirname(file)).split(path.sep).join("-"), local);
      assert.ok(path.basename(file).endsWith(`-${String(payload.id)}.jsonl`));
      ls.forEach((o, i) => assert.is(o.ordinal, i, `${file}: ordinal`));
      // turn_token_usage and thread_token_usage are running sums of `usage` (per turn, per file).
      const perTurn = new Map<string, number>();
      let thread = 0;
      for (const o of ls) {
        const p = (o.payload ?? {}) as Json;
        if (o.type === "token_usage_record") {
          assert.not.ok(responses.has(String(p.response_id)));
          responses.add(String(p.response_id));
          const total = Number((p.usage as Json).total_tokens);
          const turn = (perTurn.get(String(p.turn_id)) ?? 0) + total;
          perTurn.set(String(p.turn_id), turn);
          thread += total;
          assert.is(Number((p.turn_token_usage as Json).total_tokens), turn, `${file}: turn_token_usage`);
          assert.is(Number((p.thread_token_usage as Json).total_tokens), thread, `${file}: thread_token_usage`);
        }
        if (p.type === "token_count" && p.rate_limits) {
          const used = Number(((p.rate_limits as Json).primary as Json).used_percent);
          assert.ok(used >= 0 && used <= 100);
        }
      }
    }
    assert.is(responses.size, check.records);

    const b = ensureCodexData(params, { now: NOW, tz, dir: path.join(tmp, "b"), log: quiet });
    assert.is(treeHash(path.join(b.dir, "home")), treeHash(path.join(a.dir, "home")));
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

test.run();
