// What the synthetic state dir will hold, decided up front and cheaply: agents, session keys of
// each kind, their windows (transcripts), each window's byte budget and time span. Events are made
// later, one session at a time, so a GB never sits in memory.
import type { Rng } from "./random.js";

export type Era = "sqlite" | "files";

export interface BuildParams {
  era: Era;
  agents: number;
  /** Session keys in total over all agents. */
  sessions: number;
  /** UTF-8 bytes of transcript event JSON in total (what the scanner has to read and parse). */
  bytes: number;
  seed: number;
}

export type SessionKind = "main" | "group" | "channel" | "cron" | "cron-failed" | "subagent";

export interface ModelChoice {
  provider: string;
  id: string;
  api: string;
  /** USD per 1M tokens, as in openclaw.json. */
  cost: { input: number; output: number; cacheRead: number; cacheWrite: number };
  contextWindow: number;
}

export interface WindowPlan {
  sessionId: string;
  /** session_windows.reason: null for the first window, as the fixture has it. */
  reason: "rollover" | "reset" | null;
  startMs: number;
  /** Planned span from the first to the last event. */
  spanMs: number;
  budgetBytes: number;
}

export interface SessionPlan {
  agentId: string;
  key: string;
  kind: SessionKind;
  channel: string | null;
  chatType: "direct" | "group" | "channel";
  createdVia: "run" | "channel" | "cron" | "spawn";
  label: string | null;
  parentKey: string | null;
  jobId: string | null;
  jobName: string | null;
  model: ModelChoice;
  /** Ends with a model failure (stopReason "error", status failed), as §10 of the formats doc describes. */
  failed: boolean;
  windows: WindowPlan[];
}

export interface AgentPlan {
  id: string;
  name: string;
  sessions: SessionPlan[];
}

const AGENT_IDS = ["main", "ops", "support", "research", "sales", "dev", "qa", "infra"];
const CHANNELS = ["telegram", "discord", "slack", "whatsapp", "signal"];
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Sessions spread over this many days before `now`; a third of them were active in the last 24 h. */
const SPREAD_DAYS = 7;
const RECENT_SHARE = 0.33;

export function agentIds(count: number): string[] {
  return Array.from({ length: count }, (_, i) => AGENT_IDS[i] ?? `agent-${i + 1}`);
}

/** Uneven like real installs: the first agent does the most work. */
function agentShares(count: number): number[] {
  const w = Array.from({ length: count }, (_, i) => 1 / (1 + i * 0.35));
  const sum = w.reduce((a, b) => a + b, 0);
  return w.map((x) => x / sum);
}

function kindOf(rng: Rng, index: number): SessionKind {
  if (index === 0) return "main";
  const r = rng.next();
  if (r < 0.12) return "cron";
  if (r < 0.15) return "cron-failed";
  if (r < 0.3) return "subagent";
  if (r < 0.45) return "channel";
  return "group";
}

function windowCount(rng: Rng, kind: SessionKind): number {
  switch (kind) {
    case "main":
      return rng.int(3, 6); // daily rollovers
    case "cron":
      return rng.int(2, 8); // one window per isolated run under the job's key
    case "group":
    case "channel":
      return rng.chance(0.2) ? 2 : 1; // an occasional /reset
    default:
      return 1;
  }
}

/** Sessions per agent, at least one each, summing to `total`. */
function splitSessions(total: number, shares: number[]): number[] {
  const counts = shares.map((s) => Math.max(1, Math.floor(s * total)));
  let diff = total - counts.reduce((a, b) => a + b, 0);
  for (let i = 0; diff !== 0; i = (i + 1) % counts.length) {
    if (diff > 0) {
      counts[i] = (counts[i] as number) + 1;
      diff--;
    } else if ((counts[i] as number) > 1) {
      counts[i] = (counts[i] as number) - 1;
      diff++;
    }
  }
  return counts;
}

