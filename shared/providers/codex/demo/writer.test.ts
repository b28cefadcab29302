// The Codex demo writer on an installed demo copy, checked with Codex's real reader (the one the
// daemon uses) and against the format's counting rules: what it appends reads back as a resumed
// turn, records and token_count totals agree, the plan's rate limits inch up inside their window
// and start again when it resets, and the project does not grow without bound.
import { appendFileSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { ActivityEvent } from "../../contract.js";
import { openCodexReader } from "../reader.js";
import { makeTempDir, removeTempDirs } from "../../../../test/helpers/openclaw-fixtures.js";
import { copyDir } from "../../../../test/helpers/demo-bundle.js";
import { installDemoState } from "../../../demo-replay/install.js";
import { seededRandom } from "../../../base/random.js";
import { CodexDemoWriter } from "./writer.js";

test.after(removeTempDirs);

type Json = Record<string, unknown>;
const NOW = Date.parse("2027-03-01T12:00:00.000Z");
const CWD = "/home/op/projects/acme-status";

function install(): string {
  const inst = installDemoState(join(makeTempDir(), "demo", "openclaw-state"), { now: NOW });
  return join(copyDir(inst, "codex") as string, ".codex");
}

function rollouts(home: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (e.name.endsWith(".jsonl")) out.push(join(d, e.name));
    }
  };
  walk(join(home, "sessions"));
  return out.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
}

const parse = (text: string): Json[] =>
  text
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Json);

const payload = (l: Json): Json => l.payload as Json;
const mine = (home: string): string[] => rollouts(home).filter((f) => payload(parse(readFileSync(f, "utf8"))[0] as Json).cwd === CWD);

function events(home: string, file: string): ActivityEvent[] {
  const opened = openCodexReader({ provider: "codex", id: "codex:default", localId: "default", name: "default", tags: [], dir: home });
  if (!opened.ok) throw opened.error;
  try {
    const refs = opened.value.listTranscripts();
    if (!refs.ok) throw refs.error;
    const ref = refs.value.find((r) => file.includes(r.id));
    assert.ok(ref, `${file} is listed`);
    const b = opened.value.readTranscript(ref, null, 100_000);
    if (!b.ok) throw b.error;
    assert.equal(b.warnings, []);
    return b.value.events;
  } finally {
    opened.value.close();
  }
}

/** The format's counting rule held over a whole rollout: records, their sums and every token_count total agree. */
function assertConsistent(file: string): void {
  let thread = 0;
  const turns = new Map<string, number>();
  const ids = new Set<string>();
  let ordinal = -1;
  for (const l of parse(readFileSync(file, "utf8"))) {
    assert.is(l.ordinal, ordinal + 1, "ordinals count on");
    ordinal = l.ordinal as number;
    const p = payload(l);
    if (l.type === "token_usage_record") {
      assert.not.ok(ids.has(String(p.response_id)));
      ids.add(String(p.response_id));
      const u = p.usage as Record<string, number>;
      assert.is(u.total_tokens, (u.input_tokens ?? NaN) + (u.output_tokens ?? NaN));
      thread += u.total_tokens ?? NaN;
      turns.set(String(p.turn_id), (turns.get(String(p.turn_id)) ?? 0) + (u.total_tokens ?? NaN));
      assert.is((p.thread_token_usage as Json).total_tokens, thread);
      assert.is((p.turn_token_usage as Json).total_tokens, turns.get(String(p.turn_id)));
    } else if (p.type === "token_count" && p.info) {
      assert.is(((p.info as Json).total_token_usage as Json).total_tokens, thread);
    }
  }
}

