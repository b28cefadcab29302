// One conformance suite every registered provider passes against its own recorded fixture (issue
// 21 item 6), at the reader: discovery under its registry identity, a first read to the end with the
// usage the fixture's own lines give, an incremental read that reads nothing twice, paging, a turn
// appended in two writes, a transcript cut back or replaced, watch targets inside the install, the
// answers its declared capabilities promise, and an install whose data is gone. CASES and the
// adapters (test/helpers/conformance/) are typed by the registry, so a new provider does not compile
// until it has both. Expected figures come from the fixture files (test/helpers), never from the
// readers. The same fixtures through the whole core: conformance-core.test.ts.
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { copyClaudeHome, transcriptFiles } from "../../test/helpers/claude-code-fixture.js";
import { copyCodexHome, rolloutFiles } from "../../test/helpers/codex-fixture.js";
import { expectedTotals, fixtureTranscripts } from "../../test/helpers/fixture-expectations.js";
import { CONFORMANCE_FIXTURES } from "../../test/helpers/conformance/fixtures.js";
import { copyGeminiHome } from "../../test/helpers/conformance/gemini-cli.js";
import { expected as geminiExpected, sessionFiles } from "../../test/helpers/gemini-oracle.js";
import type { FixtureCopy } from "../../test/helpers/conformance/kit.js";
import { copyFixture, FILES_FIXTURE, removeTempDirs } from "../../test/helpers/openclaw-fixtures.js";
import { claudeResponses, codexResponses, sums } from "../../test/helpers/usage-expectations.js";
import { Pricer } from "../pricing/pricer.js";
import type { ActivityEvent, Install, Provider, SourceReader, TranscriptRef } from "./contract.js";
import { CLI_DISCOVERY } from "./modules.js";
import { OpenClawProvider } from "./openclaw/provider.js";
import { hasCapability, PROVIDER_IDENTITIES, providerIdentity, type ProviderName } from "./registry.js";

interface Tokens {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

interface Case {
  provider: Provider;
  /** From the fixture's files: how many installs and transcripts, and the usage they hold. */
  installs: number;
  transcripts: number;
  tokens: Tokens;
}

const tokensOf = (s: Tokens): Tokens => ({ input: s.input, output: s.output, cacheRead: s.cacheRead, cacheWrite: s.cacheWrite });

/** A writable copy of each provider's fixture and the provider reading exactly it. */
const CASES: Record<ProviderName, () => Case> = {
  openclaw: () => {
    const stateDir = copyFixture(FILES_FIXTURE);
    const agents = fs.readdirSync(path.join(stateDir, "agents"));
    const transcripts = agents.flatMap((a) => fixtureTranscripts(stateDir, a));
    return { provider: new OpenClawProvider({ stateDir, env: {} }), installs: agents.length, transcripts: transcripts.length, tokens: tokensOf(expectedTotals(transcripts)) };
  },
  "claude-code": () => {
    const { home, claudeDir } = copyClaudeHome();
    return {
      provider: CLI_DISCOVERY["claude-code"].create({ env: {}, home, dirs: [claudeDir] }, new Pricer()),
      installs: 1,
      transcripts: transcriptFiles(claudeDir).length,
      tokens: tokensOf(sums(claudeResponses(claudeDir))),
    };
  },
  codex: () => {
    const { home, codexDir } = copyCodexHome();
    return {
      provider: CLI_DISCOVERY.codex.create({ env: {}, home, dirs: [codexDir] }, new Pricer()),
      installs: 1,
      transcripts: rolloutFiles(codexDir).length + rolloutFiles(codexDir, "archived_sessions").length,
      tokens: tokensOf(sums(codexResponses(codexDir))),
    };
  },
  "gemini-cli": () => {
    const { home, geminiDir } = copyGeminiHome();
    const files = sessionFiles(geminiDir);
    return {
      provider: CLI_DISCOVERY["gemini-cli"].create({ env: {}, home, dirs: [geminiDir] }, new Pricer()),
      installs: 1,
      transcripts: files.length,
      tokens: tokensOf(geminiExpected(files).total),
    };
  },
};

function value<T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }, what: string): T {
  if (!r.ok) throw new Error(`${what}: ${r.error.message}`);
  return r.value;
}

/** Reads a transcript to the end from `cursor`; at most 10,000 calls so a reader that never says done fails. */
function readAll(reader: SourceReader, ref: TranscriptRef, cursor: unknown, limit = 500): { events: ActivityEvent[]; cursor: unknown; restarted: boolean; calls: number } {
  const events: ActivityEvent[] = [];
  let restarted = false;
  for (let calls = 1; calls <= 10_000; calls++) {
    const batch = value(reader.readTranscript(ref, cursor, limit), `read ${ref.id}`);
    events.push(...batch.events);
    restarted ||= batch.restarted;
    cursor = batch.cursor;
    if (batch.done) return { events, cursor, restarted, calls };
  }
  throw new Error(`${ref.id} never said done`);
}

