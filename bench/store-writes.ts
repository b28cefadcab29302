// Micro-benchmark of the store's side of a first scan (issue 23): the scanner's own writes, on a
// fresh store, from a reader that costs nothing (its events are made up front), so what is timed
// is SQLite and the scanner's bookkeeping only. Each response is written on two lines with the
// same key (Claude Code writes one line per content block), after one prompt. Prints the CPU per
// response of the whole scan and, per prepared statement of the scanner, its time per response
// (each statement call's CPU timed on its own, getrusage's ~1 µs included; a trigger's or an index's work is inside the statement
// that fires it). Not a suite of `npm run bench`: run it in two trees, alternating, to compare:
//   node --import tsx bench/store-writes.ts [--transcripts 3000] [--responses 12] [--rounds 3] [--drop index,trigger_add]
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { manualClock } from "../shared/base/clock.js";
import { TranscriptScanner } from "../shared/ingest/transcript-scanner.js";
import type { ActivityEvent, SourceReader, TranscriptRef } from "../shared/providers/contract.js";
import { ok } from "../shared/providers/result.js";
import { Store } from "../shared/store/store.js";

const { values } = parseArgs({
  options: {
    transcripts: { type: "string", default: "3000" },
    responses: { type: "string", default: "12" },
    rounds: { type: "string", default: "3" },
    drop: { type: "string", default: "" },
  },
});
const DROP = values.drop.split(",").filter((o) => /^[a-z_]+$/.test(o));
const TRANSCRIPTS = Number(values.transcripts);
const RESPONSES = Number(values.responses);
const ROUNDS = Number(values.rounds);

/** A deterministic generator (xorshift32), so every run writes the same keys. */
function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}
const B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const id = (r: () => number, n: number): string => Array.from({ length: n }, () => B62[Math.floor(r() * 62)]).join("");

function history(): { refs: TranscriptRef[]; events: Map<string, ActivityEvent[]> } {
  const r = rng(23);
  const refs: TranscriptRef[] = [];
  const events = new Map<string, ActivityEvent[]>();
  // Transcripts of different days, in listing order (not by time), as a real install's are.
  for (let t = 0; t < TRANSCRIPTS; t++) {
    const tid = `${id(r, 8)}-${id(r, 4)}-${id(r, 4)}-${id(r, 12)}`;
    refs.push({ id: `projects/-home-me-proj${t % 40}/${tid}.jsonl`, sessionKey: tid, parentKey: null, changeToken: "1", sizeBytes: null });
    let ts = Date.UTC(2026, 9, 1) + Math.floor(r() * 60) * 86_400_000;
    const list: ActivityEvent[] = [];
    for (let i = 0; i < RESPONSES; i++) {
      ts += 5_000 + Math.floor(r() * 60_000);
      list.push({ kind: "prompt", ts, pos: list.length });
      const key = `msg_01${id(r, 22)}:req_011${id(r, 22)}`;
      const usage = { input: 3 + i, output: 200 + i, cacheRead: 40_000 + i, cacheWrite: 1_000 + i, cacheWrite1h: 0, reasoning: 0 };
      for (let line = 0; line < 2; line++) {
        list.push({ kind: "response", ts: ts + line, pos: list.length, key, model: "claude-sonnet-4-5-20250929", modelProvider: "anthropic", usage, costUsd: null, toolCalls: line, error: null });
      }
    }
    events.set(tid, list);
  }
  return { refs, events };
}

const { refs, events } = history();
const reader: SourceReader = {
  listTranscripts: () => ok(refs),
  readTranscript: (ref, cursor, limit) => {
    const all = events.get(ref.sessionKey ?? "") ?? [];
    const at = typeof cursor === "number" ? cursor : 0;
    const end = Math.min(all.length, at + limit);
    return ok({ events: all.slice(at, end), cursor: end, done: end >= all.length, restarted: false });
  },
  readMessages: () => ok({ messages: [], bytes: 0 }),
  liveSessions: () => ok([]),
  appVersion: () => ok(null),
  changeStamp: () => ok("1"),
  close: () => undefined,
};

interface Timed {
  run?: (...a: unknown[]) => unknown;
  get?: (...a: unknown[]) => unknown;
  all?: (...a: unknown[]) => unknown;
}

/** Wraps each of the scanner's statements so every call adds its time to `spent`. */
function instrument(scanner: TranscriptScanner, spent: Map<string, number>): void {
  // The statements are private: a benchmark looks inside on purpose.
  const stmts = (scanner as unknown as { stmts: Record<string, Timed> }).stmts;
  for (const [name, st] of Object.entries(stmts)) {
    for (const m of ["run", "get", "all"] as const) {
      const f = st[m];
      if (typeof f !== "function") continue;
      const bound = f.bind(st);
      st[m] = (...a: unknown[]) => {
        // CPU, not wall: on a loaded machine a call's wall time is mostly waiting for a core.
        const t0 = process.cpuUsage();
        try {
          return bound(...a);
        } finally {
          const d = process.cpuUsage(t0);
          spent.set(name, (spent.get(name) ?? 0) + d.user + d.system);
        }
      };
    }
  }
}

const responses = TRANSCRIPTS * RESPONSES;
for (let round = 1; round <= ROUNDS; round++) {
  for (const timed of [false, true]) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "store-writes-"));
    const clock = manualClock();
    const store = Store.open(path.join(dir, "insights.db"), { clock });
    // What an index or trigger costs: the same scan without it (--drop token_usage_source_ts,usage_steps_add).
    for (const o of DROP) store.db.exec(o.endsWith("_add") ? `DROP TRIGGER ${o}` : `DROP INDEX ${o}`);
    const scanner = new TranscriptScanner(store, { clock });
    const spent = new Map<string, number>();
    if (timed) instrument(scanner, spent);
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const r = await scanner.scan({ id: "claude-code:default", provider: "claude-code", reader, price: () => 0.01 });
    const cpu = process.cpuUsage(cpu0);
    const wallMs = performance.now() - t0;
    if (!r.done || r.usageRows !== responses * 2) throw new Error(`scan wrote ${r.usageRows} usage rows, expected ${responses * 2}`);
    store.close();
    fs.rmSync(dir, { recursive: true, force: true });
    const perResponse = (us: number): string => (us / responses).toFixed(1);
    if (!timed) {
      console.log(`round ${round}: ${responses} responses in ${TRANSCRIPTS} transcripts: CPU ${perResponse(cpu.user + cpu.system)} µs/response, wall ${(wallMs / 1000).toFixed(2)} s`);
    } else {
      const rows = [...spent].sort((a, b) => b[1] - a[1]).filter(([, us]) => us / responses >= 0.5);
      console.log(`  per statement, µs/response (timed run): ${rows.map(([n, us]) => `${n} ${perResponse(us)}`).join(", ")}`);
    }
  }
}
