// Claude Code's fixture for the conformance suite (kit.ts): the real 2.1.330 fixture's sessions
// (fixture README) changed the way Claude Code changes them. A1 (2e9c2371) was resumed once: its
// second `queue-operation` enqueue starts the resumed turn (format doc §5). A2 (5108af6e) holds a
// response to copy; W2 (099ba3cc) is the error-only session; W1 (a192c37f) gets a new turn.
import * as fs from "node:fs";
import * as path from "node:path";
import { Pricer } from "../../../shared/pricing/pricer.js";
import { ClaudeCodeProvider } from "../../../shared/providers/claude-code/provider.js";
import { openClaudeCodeReader } from "../../../shared/providers/claude-code/reader.js";
import { copyClaudeHome, installOf } from "../claude-code-fixture.js";
import { expected, sessionIdOf, transcripts, type RawLine, type Sums, type Transcript } from "../claude-code-oracle.js";
import { cutAt, type Figures, type FixtureCopy, type Oracle } from "./kit.js";

const jsonl = (lines: RawLine[]): string => lines.map((l) => `${JSON.stringify(l)}\n`).join("");

/** The oracle's sums in the kit's vocabulary (Claude Code lists every fixture model's price: nothing unpriced). */
export const figures = (s: Sums): Figures => ({ ...s, unpriced: 0 });

/** The kit's oracle over these transcripts (read in this order: the first file holding a response owns it). */
export function oracleOf(all: Transcript[]): Oracle {
  const o = expected(all);
  return { bySession: new Map([...o.bySession].map(([k, s]) => [k, figures(s)])), total: figures(o.total), files: all.length, incidents: { error: o.total.errors, warning: o.total.warnings } };
}

/** Where A1's resumed turn starts: its second enqueue. */
function resumeAt(a1: Transcript): number {
  return a1.lines.map((l, i) => (l.type === "queue-operation" && l.operation === "enqueue" ? i : -1)).filter((i) => i >= 0)[1] as number;
}

export function claudeCodeFixture(): FixtureCopy {
  const { home, claudeDir } = copyClaudeHome();
  const ts = (): Transcript[] => transcripts(claudeDir);
  return {
    sourceId: "claude-code:default",
    provider: () => new ClaudeCodeProvider({ env: {}, home, dirs: null, pricer: new Pricer() }),
    expected: () => oracleOf(ts()),
    resumable: () => {
      const a1 = sessionIdOf("2e9c2371", ts());
      return { key: a1.key, file: a1.file, ...cutAt(a1.file, resumeAt(a1)) };
    },
    newTurn: () => {
      // A prompt and one response in W1, shaped like its own lines, with ids of their own.
      const w1 = sessionIdOf("a192c37f", ts());
      const prompt = w1.lines.find((l) => l.type === "user" && typeof l.message?.content === "string") as RawLine;
      const response = w1.lines.find((l) => l.type === "assistant") as RawLine;
      const usage = { ...response.message.usage, input_tokens: 7, output_tokens: 11, cache_read_input_tokens: 13, cache_creation_input_tokens: 17, cache_creation: { ephemeral_5m_input_tokens: 17, ephemeral_1h_input_tokens: 0 } };
      const turn = [
        { ...prompt, uuid: "11111111-1111-4111-8111-111111111111", timestamp: "2026-11-23T22:00:00.000Z", message: { ...prompt.message, content: "one more question" } },
        { ...response, uuid: "22222222-2222-4222-8222-222222222222", timestamp: "2026-11-23T22:00:01.000Z", requestId: "req_011Cappendedappendedxyz", message: { ...response.message, id: "msg_01appendedappendedappend", usage } },
      ];
      return { key: w1.key, file: w1.file, head: "", tail: jsonl(turn) };
    },
    copyResponse: (where) => {
      // A2's response lines in a new transcript beside it (a session id sorting first or last).
      const a2 = sessionIdOf("5108af6e", ts());
      const key = where === "first" ? "00000000-0000-4000-8000-000000000001" : "ffffffff-0000-4000-8000-000000000001";
      return { key, original: a2.key, file: path.join(path.dirname(a2.file), `${key}.jsonl`), text: jsonl(a2.lines.filter((l) => l.type === "assistant")) };
    },
    truncate: () => {
      const a1 = sessionIdOf("2e9c2371", ts());
      return { key: a1.key, file: a1.file, bytes: Buffer.byteLength(cutAt(a1.file, resumeAt(a1)).head) };
    },
    replaced: () => {
      const all = ts();
      return [sessionIdOf("099ba3cc", all).file, (all.find((t) => t.subagent) as Transcript).file];
    },
    removable: () => {
      const all = ts();
      return [sessionIdOf("5108af6e", all), sessionIdOf("099ba3cc", all)].map((t) => ({ key: t.key, file: t.file }));
    },
    live: () => {
      // sessions/<pid>.json, as Claude Code writes it while it runs; the probe says pid 4242 is that process.
      const key = sessionIdOf("2e9c2371", ts()).key;
      const probe = { isPidAlive: (pid: number) => pid === 4242, procStartOf: () => "1", ownPidDomain: () => null, isProviderProcess: (pid: number) => pid === 4242 };
      return {
        key,
        show: () => {
          fs.mkdirSync(path.join(claudeDir, "sessions"), { recursive: true });
          fs.writeFileSync(path.join(claudeDir, "sessions", "4242.json"), JSON.stringify({ pid: 4242, sessionId: key, cwd: "/home/op/code/api-server", startedAt: 1, procStart: "1", version: "2.1.330", status: "busy" }));
        },
        running: () => {
          const r = openClaudeCodeReader(installOf(claudeDir), { probe });
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
