// Builds a synthetic OpenClaw state dir from the real fixture events, at benchmark scale: many
// agents, thousands of sessions, about a GB of transcript events, in either storage era. Built once
// per parameter set into .tmp/bench/ (git-ignored) and reused: a finished dir has manifest.json.
//
//   node --import tsx bench/synthetic-state.ts [--era sqlite|files] [--agents 8] [--sessions 10000] [--bytes 1g] [--seed 1] [--rebuild]
import * as fs from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { BENCH_TMP, REPO_ROOT } from "./paths.js";
import { EventGen } from "./synthetic/events.js";
import { planState, type BuildParams, type Era, type ModelChoice } from "./synthetic/plan.js";
import { Rng } from "./synthetic/random.js";
import { isJson, loadTemplates, type Json, type Templates } from "./synthetic/templates.js";
import { TextGen } from "./synthetic/text.js";
import { FilesAgentWriter } from "./synthetic/write-files.js";
import { emptyStats, SqliteAgentWriter, type AgentStats } from "./synthetic/write-sqlite.js";
import { createCompressor, type Compressor, type ZstdHow } from "./synthetic/zstd-batch.js";

/** Bump when the generator changes what it writes: old cached dirs are then rebuilt. */
const GENERATOR_VERSION = 2;


export interface Manifest {
  version: number;
  params: BuildParams;
  /** The dataset's "now": every event is older. Benchmarks run a clock anchored here. */
  now: number;
  builtAt: string;
  buildMs: number;
  /** How compressed rows were made (SQLite era only). */
  zstd: { how: ZstdHow; describe: string } | null;
  totals: AgentStats & { diskBytes: number };
  agents: Array<{ id: string } & AgentStats>;
  /** A busy session to append to in the incremental benchmark, and a real assistant event to clone. */
  target: { agentId: string; sessionKey: string; sessionId: string; assistantEventJson: string };
}

export interface SyntheticState {
  dir: string;
  manifest: Manifest;
  cached: boolean;
}

export const DEFAULT_PARAMS: BuildParams = { era: "sqlite", agents: 8, sessions: 10_000, bytes: 1e9, seed: 1 };

/** "1g", "20m", "512k" or a plain number of bytes (decimal units: 1g = 10^9). */
export function parseSize(text: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*([kmg]?)b?$/i.exec(text.trim());
  if (!m) throw new RangeError(`not a size: ${JSON.stringify(text)} (e.g. 1g, 20m, 500000)`);
  const unit = { "": 1, k: 1e3, m: 1e6, g: 1e9 }[(m[2] ?? "").toLowerCase()] ?? 1;
  return Math.round(Number(m[1]) * unit);
}

export function parseEra(text: string): Era {
  if (text === "sqlite" || text === "files") return text;
  throw new RangeError(`--era must be sqlite or files, not ${JSON.stringify(text)}`);
}

export function cacheDir(p: BuildParams): string {
  return path.join(BENCH_TMP, `state-${p.era}-a${p.agents}-s${p.sessions}-b${p.bytes}-seed${p.seed}-v${GENERATOR_VERSION}`);
}

/** The fixture's model plus two price tiers of it and a second provider, so usage spreads over models. */
function modelChoices(config: Json): { models: ModelChoice[]; providers: Json } {
  const providers = isJson(config.models) && isJson(config.models.providers) ? config.models.providers : {};
  const [providerId, provider] = Object.entries(providers).find((kv): kv is [string, Json] => isJson(kv[1])) ?? [];
  const base = provider && Array.isArray(provider.models) ? provider.models.find(isJson) : undefined;
  if (!providerId || !provider || !base || !isJson(base.cost)) throw new Error("fixture openclaw.json has no provider model with a cost to copy");
  const cost = base.cost as ModelChoice["cost"];
  const scaled = (f: number): ModelChoice["cost"] => ({ input: cost.input * f, output: cost.output * f, cacheRead: cost.cacheRead * f, cacheWrite: cost.cacheWrite * f });
  const variants: Array<{ provider: string; id: string; cost: ModelChoice["cost"]; contextWindow: number }> = [
    { provider: providerId, id: String(base.id), cost, contextWindow: Number(base.contextWindow) || 128000 },
    { provider: providerId, id: `${String(base.id)}-mini`, cost: scaled(0.2), contextWindow: 128000 },
    { provider: providerId, id: `${String(base.id)}-pro`, cost: scaled(5), contextWindow: 200000 },
    { provider: `${providerId}-alt`, id: "alt-model", cost: scaled(0.8), contextWindow: 64000 },
  ];
  const api = typeof provider.api === "string" ? provider.api : "openai-completions";
  const outProviders: Json = {};
  for (const v of variants) {
    const p = (outProviders[v.provider] ??= { ...provider, models: [] }) as Json;
    (p.models as Json[]).push({ ...base, id: v.id, name: v.id, cost: v.cost, contextWindow: v.contextWindow });
  }
  return { models: variants.map((v) => ({ ...v, api })), providers: outProviders };
}