test("a step appends a resumed turn the real reader reads; records and totals agree", () => {
  const home = install();
  const file = mine(home)[0] as string;
  const before = readFileSync(file, "utf8");
  const old = parse(before);
  const writer = new CodexDemoWriter({ codexHome: home, random: seededRandom(4) });
  const at = NOW + 20_000;
  assert.equal(writer.step(at).wrote.length, 1);
  writer.close();
  const added = parse(readFileSync(file, "utf8").slice(before.length));
  const kinds = added.map((l) => (l.type === "event_msg" ? String(payload(l).type) : String(l.type)));
  assert.is(kinds[0], "thread_settings_applied", "a resumed turn starts as Codex resumes one");
  assert.is(kinds[1], "task_started");
  assert.is(kinds[kinds.length - 1], "task_complete");
  for (const k of ["turn_context", "token_usage_record", "token_count", "item_completed", "response_item"]) assert.ok(kinds.includes(k), k);
  assert.is(added[0]?.ordinal, (old[old.length - 1]?.ordinal as number) + 1);
  for (const l of added) assert.ok(Date.parse(String(l.timestamp)) <= at && Date.parse(String(l.timestamp)) > at - 30_000, String(l.timestamp));
  const started = payload(added[1] as Json).started_at as number;
  assert.ok(started * 1000 <= at && started * 1000 > at - 30_000, "task_started's unix seconds");
  assertConsistent(file);

  const evs = events(home, file).filter((e) => e.pos >= Buffer.byteLength(before));
  assert.is(evs.filter((e) => e.kind === "prompt").length, 1);
  const records = added.filter((l) => l.type === "token_usage_record");
  assert.equal(
    evs.filter((e) => e.kind === "response").map((e) => (e.kind === "response" ? e.key : null)),
    records.map((l) => payload(l).response_id),
  );
  assert.ok(evs.some((e) => e.kind === "rateLimits"));
});

test("a rollout cut off mid-line (a crash) is continued: the broken line is passed over, the new lines stay whole", () => {
  const home = install();
  const file = mine(home)[0] as string;
  const last = parse(readFileSync(file, "utf8")).pop() as Json;
  appendFileSync(file, '{"timestamp":"2027-03-01T11:59:00.000Z","ordinal":');
  new CodexDemoWriter({ codexHome: home, random: seededRandom(12) }).step(NOW + 10_000);
  const lines = readFileSync(file, "utf8").split("\n").filter((l) => l !== "");
  const broken = lines.findIndex((l) => l.endsWith('"ordinal":'));
  assert.ok(broken >= 0 && broken < lines.length - 1);
  const added = lines.slice(broken + 1).map((l) => JSON.parse(l) as Json);
  assert.is(added[0]?.ordinal, (last.ordinal as number) + 1, "ordinals go on from the last whole line");
  assert.is(payload(added[added.length - 1] as Json).type, "task_complete");
});

test("rate limits inch up inside the window, stay below the warning level, and start again after a reset", () => {
  const home = install();
  const writer = new CodexDemoWriter({ codexHome: home, random: seededRandom(9) });
  const limits = (): Json[] =>
    rollouts(home)
      .flatMap((f) => parse(readFileSync(f, "utf8")))
      .filter((l) => payload(l).type === "token_count" && payload(l).info)
      .sort((a, b) => Date.parse(String(a.timestamp)) - Date.parse(String(b.timestamp)))
      .map((l) => payload(l).rate_limits as Json);
  const startWindow = (limits().pop() as Json).primary as Json;
  let t = NOW;
  for (let i = 0; i < 200; i++) writer.step((t += 10_000));
  const seen = limits().filter((rl) => (rl.primary as Json).resets_at === startWindow.resets_at);
  const used = seen.map((rl) => (rl.primary as Json).used_percent as number);
  for (let i = 1; i < used.length; i++) assert.ok((used[i] as number) >= (used[i - 1] as number), "rising");
  assert.ok((used[used.length - 1] as number) > (startWindow.used_percent as number), "it moved");
  assert.ok((used[used.length - 1] as number) < 80, `still below the warning level after 200 turns: ${used[used.length - 1]}`);

  // Past the window's reset: the next response opens a new window that resets later than now.
  t = (startWindow.resets_at as number) * 1000 + 60_000;
  writer.step(t);
  const latest = (limits().pop() as Json).primary as Json;
  assert.ok((latest.resets_at as number) * 1000 > t, "a new window");
  assert.ok((latest.used_percent as number) < 10, `starts low: ${String(latest.used_percent)}`);
  for (const f of mine(home)) assertConsistent(f);
});

