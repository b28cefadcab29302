// The bundled Claude Code and Codex demo states (shared/demo/claude-code-home, codex-home, written
// by test/tools/demo/build-claude-code-demo.ts and build-codex-demo.ts) as installed: read with the real
// readers, demo content only, usage that adds up by each format's own rules, times moved to now,
// and Codex's rollout names in the local time. Runs in a zone far from UTC, so a name left in UTC
// cannot pass for local.
process.env.TZ = "Pacific/Auckland";

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Pricer } from "../pricing/pricer.js";
import { ClaudeCodeProvider } from "../providers/claude-code/provider.js";
import { CodexProvider } from "../providers/codex/provider.js";
import type { ActivityEvent, Provider, TranscriptRef } from "../providers/contract.js";
import { makeTempDir, removeTempDirs } from "../../test/helpers/openclaw-fixtures.js";
import { copyDir } from "../../test/helpers/demo-bundle.js";
import { installDemoState, type InstalledDemo } from "./install.js";

test.after(removeTempDirs);

type Json = Record<string, unknown>;
const NOW = Date.parse("2027-03-01T12:00:00.000Z");
const DAY = 86_400_000;
/** What the fake recordings wrote: test markers, the fake model and provider, the fixture machine. */
const MARKERS = [/@@[A-Z]+@@/, /\[\[[A-Z0-9]+(?::[^\]]*)?\]\]/, /fake/i, /fixture/i, /127\.0\.0\.1/, /webshop|infra-scripts|api-server|web-ui/];

function install(): InstalledDemo {
  return installDemoState(join(makeTempDir(), "demo", "openclaw-state"), { now: NOW });
}

function files(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) files(p, out);
    else out.push(p);
  }
  return out;
}

const jsonl = (file: string): Json[] =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Json);

interface Read {
  refs: TranscriptRef[];
  events: Map<string, ActivityEvent[]>;
  messages: Map<string, string>;
}

/** Every transcript of the provider's one install, through its real reader; no warnings allowed. */
function readAll(p: Provider): Read {
  const d = p.discover();
  assert.is(d.installs.length, 1, JSON.stringify(d));
  const opened = p.open(d.installs[0] as NonNullable<(typeof d.installs)[0]>);
  if (!opened.ok) throw opened.error;
  const reader = opened.value;
  try {
    const refs = reader.listTranscripts();
    if (!refs.ok) throw refs.error;
    assert.equal(refs.warnings, []);
    const events = new Map<string, ActivityEvent[]>();
    const messages = new Map<string, string>();
    for (const ref of refs.value) {
      const b = reader.readTranscript(ref, null, 100_000);
      if (!b.ok) throw b.error;
      assert.equal(b.warnings, [], ref.id);
      assert.ok(b.value.done);
      events.set(ref.id, b.value.events);
      const m = reader.readMessages(ref);
      if (!m.ok) throw m.error;
      messages.set(ref.id, JSON.stringify(m.value.messages));
    }
    return { refs: refs.value, events, messages };
  } finally {
    reader.close();
  }
}

function assertClean(dir: string): void {
  for (const f of files(dir)) {
    assert.not.ok(f.endsWith(".key"), `${f}: no secrets in the bundle`);
    const text = readFileSync(f, "utf8");
    for (const re of MARKERS) assert.not.match(text, re, `${f} holds ${String(re)}`);
    for (const m of text.matchAll(/"(\/[a-z][^"]*)"/g)) {
      const path = m[1] as string;
      if (/^\/(home|root|Users|var|run|srv|opt|tmp)\//.test(path)) assert.ok(path.startsWith("/home/op/"), `${f}: ${path} is not a demo path`);
    }
  }
}

