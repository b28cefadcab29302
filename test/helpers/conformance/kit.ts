// What the conformance suite (shared/providers/conformance*.test.ts) needs from each provider's
// fixture, and how it compares the core's answers with the fixture's own figures. Each provider's
// adapter (beside this file) says how its files are changed the way real use changes them: which
// transcript a resume splits, how a new turn is written, how a response is copied, what is cut,
// replaced and deleted, and how a running session shows. The suite does the writing and the
// checking, the same for every provider; the figures come from each provider's oracle over the
// files as they are (test/helpers/*-oracle.ts), never from the code under test.
import * as fs from "node:fs";
import * as assert from "uvu/assert";
import type { Provider } from "../../../shared/providers/contract.js";
import type { SessionView } from "../../../shared/queries/sessions.js";
import type { Figures } from "../figures.js";
import type { ProviderModel } from "../provider-model.js";

export { zeroFigures, type Figures } from "../figures.js";

/** The figures the files on disk give now, by the provider's own counting rules. */
export interface Oracle {
  bySession: Map<string, Figures>;
  total: Figures;
  /** Transcripts on disk (LifetimeStats.totalSessions counts them). */
  files: number;
  /** Event-log entries the transcripts give (errors and warnings). */
  incidents: { error: number; warning: number };
}

/** A transcript's text cut at a turn boundary: what was there before a resume, and what it appended. */
export interface Split {
  key: string;
  file: string;
  head: string;
  tail: string;
}

/** A new file the suite writes (a transcript holding a copy of an already counted response). */
export interface NewFile {
  key: string;
  /** The session whose response it copies. */
  original: string;
  file: string;
  text: string;
}

/** A session the provider shows as running once `show()` wrote what the provider writes for one. */
export interface Live {
  key: string;
  show(): void;
  /** The session keys a reader opened now shows as running (its own way: live processes, a session index). */
  running(): string[];
}

/** A writable copy of a provider's fixture, and what the suite may do to it. */
export interface FixtureCopy {
  /** The one install the fixture holds. */
  sourceId: string;
  /** A new provider reading exactly the copy (a restart makes another). */
  provider(): Provider;
  expected(): Oracle;
  /** A session whose transcript holds two turns (a resume): the suite writes the head, reads, appends the tail. */
  resumable(): Split;
  /** A new turn (a prompt and a billed response of its own) appended to an existing transcript (`head` empty). */
  newTurn(): Split;
  /**
   * A new transcript holding a copy of an already counted response, its key sorting `first` or
   * `last` among the sessions; null when the provider's responses carry no id to de-duplicate by
   * (the suite then checks that its reader gives none).
   */
  copyResponse: ((where: "first" | "last") => NewFile) | null;
  /** A transcript cut back (same inode) to a turn boundary: the file and its new length. */
  truncate(): { key: string; file: string; bytes: number };
  /** Transcripts the suite replaces by identical copies under new inodes (a restore from backup). */
  replaced(): string[];
  /** Transcripts the suite deletes (Claude Code deletes them after 30 days), with their sessions' keys. */
  removable(): Array<{ key: string; file: string }>;
  /** How a running session shows (readers opened with probes that say its process runs). */
  live(): Live;
}

/** A provider's adapter: a fresh copy of its fixture per call. */
export type ProviderFixture = () => FixtureCopy;

/**
 * A JSONL file's own text cut before its `line`-th non-empty line (0-based, as the oracles'
 * parsed lines count them): the bytes as written, so a cut never falls inside a line.
 */
export function cutAt(file: string, line: number): { head: string; tail: string } {
  const text = fs.readFileSync(file, "utf8");
  let at = 0;
  for (let seen = 0; seen < line; ) {
    const nl = text.indexOf("\n", at);
    if (nl < 0) throw new Error(`${file} has fewer than ${line} lines`);
    if (text.slice(at, nl).trim() !== "") seen++;
    at = nl + 1;
  }
  return { head: text.slice(0, at), tail: text.slice(at) };
}

// ---------------------------------------------------------------------------------------------
// Comparing the read model's answers with the oracle.
// ---------------------------------------------------------------------------------------------

export const near = (actual: number, want: number, what: string): void => assert.ok(Math.abs(actual - want) < 1e-6, `${what}: ${actual} != ${want}`);

/** Two oracles' figures are the same (cost to float rounding: the sums may run in another order). */
export function sameFigures(actual: Figures, want: Figures, what: string): void {
  assert.equal({ ...actual, cost: 0 }, { ...want, cost: 0 }, what);
  near(actual.cost, want.cost, `${what}: cost`);
}

export function checkSession(v: SessionView | undefined | null, want: Figures, what: string): void {
  assert.ok(v, `${what}: session missing`);
  const s = v as SessionView;
  assert.equal(
    { input: s.inputTokens, output: s.outputTokens, cacheRead: s.cacheReadTokens, cacheWrite: s.cacheWriteTokens, reasoning: s.reasoningTokens, total: s.totalTokens },
    { input: want.input, output: want.output, cacheRead: want.cacheRead, cacheWrite: want.cacheWrite, reasoning: want.reasoning, total: want.input + want.output + want.cacheRead + want.cacheWrite },
    `${what}: tokens`,
  );
  assert.equal(
    { turns: s.turnCount, responses: s.assistantMessages, tools: s.toolCalls, errors: s.errors, unpriced: s.unpricedResponses },
    { turns: want.prompts, responses: want.responses, tools: want.toolCalls, errors: want.errors, unpriced: want.unpriced },
    `${what}: counts`,
  );
  near(s.costUsd, want.cost, `${what}: cost`);
}

export function checkLifetime(pm: ProviderModel, want: Figures, files: number, what: string): void {
  const l = pm.model.lifetimeStats(pm.sourceId);
  assert.equal(
    {
      sessions: l.totalSessions,
      input: l.totalInputTokens,
      output: l.totalOutputTokens,
      cacheRead: l.totalCacheReadTokens,
      cacheWrite: l.totalCacheWriteTokens,
      reasoning: l.totalReasoningTokens,
      total: l.totalTokens,
      users: l.totalUserMessages,
      assistants: l.totalAssistantMessages,
      unpriced: l.unpricedResponses,
    },
    {
      sessions: files,
      input: want.input,
      output: want.output,
      cacheRead: want.cacheRead,
      cacheWrite: want.cacheWrite,
      reasoning: want.reasoning,
      total: want.input + want.output + want.cacheRead + want.cacheWrite,
      users: want.prompts,
      assistants: want.responses,
      unpriced: want.unpriced,
    },
    `${what}: lifetimeStats`,
  );
  near(l.totalCostUsd, want.cost, `${what}: lifetime cost`);
}

/** Every session the read model lists (ungrouped), by key. */
export function sessionsByKey(pm: ProviderModel): Map<string, SessionView> {
  return new Map(pm.model.sessions(pm.sourceId, { grouped: false, limit: 1000 }).map((s) => [s.key, s]));
}

/** Every session's figures, the install's lifetime figures and its event log, as the oracle gives them. */
export function checkAll(pm: ProviderModel, oracle: Oracle, what: string): void {
  const listed = sessionsByKey(pm);
  for (const [key, want] of oracle.bySession) checkSession(listed.get(key), want, `${what}: session ${key}`);
  checkLifetime(pm, oracle.total, oracle.files, what);
  assert.equal(pm.model.eventCounts(pm.sourceId), { ...oracle.incidents, restart: 0 }, `${what}: event counts`);
}