/** Session facts are told again by every read from the start: compare the rest. */
const noMeta = (es: readonly ActivityEvent[]): ActivityEvent[] => es.filter((e) => e.kind !== "meta");

/** The provider's reader on the adapter's install, and the transcript of session `key` as it lists now. */
function readerOf(c: FixtureCopy): { reader: SourceReader; ref: (key: string) => TranscriptRef } {
  const provider = c.provider();
  const install = provider.discover().installs.find((i) => i.id === c.sourceId);
  if (!install) throw new Error(`${c.sourceId} not discovered`);
  const reader = value(provider.open(install), "open");
  const ref = (key: string): TranscriptRef => {
    const refs = value(reader.listTranscripts(), "list").filter((r) => r.sessionKey === key);
    assert.is(refs.length, 1, `one transcript of ${key}`);
    return refs[0] as TranscriptRef;
  };
  return { reader, ref };
}

/** Usage counted as the core counts it: once per response key (null keys each). */
function countedTokens(events: readonly ActivityEvent[]): Tokens {
  const seen = new Set<string>();
  const t = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  for (const e of events) {
    if (e.kind !== "response" || !e.usage) continue;
    if (e.key !== null) {
      if (seen.has(e.key)) continue;
      seen.add(e.key);
    }
    t.input += e.usage.input;
    t.output += e.usage.output;
    t.cacheRead += e.usage.cacheRead;
    t.cacheWrite += e.usage.cacheWrite;
  }
  return t;
}

test.after(() => removeTempDirs());