test("Claude Code: the real reader reads every transcript without a warning; demo content only", () => {
  const inst = install();
  assert.ok(copyDir(inst, "claude-code"));
  const home = copyDir(inst, "claude-code") as string;
  assertClean(home);
  const pricer = new Pricer();
  const { refs, events, messages } = readAll(new ClaudeCodeProvider({ env: {}, home, dirs: [join(home, ".claude")], pricer }));
  assert.ok(refs.length >= 6, `${refs.length} transcripts`);
  assert.ok(refs.some((r) => r.parentKey !== null), "a sub-agent");
  const all = [...events.values()].flat();
  const projects = new Set(all.flatMap((e) => (e.kind === "meta" && e.patch.project ? [e.patch.project] : [])));
  assert.ok(projects.size >= 3, [...projects].join(", "));
  const responses = all.filter((e): e is Extract<ActivityEvent, { kind: "response" }> => e.kind === "response");
  assert.equal([...new Set(responses.map((r) => r.model))].sort(), ["claude-haiku-4-5-20251001", "claude-sonnet-4-5-20250929"]);
  for (const r of responses) {
    assert.ok(r.usage && r.usage.output > 0 && r.usage.cacheRead > 0, "realistic usage");
    assert.ok(!("unpriced" in pricer.priceUsage(r.model as string, { inputTokens: 1, cacheReadTokens: 0, cacheWrite5mTokens: 0, cacheWrite1hTokens: 0, outputTokens: 1 })), `${r.model} is priced`);
  }
  const incidents = all.filter((e) => e.kind === "incident");
  assert.ok(incidents.some((e) => e.kind === "incident" && e.type === "warning" && e.code === "retry"), "retried API errors");
  assert.ok(incidents.some((e) => e.kind === "incident" && e.type === "error"), "the API error that ended a turn");
  assert.ok([...events.values()].some((ev) => ev.filter((e) => e.kind === "prompt").length >= 2), "a resumed session");
  for (const e of all) if (e.ts !== null) assert.ok(e.ts > NOW - DAY && e.ts <= NOW, `${e.kind} at ${new Date(e.ts).toISOString()}`);
  for (const text of messages.values()) for (const bad of ["@@", "[[", "FAKE"]) assert.not.ok(text.includes(bad), bad);
  assert.ok([...messages.values()].some((t) => t.includes("Demo:")), "the prompts say it is a demo");
});

test("Claude Code: one response's lines carry one usage; keys are unique; cost-state is what the responses cost at list price", () => {
  const home = copyDir(install(), "claude-code") as string;
  const pricer = new Pricer();
  const usageByKey = new Map<string, string>();
  const fileOfKey = new Map<string, string>();
  const transcripts = files(join(home, ".claude", "projects")).filter((f) => f.endsWith(".jsonl"));
  const priced = new Map<string, number>();
  for (const f of transcripts) {
    let cost = 0;
    for (const l of jsonl(f)) {
      const m = l.message as Json | undefined;
      if (l.type !== "assistant" || !m || m.model === "<synthetic>") continue;
      const key = `${String(m.id)}|${String(l.requestId)}`;
      const usage = JSON.stringify(m.usage);
      if (usageByKey.has(key)) {
        assert.is(usage, usageByKey.get(key), `every line of ${key} repeats the same usage`);
        assert.is(fileOfKey.get(key), f, `${key} is in one file only`);
        continue;
      }
      usageByKey.set(key, usage);
      fileOfKey.set(key, f);
      const u = m.usage as Record<string, number>;
      const r = pricer.priceUsage(String(m.model), { inputTokens: u.input_tokens ?? NaN, outputTokens: u.output_tokens ?? NaN, cacheReadTokens: u.cache_read_input_tokens ?? NaN, cacheWrite5mTokens: u.cache_creation_input_tokens ?? NaN, cacheWrite1hTokens: 0 }, { at: Date.parse(String(l.timestamp)) });
      assert.ok(!("unpriced" in r));
      if (!("unpriced" in r)) cost += r.costUsd;
    }
    priced.set(f, cost);
  }
  assert.ok(usageByKey.size >= 12, `${usageByKey.size} responses`);
  for (const f of transcripts.filter((x) => !x.includes("/subagents/"))) {
    const states = jsonl(f).filter((l) => l.type === "cost-state");
    assert.ok(states.length > 0, f);
    const last = states[states.length - 1] as Json;
    // Claude Code's own running cost counts the session's sub-agents too.
    const subs = transcripts.filter((x) => x.startsWith(f.replace(/\.jsonl$/, "/")));
    const expected = (priced.get(f) ?? 0) + subs.reduce((n, s) => n + (priced.get(s) ?? 0), 0);
    assert.ok(Math.abs((last.totalCostUSD as number) - expected) < 1e-6, `${f}: cost-state ${String(last.totalCostUSD)}, responses ${expected}`);
  }
});