test("the windows never rise fast enough to project full before their reset (the half-hour projection's rule, from its first minutes on)", () => {
  const home = install();
  const writer = new CodexDemoWriter({ codexHome: home, random: seededRandom(4) });
  let t = NOW;
  for (let i = 0; i < 400; i++) writer.step((t += 6_000));
  const readings = rollouts(home)
    .flatMap((f) => parse(readFileSync(f, "utf8")))
    .filter((l) => payload(l).type === "token_count" && payload(l).info && Date.parse(String(l.timestamp)) > NOW)
    .map((l) => ({ at: Date.parse(String(l.timestamp)), rl: payload(l).rate_limits as Json }))
    .sort((a, b) => a.at - b.at);
  assert.ok(readings.length > 100, `the writer wrote readings: ${readings.length}`);
  for (const slot of ["primary", "secondary"] as const) {
    const w = readings.map((r) => ({ at: r.at, used: (r.rl[slot] as Json).used_percent as number, resets: ((r.rl[slot] as Json).resets_at as number) * 1000 }));
    assert.ok(w[w.length - 1]!.used > w[0]!.used || slot === "secondary", `${slot} moved: ${w[0]!.used} -> ${w[w.length - 1]!.used}`);
    // The projection: the rise from any reading of the last 30 minutes (at least 5 minutes back,
    // same window) to this one, carried on to the reset.
    for (let i = 0; i < w.length; i++) {
      const b = w[i]!;
      for (let j = 0; j < i; j++) {
        const a = w[j]!;
        const span = b.at - a.at;
        if (span < 5 * 60_000 || span > 30 * 60_000 || a.resets !== b.resets) continue;
        const atReset = b.used + ((b.used - a.used) / span) * (b.resets - b.at);
        assert.ok(atReset < 100, `${slot} at ${new Date(b.at).toISOString()}: ${a.used} -> ${b.used} in ${span / 60_000} min projects ${atReset.toFixed(1)} % at the reset`);
      }
    }
  }
});

test("bounded: a new thread after turnsPerThread turns, named in local time; only keepThreads of the project kept; maxTurnsPerDay", () => {
  const home = install();
  const others = rollouts(home).filter((f) => !mine(home).includes(f));
  const writer = new CodexDemoWriter({ codexHome: home, random: seededRandom(7), turnsPerThread: 2, keepThreads: 2 });
  const threads = new Set<string>();
  for (let i = 0; i < 9; i++) threads.add(writer.step(NOW + i * 10_000).wrote[0] as string);
  assert.ok(threads.size >= 4, `${threads.size} threads`);
  const left = mine(home);
  assert.is(left.length, 2);
  assert.equal(rollouts(home).filter((f) => !left.includes(f)).sort(), others.sort(), "other projects' rollouts are left alone");
  const pad = (n: number): string => String(n).padStart(2, "0");
  for (const f of left) {
    const lines = parse(readFileSync(f, "utf8"));
    const meta = payload(lines[0] as Json);
    assert.is(lines[0]?.type, "session_meta");
    const d = new Date(String(meta.timestamp));
    const stamp = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}-${pad(d.getMinutes())}-${pad(d.getSeconds())}`;
    assert.ok(f.endsWith(`${d.getFullYear()}/${pad(d.getMonth() + 1)}/${pad(d.getDate())}/rollout-${stamp}-${String(meta.id)}.jsonl`), f);
    assertConsistent(f);
    assert.ok(events(home, f).filter((e) => e.kind === "prompt").length <= 2);
  }

  const capped = new CodexDemoWriter({ codexHome: install(), random: seededRandom(8), maxTurnsPerDay: 3 });
  assert.equal([0, 1, 2, 3, 4].map((i) => capped.step(NOW + i * 10_000).wrote.length), [1, 1, 1, 0, 0]);
});

test.run();
