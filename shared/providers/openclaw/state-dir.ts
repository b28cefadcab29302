// Where OpenClaw keeps its state, what its config says, and which agents exist there.
// Everything environment-dependent (env vars, home dir) is a parameter so tests stay hermetic.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import JSON5 from "json5";
import { SourceError, classifyIoError, fail, ok } from "../result.js";
import type { SourceResult, SourceWarning } from "../result.js";
import { readRegularFile } from "../../base/safe-open.js";

export const DEFAULT_GATEWAY_PORT = 18789;

/** The environment variables this module reads. */
export interface OpenClawEnv {
  OPENCLAW_STATE_DIR?: string | undefined;
  OPENCLAW_CONFIG_PATH?: string | undefined;
  OPENCLAW_GATEWAY_PORT?: string | undefined;
  HOME?: string | undefined;
}

interface StateDirOptions {
  /** Wins over the environment (e.g. `--openclaw-dir`). */
  stateDir?: string | undefined;
  env?: OpenClawEnv;
  /** Used when env.HOME is unset. */
  homeDir?: () => string;
}

/** Which storage generation an agent's sessions use (see openclaw-formats.md §2b/§2c). */
type AgentEra = "sqlite" | "files" | "none";

interface AgentInfo {
  id: string;
  /** Config name (`agents.entries.<id>.name` or `agents.list[].name`), else the id. */
  name: string;
  era: AgentEra;
  /** `agents/<id>` under the state dir (may not exist for a config-only agent). */
  dir: string;
  /** `agents/<id>/agent/openclaw-agent.sqlite`. */
  dbPath: string;
  /** `agents/<id>/sessions`. */
  sessionsDir: string;
  hasDir: boolean;
  inConfig: boolean;
}