test("Codex: the real reader reads every rollout without a warning; demo content only; the scenario's turns are there", () => {
  const inst = install();
  assert.ok(copyDir(inst, "codex"));
  const home = copyDir(inst, "codex") as string;
  assertClean(home);
  const pricer = new Pricer();
  const { refs, events, messages } = readAll(new CodexProvider({ env: {}, home, dirs: [join(home, ".codex")], pricer }));
  assert.ok(refs.length >= 7, `${refs.length} threads`);
  const all = [...events.values()].flat();
  const patches = all.flatMap((e) => (e.kind === "meta" ? [e.patch] : []));
  assert.ok(new Set(patches.flatMap((p) => (p.project ? [p.project] : []))).size >= 3, "three projects");
  assert.ok(patches.some((p) => p.origin === "vscode"), "a TUI thread (source vscode)");
  const responses = all.filter((e): e is Extract<ActivityEvent, { kind: "response" }> => e.kind === "response");
  assert.equal([...new Set(responses.map((r) => r.model))].sort(), ["gpt-5-codex", "gpt-5-mini"]);
  for (const r of responses) assert.ok(!("unpriced" in pricer.priceUsage(r.model as string, { inputTokens: 1, cacheReadTokens: 0, cacheWrite5mTokens: 0, cacheWrite1hTokens: 0, outputTokens: 1 })), `${r.model} is priced`);
  const incidents = all.flatMap((e) => (e.kind === "incident" ? [e] : []));
  assert.ok(incidents.some((e) => e.type === "error" && e.code === "internal_server_error"), "a failed turn");
  assert.ok(incidents.some((e) => e.type === "warning" && e.code === "usage_limit_exceeded"), "a 429");
  assert.ok(all.some((e) => e.kind === "rateLimits" && e.snapshot.primary?.usedPercent === 100), "the 429's token_count shows the limit");
  assert.ok([...events.values()].some((ev) => ev.filter((e) => e.kind === "prompt").length >= 2), "a resumed thread");
  for (const e of all) if (e.ts !== null) assert.ok(e.ts > NOW - DAY && e.ts <= NOW, `${e.kind} at ${new Date(e.ts).toISOString()}`);
  for (const text of messages.values()) for (const bad of ["@@", "[[", "FAKE"]) assert.not.ok(text.includes(bad), bad);
});

