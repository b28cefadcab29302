// Codex's fixture for the conformance suite (kit.ts): the real 0.169.0 fixture's sessions (fixture
// README) changed the way Codex changes them. 8ada was resumed once: its second
// `thread_settings_applied` starts the resumed turn; c0a7 holds a response record to copy; ce31 is
// the failed (500) session; fdf8 the TUI session, which gets a new turn.
import * as fs from "node:fs";
import * as path from "node:path";
import { Pricer } from "../../../shared/pricing/pricer.js";
import { CodexProvider } from "../../../shared/providers/codex/provider.js";
import { LOCKS_DIR, splitDev } from "../../../shared/providers/codex/live.js";
import { openCodexReader } from "../../../shared/providers/codex/reader.js";
import { copyCodexHome, installOf, isEvent } from "../codex-fixture.js";
import { expected, rollouts, type RawLine, type Rollout } from "../codex-oracle.js";
import { cutAt, type FixtureCopy, type Oracle } from "./kit.js";

const jsonl = (lines: RawLine[]): string => lines.map((l) => `${JSON.stringify(l)}\n`).join("");

/** The kit's oracle over these rollouts (in session-id order: the first holding a response owns it). */
export function oracleOf(all: Rollout[]): Oracle {
  const o = expected(all);
  return { bySession: o.bySession, total: o.total, files: all.length, incidents: { error: o.total.errors, warning: o.total.warnings } };
}

export function byPrefix(prefix: string, rs: Rollout[]): Rollout {
  const r = rs.find((x) => x.key.startsWith(prefix));
  if (!r) throw new Error(`no session ${prefix} in the fixture`);
  return r;
}

/** Where a rollout's last (resumed) turn starts. */
const lastStart = (r: Rollout): number => r.lines.findLastIndex((l) => isEvent(l, "thread_settings_applied"));

export function codexFixture(): FixtureCopy {
  const { home, codexDir } = copyCodexHome();
  const rs = (): Rollout[] => rollouts(codexDir);
  return {
    sourceId: "codex:default",
    provider: () => new CodexProvider({ env: {}, home, dirs: null, pricer: new Pricer() }),
    expected: () => oracleOf(rs()),
    resumable: () => {
      const r = byPrefix("01a20a4f-8ada", rs());
      return { key: r.key, file: r.file, ...cutAt(r.file, lastStart(r)) };
    },
    newTurn: () => {
      // The TUI session's last turn again, 26 minutes later, its response under a new response_id.
      const tui = byPrefix("01a20a4f-fdf8", rs());
      const turn = tui.lines.slice(lastStart(tui)).map((l) =>
        l.type === "token_usage_record" ? { ...l, timestamp: "2026-11-23T21:55:00.000Z", payload: { ...l.payload, response_id: `${l.payload.response_id}-again` } } : { ...l, timestamp: l.timestamp.replace("21:29", "21:55") },
      );
      return { key: tui.key, file: tui.file, head: "", tail: jsonl(turn) };
    },
    copyResponse: (where) => {
      // A rollout of a new session (its id sorting first or last) repeating c0a7's response record.
      const src = byPrefix("01a20a4f-c0a7", rs());
      const key = where === "first" ? "01a20a4f-0000-7000-8000-000000000001" : "01a20a4f-ffff-7fff-8fff-ffffffffffff";
      const meta = { ...(src.lines[0] as RawLine), payload: { ...(src.lines[0] as RawLine).payload, id: key } };
      const ctx = src.lines.find((l) => l.type === "turn_context") as RawLine;
      const record = src.lines.find((l) => l.type === "token_usage_record") as RawLine;
      return { key, original: src.key, file: path.join(codexDir, `sessions/2026/11/23/rollout-2026-11-23T21-50-00-${key}.jsonl`), text: jsonl([meta, ctx, record]) };
    },
    truncate: () => {
      const r = byPrefix("01a20a4f-8ada", rs());
      return { key: r.key, file: r.file, bytes: Buffer.byteLength(cutAt(r.file, lastStart(r)).head) };
    },
    replaced: () => rs().map((r) => r.file),
    removable: () => {
      const all = rs();
      return [byPrefix("01a20a4f-ce31", all), byPrefix("01a20a4f-fdf8", all)].map((r) => ({ key: r.key, file: r.file }));
    },
    live: () => {
      // thread-writer-locks/<session>.lock, exclusively locked by the Codex process writing it (pid 4343 here).
      const key = byPrefix("01a20a4f-fdf8", rs()).key;
      const lock = path.join(codexDir, LOCKS_DIR, `${key}.lock`);
      const heldLocks = () => {
        if (!fs.existsSync(lock)) return [];
        const st = fs.statSync(lock, { bigint: true });
        return [{ ...splitDev(st.dev), inode: st.ino.toString(), pid: 4343 }];
      };
      const probe = { heldLocks, hasOpen: () => true, isProviderProcess: (pid: number) => pid === 4343 };
      return {
        key,
        show: () => {
          fs.mkdirSync(path.dirname(lock), { recursive: true });
          fs.writeFileSync(lock, "");
        },
        running: () => {
          const r = openCodexReader(installOf(codexDir), { probe });
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