export function planState(params: BuildParams, rng: Rng, models: readonly ModelChoice[], now: number): AgentPlan[] {
  if (params.sessions < params.agents) throw new RangeError(`--sessions ${params.sessions} is below --agents ${params.agents}`);
  const ids = agentIds(params.agents);
  const counts = splitSessions(params.sessions, agentShares(params.agents));
  const weights: number[] = [];
  const agents: AgentPlan[] = ids.map((id, a) => {
    const sessions: SessionPlan[] = [];
    const parents: string[] = [];
    for (let i = 0; i < (counts[a] as number); i++) {
      const kind = kindOf(rng, i);
      const channel = kind === "group" || kind === "channel" ? rng.pick(CHANNELS) : null;
      const jobId = kind === "cron" || kind === "cron-failed" ? rng.uuid() : null;
      const jobName = jobId ? `${rng.pick(["daily", "hourly", "weekly", "nightly"])}-${rng.pick(["digest", "report", "sync", "cleanup", "check", "backup"])}-${i}` : null;
      const firstId = rng.uuid();
      let key: string;
      switch (kind) {
        case "main":
          key = `agent:${id}:main`;
          break;
        case "group":
        case "channel":
          key = `agent:${id}:${channel}:${kind}:${rng.int(100000, 999999)}${i}`;
          break;
        case "cron":
          key = `agent:${id}:cron:${jobId}`;
          break;
        case "cron-failed":
          key = `agent:${id}:cron:${jobId}:run:${firstId}`;
          break;
        case "subagent":
          key = `agent:${id}:subagent:${rng.uuid()}`;
          break;
      }
      const parentKey = kind === "subagent" ? (parents.length ? rng.pick(parents) : `agent:${id}:main`) : null;
      if (kind === "main" || kind === "group" || kind === "channel") parents.push(key);
      const n = windowCount(rng, kind);
      // Weight of this session in the byte budget: log-normal spread, the main session is busier.
      const weight = rng.logNormal(1.0) * (kind === "main" ? 4 : kind === "cron-failed" ? 0.2 : 1);
      weights.push(weight);
      // Last activity: a third in the last 24 h, the rest over the days before.
      const endMs = rng.chance(RECENT_SHARE) ? now - rng.next() * 23 * HOUR - 60_000 : now - DAY - rng.next() * (SPREAD_DAYS - 1) * DAY;
      const gap = kind === "main" ? DAY : kind === "cron" ? rng.int(2, 12) * HOUR : rng.int(6, 48) * HOUR;
      const windows: WindowPlan[] = [];
      for (let w = 0; w < n; w++) {
        const spanMs = Math.min(gap * 0.8, rng.int(2, 180) * 60_000);
        const end = endMs - (n - 1 - w) * gap;
        windows.push({ sessionId: w === 0 ? firstId : rng.uuid(), reason: w === 0 ? null : kind === "main" ? "rollover" : "reset", startMs: Math.round(end - spanMs), spanMs, budgetBytes: 0 });
      }
      sessions.push({
        agentId: id,
        key,
        kind,
        channel,
        chatType: kind === "group" ? "group" : kind === "channel" ? "channel" : "direct",
        createdVia: kind === "main" ? "run" : kind === "subagent" ? "spawn" : kind === "group" || kind === "channel" ? "channel" : "cron",
        label: kind === "subagent" ? `subagent: ${jobLabel(rng)}` : jobName ? `Cron: ${jobName}` : null,
        parentKey,
        jobId,
        jobName,
        model: rng.pick(models),
        failed: kind === "cron-failed" || rng.chance(0.02),
        windows,
      });
    }
    return { id, name: id === "main" ? "Main" : id.charAt(0).toUpperCase() + id.slice(1), sessions };
  });
  // Hand out the byte budget by weight, split evenly over each session's windows.
  const totalWeight = weights.reduce((a, b) => a + b, 0);
  let k = 0;
  for (const agent of agents) {
    for (const s of agent.sessions) {
      const bytes = (params.bytes * (weights[k++] as number)) / totalWeight;
      for (const w of s.windows) w.budgetBytes = Math.round(bytes / s.windows.length);
    }
  }
  return agents;
}

function jobLabel(rng: Rng): string {
  return `${rng.pick(["research", "summarize", "triage", "draft", "review"])} ${rng.pick(["issue", "thread", "report", "changelog", "ticket"])}`;
}