function dirBytes(dir: string): number {
  let total = 0;
  for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, d.name);
    total += d.isDirectory() ? dirBytes(p) : fs.statSync(p).size;
  }
  return total;
}

function build(params: BuildParams, dir: string, log: (msg: string) => void): Manifest {
  const started = Date.now();
  const now = Math.floor(started / 1000) * 1000;
  const t: Templates = loadTemplates();
  const work = `${dir}.partial-${process.pid}`;
  // Leftovers of builds that died (any pid) are never finished: drop them.
  const base = path.basename(dir);
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  for (const name of fs.readdirSync(path.dirname(dir))) if (name.startsWith(`${base}.partial-`)) fs.rmSync(path.join(path.dirname(dir), name), { recursive: true, force: true });
  fs.mkdirSync(path.join(work, "state"), { recursive: true });
  const { models, providers } = modelChoices(t.config);
  const plan = planState(params, new Rng(params.seed), models, now);
  const gen = new EventGen(params.era, params.era === "sqlite" ? t.sqlite.events : t.files.events, new Rng(params.seed + 2), new TextGen(new Rng(params.seed + 1), t.words), now);
  const compressor: Compressor | null = params.era === "sqlite" ? createCompressor() : null;
  if (compressor) log(`zstd: ${compressor.describe}`);

  const agents: Manifest["agents"] = [];
  const totalSessions = plan.reduce((a, p) => a + p.sessions.length, 0);
  let done = 0;
  let bytesDone = 0;
  let lastLog = Date.now();
  try {
    for (const agent of plan) {
      const agentDir = path.join(work, "agents", agent.id);
      // The compressor exists exactly in the SQLite era.
      const writer = compressor
        ? new SqliteAgentWriter(path.join(agentDir, "agent", "openclaw-agent.sqlite"), t.sqlite, agent.id, now, compressor)
        : new FilesAgentWriter(path.join(agentDir, "sessions"), path.join(dir, "agents", agent.id, "sessions"), t.files);
      for (const s of agent.sessions) {
        const windows = s.windows.map((w) => gen.window(s, w));
        writer.addSession(s, windows);
        done++;
        bytesDone += windows.reduce((a, w) => a + w.bytes, 0);
        if (Date.now() - lastLog > 5000) {
          lastLog = Date.now();
          log(`  ${done}/${totalSessions} sessions, ${(bytesDone / 1e6).toFixed(0)} MB of events (${((Date.now() - started) / 1000).toFixed(0)} s)`);
        }
      }
      agents.push({ id: agent.id, ...writer.finish() });
    }
  } finally {
    compressor?.close();
  }

  const config: Json = structuredClone(t.config);
  const agentsConfig: Json = isJson(config.agents) ? config.agents : {};
  agentsConfig.entries = Object.fromEntries(plan.map((a) => [a.id, { name: a.name, workspace: `./workspace-${a.id}` }]));
  config.agents = agentsConfig;
  config.models = { ...(isJson(config.models) ? config.models : {}), providers };
  fs.writeFileSync(path.join(work, "openclaw.json"), JSON.stringify(config, null, 2));
  fs.writeFileSync(path.join(work, "state", "openclaw.sqlite"), params.era === "sqlite" ? t.stateDb.sqlite : t.stateDb.files);

  const totals = agents.reduce<AgentStats>((acc, a) => {
    for (const k of Object.keys(acc) as (keyof AgentStats)[]) acc[k] += a[k];
    return acc;
  }, emptyStats());
  const first = plan[0]?.sessions[0];
  const lastWindow = first?.windows[first.windows.length - 1];
  if (!first || !lastWindow) throw new Error("empty plan");
  const manifest: Manifest = {
    version: GENERATOR_VERSION,
    params,
    now,
    builtAt: new Date(started).toISOString(),
    buildMs: Date.now() - started,
    zstd: compressor ? { how: compressor.how, describe: compressor.describe } : null,
    totals: { ...totals, diskBytes: dirBytes(work) },
    agents,
    target: {
      agentId: first.agentId,
      sessionKey: first.key,
      sessionId: lastWindow.sessionId,
      assistantEventJson: JSON.stringify(params.era === "sqlite" ? t.sqlite.events.assistant : t.files.events.assistant),
    },
  };
  // The manifest goes in last and the rename is atomic: a dir with a manifest is complete.
  fs.writeFileSync(path.join(work, "manifest.json"), JSON.stringify(manifest, null, 2));
  fs.rmSync(dir, { recursive: true, force: true });
  fs.renameSync(work, dir);
  return manifest;
}

