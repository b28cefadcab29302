// The Claude Code demo writer on an installed demo copy, checked with Claude Code's real reader
// (the one the daemon uses) and against the format's rules: what it appends reads back as a
// resumed turn, every line of a response repeats one usage, cost-state grows by what the new
// responses cost at the shipped prices, and the project does not grow without bound.
import { appendFileSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Pricer } from "../../../pricing/pricer.js";
import { openClaudeCodeReader } from "../reader.js";
import type { ActivityEvent } from "../../contract.js";
import { makeTempDir, removeTempDirs } from "../../../../test/helpers/openclaw-fixtures.js";
import { copyDir } from "../../../../test/helpers/demo-bundle.js";
import { installDemoState } from "../../../demo-replay/install.js";
import { seededRandom } from "../../../base/random.js";
import { ClaudeCodeDemoWriter } from "./writer.js";

test.after(removeTempDirs);

type Json = Record<string, unknown>;
const NOW = Date.parse("2027-03-01T12:00:00.000Z");
const PROJECT = "-home-op-code-acme-billing";

function install(): string {
  const inst = installDemoState(join(makeTempDir(), "demo", "openclaw-state"), { now: NOW });
  return join(copyDir(inst, "claude-code") as string, ".claude");
}

function transcripts(configDir: string): string[] {
  const dir = join(configDir, "projects", PROJECT);
  return readdirSync(dir)
    .filter((n) => n.endsWith(".jsonl"))
    .map((n) => join(dir, n))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
}

const parse = (text: string): Json[] =>
  text
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Json);

/** Every event of one transcript through the real reader; no warnings allowed. */
function events(configDir: string, file: string): ActivityEvent[] {
  const opened = openClaudeCodeReader({ provider: "claude-code", id: "claude-code:default", localId: "default", name: "default", tags: [], dir: configDir });
  if (!opened.ok) throw opened.error;
  try {
    const refs = opened.value.listTranscripts();
    if (!refs.ok) throw refs.error;
    const ref = refs.value.find((r) => file.endsWith(r.id));
    assert.ok(ref, `${file} is listed`);
    const b = opened.value.readTranscript(ref, null, 100_000);
    if (!b.ok) throw b.error;
    assert.equal(b.warnings, []);
    return b.value.events;
  } finally {
    opened.value.close();
  }
}

function priceOf(pricer: Pricer, line: Json): number {
  const m = line.message as Json;
  const u = m.usage as Record<string, number>;
  const r = pricer.priceUsage(String(m.model), { inputTokens: u.input_tokens ?? NaN, outputTokens: u.output_tokens ?? NaN, cacheReadTokens: u.cache_read_input_tokens ?? NaN, cacheWrite5mTokens: u.cache_creation_input_tokens ?? NaN, cacheWrite1hTokens: 0 }, { at: Date.parse(String(line.timestamp)) });
  if ("unpriced" in r) throw new Error(r.reason);
  return r.costUsd;
}

test("a step appends a resumed turn the real reader reads; one usage per response; cost-state grows by its price", () => {
  const configDir = install();
  const file = transcripts(configDir)[0] as string;
  const before = readFileSync(file, "utf8");
  const oldLines = parse(before);
  const oldCost = oldLines.filter((l) => l.type === "cost-state").pop() as Json;
  const oldLeaf = oldLines.filter((l) => l.type === "user" || l.type === "assistant").pop() as Json;
  const oldKeys = new Set(oldLines.filter((l) => l.type === "assistant").map((l) => `${String((l.message as Json).id)}|${String(l.requestId)}`));
  const writer = new ClaudeCodeDemoWriter({ configDir, random: seededRandom(4) });
  const at = NOW + 20_000;
  const step = writer.step(at);
  writer.close();
  assert.equal(step.wrote.length, 1);

  const added = parse(readFileSync(file, "utf8").slice(before.length));
  const types = added.map((l) => l.type);
  for (const t of ["queue-operation", "user", "attachment", "api-request-blob", "api-request", "assistant", "last-prompt", "cost-state"]) assert.ok(types.includes(t), `a turn writes ${t}: ${types.join(", ")}`);
  assert.is(types[0], "queue-operation");
  const prompt = added.find((l) => l.type === "user") as Json;
  assert.is(prompt.parentUuid, oldLeaf.uuid, "the prompt continues the conversation");
  assert.ok(((prompt.turnPosition as Json).turnIndex as number) > ((oldLines.filter((l) => l.turnPosition).pop()?.turnPosition as Json).turnIndex as number));
  for (const l of added) if (typeof l.timestamp === "string") assert.ok(Date.parse(l.timestamp) <= at && Date.parse(l.timestamp) > at - 30_000, `${String(l.type)} at ${l.timestamp}`);

  const byKey = new Map<string, Json[]>();
  for (const l of added.filter((x) => x.type === "assistant")) {
    const key = `${String((l.message as Json).id)}|${String(l.requestId)}`;
    assert.not.ok(oldKeys.has(key), "a new response key");
    byKey.set(key, [...(byKey.get(key) ?? []), l]);
  }
  assert.ok(byKey.size >= 1 && byKey.size <= 2);
  const pricer = new Pricer();
  let cost = 0;
  for (const lines of byKey.values()) {
    assert.equal(new Set(lines.map((l) => JSON.stringify((l.message as Json).usage))).size, 1, "every line of a response carries the same usage");
    cost += priceOf(pricer, lines[0] as Json);
  }
  const newCost = added.filter((l) => l.type === "cost-state").pop() as Json;
  assert.ok(Math.abs((newCost.totalCostUSD as number) - (oldCost.totalCostUSD as number) - cost) < 1e-6, `cost-state grew by ${(newCost.totalCostUSD as number) - (oldCost.totalCostUSD as number)}, the responses cost ${cost}`);
  assert.is(newCost.startTime, oldCost.startTime, "cost-state keeps the session's start");

  // The reader sees one more prompt and the new responses, at the step's time.
  const evs = events(configDir, file).filter((e) => e.pos >= Buffer.byteLength(before));
  assert.is(evs.filter((e) => e.kind === "prompt").length, 1);
  const responses = evs.filter((e): e is Extract<ActivityEvent, { kind: "response" }> => e.kind === "response");
  // The reader keys a response as `<message.id>:<requestId>`.
  assert.equal([...new Set(responses.map((r) => r.key))].sort(), [...byKey.keys()].map((k) => k.replace("|", ":")).sort());
  for (const r of responses) assert.ok(r.ts !== null && r.ts <= at && r.ts > at - 30_000);
});