/** Prices in USD per 1M tokens, as `models.providers.<p>.models[].cost` gives them. */
export interface ModelCost {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export interface ModelInfo {
  provider: string;
  id: string;
  name: string | null;
  /** Null when the config gives none (OpenClaw then uses its bundled catalog, which we do not have). */
  cost: ModelCost | null;
  contextWindow: number | null;
  maxTokens: number | null;
}

/** Models from the config, keyed `provider/model`; see `findModel`. */
export type ModelTable = ReadonlyMap<string, ModelInfo>;

export interface OpenClawState {
  stateDir: string;
  configPath: string;
  /** False when there is no config file (OpenClaw defaults apply). */
  configFound: boolean;
  /** The parsed config; `{}` when there is none. */
  config: Record<string, unknown>;
  gatewayPort: number;
  /** `logging.file`, absolute; null means OpenClaw's default `/tmp/openclaw/openclaw-YYYY-MM-DD.log`. */
  logFile: string | null;
  agents: AgentInfo[];
  models: ModelTable;
}

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function nonEmpty(v: string | undefined): string | undefined {
  return v !== undefined && v.trim() !== "" ? v : undefined;
}

function homeOf(opts: StateDirOptions): string {
  return nonEmpty(opts.env?.HOME) ?? (opts.homeDir ?? os.homedir)();
}

function expandHome(p: string, home: string): string {
  if (p === "~") return home;
  if (p.startsWith("~/")) return path.join(home, p.slice(2));
  return p;
}

/** Explicit argument > OPENCLAW_STATE_DIR > `$HOME/.openclaw`; always absolute. */
export function resolveStateDir(opts: StateDirOptions = {}): string {
  const env = opts.env ?? process.env;
  const home = homeOf({ ...opts, env });
  const chosen = nonEmpty(opts.stateDir) ?? nonEmpty(env.OPENCLAW_STATE_DIR) ?? path.join(home, ".openclaw");
  return path.resolve(expandHome(chosen, home));
}

/** OPENCLAW_CONFIG_PATH > `<stateDir>/openclaw.json`. */
export function resolveConfigPath(stateDir: string, opts: StateDirOptions = {}): string {
  const env = opts.env ?? process.env;
  const override = nonEmpty(env.OPENCLAW_CONFIG_PATH);
  if (override) return path.resolve(stateDir, expandHome(override, homeOf({ ...opts, env })));
  return path.join(stateDir, "openclaw.json");
}

/** Reads a JSON5 config file. A missing file is `ok(null)`: OpenClaw runs on defaults then. */
export function readConfigFile(configPath: string): SourceResult<Json | null> {
  let text: string;
  try {
    text = readRegularFile(configPath).toString("utf8");
  } catch (err) {
    if ((err as { code?: unknown }).code === "ENOENT") return ok(null);
    return fail(classifyIoError(err, configPath));
  }
  let parsed: unknown;
  try {
    parsed = JSON5.parse(text);
  } catch (err) {
    return fail(new SourceError("corrupt", `${configPath}: not valid JSON5 (${(err as Error).message})`, { where: configPath }, { cause: err }));
  }
  if (!isObject(parsed)) return fail(new SourceError("corrupt", `${configPath}: top level is not an object`, { where: configPath }));
  return ok(parsed);
}

function getPath(obj: Json, keys: readonly string[]): unknown {
  let cur: unknown = obj;
  for (const k of keys) {
    if (!isObject(cur)) return undefined;
    cur = cur[k];
  }
  return cur;
}

function validPort(v: unknown): number | null {
  const n = typeof v === "string" && /^\d+$/.test(v.trim()) ? Number(v) : v;
  return typeof n === "number" && Number.isInteger(n) && n >= 1 && n <= 65535 ? n : null;
}

/** OPENCLAW_GATEWAY_PORT > `gateway.port` > 18789. A bad value is a warning and falls through. */
export function gatewayPort(config: Json, env: OpenClawEnv, warnings: SourceWarning[] = [], where = "openclaw.json"): number {
  const fromEnv = nonEmpty(env.OPENCLAW_GATEWAY_PORT);
  if (fromEnv !== undefined) {
    const p = validPort(fromEnv);
    if (p !== null) return p;
    warnings.push({ code: "BAD_FIELD", message: `OPENCLAW_GATEWAY_PORT=${JSON.stringify(fromEnv)} is not a port; ignored`, where: "env" });
  }
  const fromConfig = getPath(config, ["gateway", "port"]);
  if (fromConfig !== undefined) {
    const p = validPort(fromConfig);
    if (p !== null) return p;
    warnings.push({ code: "BAD_FIELD", message: `gateway.port=${JSON.stringify(fromConfig)} is not a port; ignored`, where });
  }
  return DEFAULT_GATEWAY_PORT;
}

/** `logging.file`, made absolute against the state dir (that is how the gateway resolves it). */
function logFileOf(config: Json, stateDir: string, home: string): string | null {
  const file = getPath(config, ["logging", "file"]);
  if (typeof file !== "string" || file.trim() === "") return null;
  return path.resolve(stateDir, expandHome(file, home));
}

function finiteOr(v: unknown, fallback: number): number {
  return typeof v === "number" && Number.isFinite(v) ? v : fallback;
}

function positiveOrNull(v: unknown): number | null {
  return typeof v === "number" && Number.isFinite(v) && v > 0 ? v : null;
}

/** `models.providers.<p>.models[]` with cost (USD per 1M tokens) and context window. */
export function modelTableOf(config: Json, warnings: SourceWarning[] = [], where = "openclaw.json"): Map<string, ModelInfo> {
  const table = new Map<string, ModelInfo>();
  const providers = getPath(config, ["models", "providers"]);
  if (!isObject(providers)) return table;
  for (const [provider, def] of Object.entries(providers)) {
    const models = isObject(def) ? def.models : undefined;
    if (!Array.isArray(models)) continue;
    for (const m of models) {
      if (!isObject(m) || typeof m.id !== "string") {
        warnings.push({ code: "BAD_FIELD", message: `models.providers.${provider}.models[] entry without an id; ignored`, where });
        continue;
      }
      // `cost: {}` means "inherit the catalog price" in OpenClaw, so only a non-empty object counts.
      const c = m.cost;
      const cost =
        isObject(c) && Object.keys(c).length > 0
          ? { input: finiteOr(c.input, 0), output: finiteOr(c.output, 0), cacheRead: finiteOr(c.cacheRead, 0), cacheWrite: finiteOr(c.cacheWrite, 0) }
          : null;
      table.set(`${provider}/${m.id}`, {
        provider,
        id: m.id,
        name: typeof m.name === "string" ? m.name : null,
        cost,
        contextWindow: positiveOrNull(m.contextWindow),
        maxTokens: positiveOrNull(m.maxTokens),
      });
    }
  }
  return table;
}

/**
 * Looks a model up by provider and id; without a provider (or when the pair is unknown) a model id
 * that only one provider defines still matches.
 */
export function findModel(table: ModelTable, provider: string | null | undefined, model: string | null | undefined): ModelInfo | null {
  if (!model) return null;
  if (provider) {
    const hit = table.get(`${provider}/${model}`);
    if (hit) return hit;
  }
  // Some entries store "provider/model" in `model` itself.
  const direct = table.get(model);
  if (direct) return direct;
  let only: ModelInfo | null = null;
  for (const info of table.values()) {
    if (info.id !== model) continue;
    if (only) return null; // ambiguous across providers
    only = info;
  }
  return only;
}

/** Agent display names from `agents.entries.<id>.name` and the legacy `agents.list[]`. */
function configAgentNames(config: Json): Map<string, string | null> {
  const names = new Map<string, string | null>();
  const list = getPath(config, ["agents", "list"]);
  if (Array.isArray(list)) {
    for (const a of list) {
      if (isObject(a) && typeof a.id === "string" && a.id !== "") names.set(a.id, typeof a.name === "string" && a.name !== "" ? a.name : null);
    }
  }
  // The keyed form is the current one, so it wins when both name an agent.
  const entries = getPath(config, ["agents", "entries"]);
  if (isObject(entries)) {
    for (const [id, a] of Object.entries(entries)) {
      const name = isObject(a) && typeof a.name === "string" && a.name !== "" ? a.name : null;
      names.set(id, name ?? names.get(id) ?? null);
    }
  }
  return names;
}

function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

/** Which era applies to one agent directory: the SQLite DB wins over a leftover sessions.json. */
export function agentEra(agentDir: string): AgentEra {
  if (isFile(path.join(agentDir, "agent", "openclaw-agent.sqlite"))) return "sqlite";
  if (isFile(path.join(agentDir, "sessions", "sessions.json"))) return "files";
  return "none";
}

/** Every directory under `agents/` plus every agent the config names, sorted by id. */
function listAgents(stateDir: string, config: Json, warnings: SourceWarning[] = []): AgentInfo[] {
  const agentsDir = path.join(stateDir, "agents");
  const dirs = new Set<string>();
  try {
    for (const d of fs.readdirSync(agentsDir, { withFileTypes: true })) {
      if (d.isDirectory() && !d.name.startsWith(".")) dirs.add(d.name);
    }
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") {
      warnings.push({ code: "BAD_ROW", message: `cannot list agents: ${(err as Error).message}`, where: agentsDir });
    }
  }
  const names = configAgentNames(config);
  const ids = [...new Set([...dirs, ...names.keys()])].sort();
  return ids.map((id) => {
    const dir = path.join(agentsDir, id);
    const hasDir = dirs.has(id);
    return {
      id,
      name: names.get(id) ?? id,
      era: hasDir ? agentEra(dir) : "none",
      dir,
      dbPath: path.join(dir, "agent", "openclaw-agent.sqlite"),
      sessionsDir: path.join(dir, "sessions"),
      hasDir,
      inConfig: names.has(id),
    };
  });
}

/**
 * Resolves the state dir and reads everything the monitor needs from it. A missing state dir or
 * an unparsable config is a SourceError; bad individual fields are warnings.
 */
export function readOpenClawState(opts: StateDirOptions = {}): SourceResult<OpenClawState> {
  const env = opts.env ?? process.env;
  const stateDir = resolveStateDir({ ...opts, env });
  try {
    if (!fs.statSync(stateDir).isDirectory()) {
      return fail(new SourceError("missing", `${stateDir}: not a directory`, { where: stateDir }));
    }
  } catch (err) {
    return fail(classifyIoError(err, stateDir));
  }
  const configPath = resolveConfigPath(stateDir, { ...opts, env });
  const read = readConfigFile(configPath);
  if (!read.ok) return fail(read.error);
  const config = read.value ?? {};
  const warnings: SourceWarning[] = [];
  const home = homeOf({ ...opts, env });
  return ok(
    {
      stateDir,
      configPath,
      configFound: read.value !== null,
      config,
      gatewayPort: gatewayPort(config, env, warnings, configPath),
      logFile: logFileOf(config, stateDir, home),
      agents: listAgents(stateDir, config, warnings),
      models: modelTableOf(config, warnings, configPath),
    },
    warnings,
  );
}