for (const identity of PROVIDER_IDENTITIES) {
  const name = identity.name;
  const setUp = (): { c: Case; installs: Install[] } => {
    const c = CASES[name]();
    const found = c.provider.discover();
    assert.is(found.error, null, `${name} discovery error`);
    return { c, installs: found.installs };
  };

  test(`${name}: discovers its installs under its registry identity`, () => {
    const { c, installs } = setUp();
    assert.is(c.provider.name, name);
    assert.is(installs.length, c.installs, "installs, as the fixture has them");
    for (const i of installs) {
      assert.is(i.provider, name);
      assert.ok(i.id.startsWith(providerIdentity(name).sourcePrefix), i.id);
      assert.is(i.id, `${providerIdentity(name).sourcePrefix}${i.localId}`);
      assert.ok(fs.statSync(i.dir).isDirectory(), i.dir);
      assert.type(c.provider.identity(i), "string");
    }
  });

  test(`${name}: a first read lists every transcript and reads each to the end, with the fixture's usage`, () => {
    const { c, installs } = setUp();
    const events: ActivityEvent[] = [];
    let transcripts = 0;
    for (const install of installs) {
      const reader = value(c.provider.open(install), "open");
      try {
        const refs = value(reader.listTranscripts(), "list");
        assert.is(new Set(refs.map((r) => r.id)).size, refs.length, "transcript ids are unique");
        transcripts += refs.length;
        for (const ref of refs) events.push(...readAll(reader, ref, null).events);
      } finally {
        reader.close();
      }
    }
    assert.is(transcripts, c.transcripts, "transcripts, as the fixture has them");
    assert.ok(events.some((e) => e.kind === "prompt") && events.some((e) => e.kind === "response"), "prompts and responses");
    assert.equal(countedTokens(events), c.tokens);
  });

  test(`${name}: an incremental read from the last cursor reads nothing twice`, () => {
    const { c, installs } = setUp();
    for (const install of installs) {
      const reader = value(c.provider.open(install), "open");
      try {
        const refs = value(reader.listTranscripts(), "list");
        // A stamp may change on every call (Codex's does: it cannot tell cheaply); it must be given.
        assert.type(value(reader.changeStamp(), "stamp"), "string");
        for (const ref of refs) {
          const first = readAll(reader, ref, null);
          const again = readAll(reader, ref, first.cursor);
          assert.equal(again.events, [], `${ref.id}: nothing new`);
          assert.is(again.restarted, false, `${ref.id}: not restarted`);
        }
      } finally {
        reader.close();
      }
    }
  });

  test(`${name}: watch targets are absolute dirs inside the install`, () => {
    const { c, installs } = setUp();
    for (const install of installs) {
      const targets = c.provider.watchTargets?.(install) ?? [];
      for (const t of targets) {
        assert.ok(path.isAbsolute(t.dir) && (t.dir === install.dir || t.dir.startsWith(`${install.dir}${path.sep}`)), t.dir);
        assert.ok(Number.isInteger(t.depth) && t.depth >= 0);
      }
    }
  });

  test(`${name}: its declared capabilities answer (gateway: its own session index; rateLimits: plan figures in transcripts only where declared)`, () => {
    const { c, installs } = setUp();
    let rateEvents = 0;
    for (const install of installs) {
      const reader = value(c.provider.open(install), "open");
      try {
        if (hasCapability(name, "gateway")) assert.ok(value(reader.listSessions?.() ?? { ok: false, error: { message: "no session index" } }, "sessions").length > 0, "the gateway's sessions");
        assert.ok(Array.isArray(value(reader.liveSessions(), "live")));
        for (const ref of value(reader.listTranscripts(), "list")) rateEvents += readAll(reader, ref, null).events.filter((e) => e.kind === "rateLimits").length;
      } finally {
        reader.close();
      }
    }
    // Plan figures from the transcripts only where the provider says they are there: Claude Code's
    // come from its status line (daemon/statusline), never from a transcript.
    if (hasCapability(name, "rateLimits") && providerIdentity(name).rateLimitsFrom === "transcripts") assert.ok(rateEvents > 0, "the fixture's plan figures are read");
    else assert.is(rateEvents, 0, `no plan figures in ${name}'s transcripts`);
  });

  test(`${name}: a few events per call give the events one read gives`, () => {
    const { reader } = readerOf(CONFORMANCE_FIXTURES[name]());
    try {
      let paged = 0;
      for (const ref of value(reader.listTranscripts(), "list")) {
        const whole = readAll(reader, ref, null);
        const few = readAll(reader, ref, null, 1);
        if (noMeta(whole.events).length > 1) {
          assert.ok(few.calls > 1, `${ref.id}: read in several calls`);
          paged++;
        }
        assert.equal(noMeta(few.events), noMeta(whole.events), ref.id);
      }
      assert.ok(paged > 0, "some transcript is long enough to page");
    } finally {
      reader.close();
    }
  });

  test(`${name}: a turn appended in two writes is read from the last cursor once its line is whole, and only it`, () => {
    const c = CONFORMANCE_FIXTURES[name]();
    const turn = c.newTurn();
    const { reader, ref } = readerOf(c);
    try {
      const first = readAll(reader, ref(turn.key), null);
      // The writer is mid-line: the partial line waits.
      fs.appendFileSync(turn.file, turn.tail.slice(0, 25));
      const partial = readAll(reader, ref(turn.key), first.cursor);
      assert.equal(partial.events, [], "nothing of a partial line");
      fs.appendFileSync(turn.file, turn.tail.slice(25));
      const second = readAll(reader, ref(turn.key), partial.cursor);
      assert.is(second.restarted, false);
      assert.ok(second.events.some((e) => e.kind === "prompt") && second.events.some((e) => e.kind === "response"), "the new turn's prompt and response");
      assert.equal(noMeta([...first.events, ...second.events]), noMeta(readAll(reader, ref(turn.key), null).events), "together what a fresh read gives");
    } finally {
      reader.close();
    }
  });

  test(`${name}: a transcript cut back in place or replaced restarts from its beginning, says so, and reads what is there now`, () => {
    const c = CONFORMANCE_FIXTURES[name]();
    const cut = c.truncate();
    const { reader, ref } = readerOf(c);
    try {
      const whole = readAll(reader, ref(cut.key), null);
      fs.truncateSync(cut.file, cut.bytes);
      const truncated = readAll(reader, ref(cut.key), whole.cursor);
      assert.is(truncated.restarted, true, "truncated: restarted");
      assert.equal(noMeta(truncated.events), noMeta(readAll(reader, ref(cut.key), null).events), "truncated: the events of the cut file");
      const replacement = `${cut.file}.new`;
      fs.copyFileSync(cut.file, replacement);
      fs.renameSync(replacement, cut.file);
      const replaced = readAll(reader, ref(cut.key), truncated.cursor);
      assert.is(replaced.restarted, true, "replaced: restarted");
      assert.equal(noMeta(replaced.events), noMeta(truncated.events), "replaced: the same events again");
    } finally {
      reader.close();
    }
  });

  test(`${name}: an install whose data is gone has no identity (the core drops its reader)`, () => {
    const { c, installs } = setUp();
    for (const install of installs) {
      fs.rmSync(install.dir, { recursive: true, force: true });
      assert.is(c.provider.identity(install), null, install.id);
    }
  });
}

test.run();