test("a restarted writer goes on where the transcript ends", () => {
  const configDir = install();
  const file = transcripts(configDir)[0] as string;
  new ClaudeCodeDemoWriter({ configDir, random: seededRandom(5) }).step(NOW + 10_000);
  const mid = parse(readFileSync(file, "utf8"));
  const leaf = mid.filter((l) => l.type === "user" || l.type === "assistant").pop() as Json;
  const costMid = mid.filter((l) => l.type === "cost-state").pop() as Json;
  new ClaudeCodeDemoWriter({ configDir, random: seededRandom(6) }).step(NOW + 30_000);
  const after = parse(readFileSync(file, "utf8")).slice(mid.length);
  assert.is((after.find((l) => l.type === "user") as Json).parentUuid, leaf.uuid);
  const costAfter = after.filter((l) => l.type === "cost-state").pop() as Json;
  assert.ok((costAfter.totalCostUSD as number) > (costMid.totalCostUSD as number), "cost-state is cumulative over resumes");
});

test("a transcript cut off mid-line (a crash) is continued: the broken line is passed over, the new lines stay whole", () => {
  const configDir = install();
  const file = transcripts(configDir)[0] as string;
  const leaf = parse(readFileSync(file, "utf8")).filter((l) => l.type === "user" || l.type === "assistant").pop() as Json;
  appendFileSync(file, '{"type":"assistant","message":{"id":"msg_01cut');
  new ClaudeCodeDemoWriter({ configDir, random: seededRandom(11) }).step(NOW + 10_000);
  const lines = readFileSync(file, "utf8").split("\n").filter((l) => l !== "");
  const broken = lines.findIndex((l) => l.endsWith("msg_01cut"));
  assert.ok(broken >= 0 && broken < lines.length - 1, "the broken line stays as it was, on its own");
  const added = lines.slice(broken + 1).map((l) => JSON.parse(l) as Json);
  assert.is((added.find((l) => l.type === "user") as Json).parentUuid, leaf.uuid);
});

test("bounded: a new session after turnsPerSession turns, only keepSessions transcripts, maxTurnsPerDay a day", () => {
  const configDir = install();
  const writer = new ClaudeCodeDemoWriter({ configDir, random: seededRandom(7), turnsPerSession: 2, keepSessions: 2 });
  const sessions = new Set<string>();
  for (let i = 0; i < 9; i++) sessions.add(writer.step(NOW + i * 10_000).wrote[0] as string);
  assert.ok(sessions.size >= 4, `${sessions.size} sessions`);
  const left = transcripts(configDir);
  assert.is(left.length, 2, "only the newest two transcripts stay");
  const newest = parse(readFileSync(left[0] as string, "utf8"));
  assert.is(newest[0]?.type, "queue-operation");
  assert.is((newest.find((l) => l.type === "user") as Json).parentUuid, null, "a new session's first prompt has no parent");
  assert.ok(newest.some((l) => l.type === "attachment" && (l.attachment as Json).type === "environment"), "a new session opens with Claude Code's context");
  for (const f of left) {
    const evs = events(configDir, f);
    assert.ok(evs.filter((e) => e.kind === "prompt").length <= 2);
  }

  const capped = new ClaudeCodeDemoWriter({ configDir: install(), random: seededRandom(8), maxTurnsPerDay: 3 });
  const wrote = [0, 1, 2, 3, 4].map((i) => capped.step(NOW + i * 10_000).wrote.length);
  assert.equal(wrote, [1, 1, 1, 0, 0]);
});

test.run();