test("Codex: records add up to every token_count total and the thread sums; rate limits rise in a window and are current", () => {
  const home = copyDir(install(), "codex") as string;
  const rollouts = files(join(home, ".codex", "sessions")).filter((f) => f.endsWith(".jsonl"));
  const samples: Array<{ ts: number; primary: Json; secondary: Json; info: boolean }> = [];
  const responseIds = new Set<string>();
  for (const f of rollouts) {
    let thread = 0;
    const turns = new Map<string, number>();
    for (const l of jsonl(f)) {
      const p = l.payload as Json;
      const ts = Date.parse(String(l.timestamp));
      if (l.type === "token_usage_record") {
        assert.not.ok(responseIds.has(String(p.response_id)), "response ids are unique");
        responseIds.add(String(p.response_id));
        const u = p.usage as Record<string, number>;
        assert.is(u.total_tokens, (u.input_tokens ?? NaN) + (u.output_tokens ?? NaN));
        assert.ok((u.cached_input_tokens ?? 0) <= (u.input_tokens ?? 0) && (u.reasoning_output_tokens ?? 0) <= (u.output_tokens ?? 0));
        thread += u.total_tokens ?? NaN;
        const turn = (turns.get(String(p.turn_id)) ?? 0) + (u.total_tokens ?? NaN);
        turns.set(String(p.turn_id), turn);
        assert.is((p.thread_token_usage as Json).total_tokens, thread, `${f}: thread sum`);
        assert.is((p.turn_token_usage as Json).total_tokens, turn, `${f}: turn sum`);
      } else if (l.type === "event_msg" && p.type === "token_count") {
        const info = p.info as Json | null;
        if (info) assert.is((info.total_token_usage as Json).total_tokens, thread, `${f}: token_count's cumulative total`);
        const rl = p.rate_limits as Json;
        samples.push({ ts, primary: rl.primary as Json, secondary: rl.secondary as Json, info: info !== null });
      } else if (l.type === "event_msg" && (p.type === "task_started" || p.type === "task_complete")) {
        // Unix seconds moved with the line times.
        const s = (p.type === "task_started" ? p.started_at : p.completed_at) as number;
        assert.ok(Math.abs(s * 1000 - ts) < 15_000, `${p.type} ${s} vs ${l.timestamp as string}`);
      }
    }
  }
  samples.sort((a, b) => a.ts - b.ts);
  for (let i = 1; i < samples.length; i++) {
    const [a, b] = [samples[i - 1], samples[i]] as [(typeof samples)[0], (typeof samples)[0]];
    if (a.primary.resets_at === b.primary.resets_at) assert.ok((b.primary.used_percent as number) >= (a.primary.used_percent as number), "primary rises within its window");
    else assert.ok((b.primary.resets_at as number) * 1000 > a.ts && (a.primary.resets_at as number) * 1000 <= b.ts, "a new window only after the old one reset");
    assert.ok((b.secondary.used_percent as number) >= (a.secondary.used_percent as number), "the weekly window rises");
  }
  const latest = samples[samples.length - 1] as (typeof samples)[0];
  assert.ok(latest.info && NOW - latest.ts < 3_600_000, "the latest figures are from the last hour");
  assert.ok((latest.primary.resets_at as number) * 1000 > NOW, "and their window has not reset yet");
  assert.ok((latest.primary.used_percent as number) < 80, "the demo ends below the warning level");
});

test("Codex: rollouts are named and filed in the local time of their creation", () => {
  const home = copyDir(install(), "codex") as string;
  const fmt = new Intl.DateTimeFormat("en-CA", { timeZone: "Pacific/Auckland", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" });
  const rollouts = files(join(home, ".codex", "sessions")).filter((f) => f.endsWith(".jsonl"));
  assert.ok(rollouts.length >= 7);
  for (const f of rollouts) {
    const meta = (jsonl(f)[0] as Json).payload as Json;
    const parts = Object.fromEntries(fmt.formatToParts(new Date(String(meta.timestamp))).map((p) => [p.type, p.value]));
    const expected = `sessions/${parts.year}/${parts.month}/${parts.day}/rollout-${parts.year}-${parts.month}-${parts.day}T${parts.hour}-${parts.minute}-${parts.second}-${String(meta.id)}.jsonl`;
    assert.ok(f.endsWith(expected), `${f} should end with ${expected}`);
  }
  // history.jsonl's unix seconds moved too.
  for (const h of jsonl(join(home, ".codex", "history.jsonl"))) assert.ok((h.ts as number) * 1000 > NOW - DAY && (h.ts as number) * 1000 <= NOW);
});

test.run();