function readManifest(dir: string): Manifest | null {
  try {
    const m = JSON.parse(fs.readFileSync(path.join(dir, "manifest.json"), "utf8")) as Manifest;
    return m.version === GENERATOR_VERSION ? m : null;
  } catch {
    return null;
  }
}

/** The cached dir for `params`, built first when missing (or when `rebuild`). Never modify it: copy it. */
export function ensureSyntheticState(params: BuildParams, opts: { rebuild?: boolean; log?: (msg: string) => void } = {}): SyntheticState {
  const log = opts.log ?? ((msg: string) => process.stderr.write(`${msg}\n`));
  const dir = cacheDir(params);
  const cached = opts.rebuild ? null : readManifest(dir);
  if (cached) return { dir, manifest: cached, cached: true };
  log(`building synthetic state dir ${path.relative(REPO_ROOT, dir)} (${params.era}, ${params.agents} agents, ${params.sessions} sessions, ${(params.bytes / 1e6).toFixed(0)} MB of events)`);
  const manifest = build(params, dir, log);
  log(`built in ${(manifest.buildMs / 1000).toFixed(1)} s: ${describeManifest(manifest)}`);
  return { dir, manifest, cached: false };
}

export function describeManifest(m: Manifest): string {
  const t = m.totals;
  const share = t.events ? ((100 * t.compressedRows) / t.events).toFixed(1) : "0";
  const byteShare = t.eventBytes ? ((100 * t.compressedRowBytes) / t.eventBytes).toFixed(1) : "0";
  return (
    `${m.params.era} era, ${m.agents.length} agents, ${t.sessions} sessions / ${t.windows} transcripts, ${t.events} events, ` +
    `${(t.eventBytes / 1e6).toFixed(0)} MB of event JSON, ${(t.diskBytes / 1e6).toFixed(0)} MB on disk` +
    (m.zstd ? `, ${t.compressedRows} zstd rows (${share}% of rows, ${byteShare}% of bytes; ${m.zstd.how})` : "")
  );
}

function main(): void {
  const { values } = parseArgs({
    options: {
      era: { type: "string", default: DEFAULT_PARAMS.era },
      agents: { type: "string", default: String(DEFAULT_PARAMS.agents) },
      sessions: { type: "string", default: String(DEFAULT_PARAMS.sessions) },
      bytes: { type: "string", default: "1g" },
      seed: { type: "string", default: String(DEFAULT_PARAMS.seed) },
      rebuild: { type: "boolean", default: false },
    },
  });
  const params: BuildParams = {
    era: parseEra(values.era),
    agents: Number(values.agents),
    sessions: Number(values.sessions),
    bytes: parseSize(values.bytes),
    seed: Number(values.seed),
  };
  const s = ensureSyntheticState(params, { rebuild: values.rebuild });
  process.stdout.write(`${s.cached ? "cached" : "built"}: ${path.relative(REPO_ROOT, s.dir)}\n${describeManifest(s.manifest)}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
