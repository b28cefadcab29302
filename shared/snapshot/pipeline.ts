// One snapshot, start to finish, the same for the daemon (REST, MCP, the CLI through the control
// socket) and for `insightsctl snapshot` without a daemon: refresh each source within the collect
// timeout, read the card's inputs from the read model, build the card model and render it,
// stepping the detail down (full -> standard -> compact) while the output is over the size limit.
import type { Clock } from "../base/clock.js";
import { errorMessage, InsightsError } from "../base/errors.js";
import { MAX_EVENT_LIMIT } from "../queries/events.js";
import { isGatewaySystem, type AnySystemView, type ReadModel } from "../queries/read-model.js";
import { subLimitField } from "../providers/contract.js";
import { hasCapability, type ProviderName } from "../providers/registry.js";
import { VERSION } from "../base/version.js";
import { buildCardModel } from "./build-model.js";
import type { CardModel } from "./card-model.js";
import type { AgentCardInputs, CardInputs, ProviderCardInputs, SourceInput } from "./inputs.js";
import { METRICS_RANGE, RANGE_MS, SNAPSHOT_CONTENT_TYPES, snapshotFileName, type SnapshotDetail, type SnapshotParams } from "./params.js";
import { renderCard, type CardImageFormat } from "./render.js";

/** What can be refreshed before a snapshot; each one is a card source. */
export type RefreshJob = "gateway" | "agents" | "logs" | "cron";

/** The name each job has in X-Snapshot-Degraded-Sources when it fails or times out. */
const JOB_SOURCE: Readonly<Record<RefreshJob, string>> = { gateway: "gateway", agents: "agents", logs: "gateway-log", cron: "cron" };

export const DEFAULT_MAX_BYTES = 2 * 1024 * 1024;
const LADDER: Record<SnapshotDetail, SnapshotDetail | null> = { full: "standard", standard: "compact", compact: null };

interface SnapshotOptions {
  model: ReadModel;
  clock: Clock;
  /** Brings one source up to date (the collector's job); absent: use what is collected. */
  refresh?: (job: RefreshJob) => Promise<void>;
  /** Per-source collect budget. */
  collectTimeoutMs: number;
  /** Output size limit of the ladder. */
  maxBytes?: number;
  /** Replaces the renderer (tests: a failing or slow one). */
  render?: (model: CardModel, format: CardImageFormat) => Promise<Buffer>;
  /** PNG only: draws the card as pages (render.ts, renderPages) instead of one image; the size limit is on all of them. */
  pages?: (model: CardModel) => Promise<Buffer[]>;
}

export interface SnapshotResult {
  body: Buffer;
  contentType: string;
  fileName: string;
  /** The parameters as rendered: `detail` is lower than asked when the ladder stepped down. */
  params: SnapshotParams;
  requestedDetail: SnapshotDetail;
  degradedSources: string[];
  durationMs: number;
  card: CardModel;
  /** The card's PNG pages, in order, when they were asked for (`body` is the first). */
  pages?: Buffer[];
}

export async function produceSnapshot(params: SnapshotParams, o: SnapshotOptions): Promise<SnapshotResult> {
  const started = o.clock.now();
  const { inputs, degraded } = await collectInputs(params, o);
  const maxBytes = o.maxBytes ?? DEFAULT_MAX_BYTES;
  const render = o.render ?? renderCard;
  const generatedAt = o.clock.now();
  let detail: SnapshotDetail | null = params.detail;
  while (detail) {
    const card = buildCardModel(inputs, { detail, range: params.range, theme: params.theme, lang: params.lang, generatedAt, demo: o.model.demo, degradedSources: degraded });
    const paged = o.pages && params.format === "png" ? await renderOrFail(o.pages, card, params.format) : null;
    const body = paged ? (paged[0] ?? Buffer.alloc(0)) : params.format === "json" ? Buffer.from(JSON.stringify(card)) : await renderOrFail(render, card, params.format);
    if ((paged ? paged.reduce((n, b) => n + b.length, 0) : body.length) <= maxBytes) {
      const used = { ...params, detail };
      return {
        ...(paged ? { pages: paged } : {}),
        body,
        contentType: params.format === "json" ? "application/json; charset=utf-8" : SNAPSHOT_CONTENT_TYPES[params.format],
        fileName: snapshotFileName(used, new Date(generatedAt)),
        params: used,
        requestedDetail: params.detail,
        degradedSources: degraded,
        durationMs: o.clock.now() - started,
        card,
      };
    }
    detail = LADDER[detail];
  }
  throw new InsightsError("PAYLOAD_TOO_LARGE", `the snapshot is larger than ${Math.round(maxBytes / 1024)} KB at every detail level; try format svg or json, or a shorter range`, { maxBytes });
}

async function renderOrFail<T>(render: (card: CardModel, format: CardImageFormat) => Promise<T>, card: CardModel, format: CardImageFormat): Promise<T> {
  try {
    return await render(card, format);
  } catch (err) {
    if (err instanceof InsightsError && err.code === "RENDER_FAILED") throw err;
    throw new InsightsError("RENDER_FAILED", `rendering the ${format} card failed: ${errorMessage(err)}`, { format }, { cause: err });
  }
}

/** Refreshes every source within the collect budget, then reads the card's inputs. */
async function collectInputs(params: SnapshotParams, o: SnapshotOptions): Promise<{ inputs: CardInputs; degraded: string[] }> {
  const { model } = o;
  const present = model.providers();
  const hasGateway = present.some((p) => hasCapability(p, "gateway"));
  const failed = new Set<RefreshJob>();
  let timedOut = 0;
  // The gateway, its log and its cron store are the agent gateway's (OpenClaw's); the sources (every provider's) are "agents".
  const jobs: RefreshJob[] = hasGateway ? ["gateway", "agents", "logs", "cron"] : ["agents"];
  if (o.refresh) {
    const refresh = o.refresh;
    await Promise.all(
      jobs.map(async (job) => {
        const outcome = await withBudget(refresh(job), o.collectTimeoutMs);
        if (outcome === "ok") return;
        failed.add(job);
        if (outcome === "timeout") timedOut++;
      }),
    );
    if (timedOut === jobs.length) {
      throw new InsightsError("COLLECT_TIMEOUT", `no source answered within the collect timeout (${o.collectTimeoutMs} ms)`, { timeoutMs: o.collectTimeoutMs });
    }
  }
  const degraded = [...failed].map((j) => JOB_SOURCE[j]);
  const attempt = <T>(name: string, fn: () => T): T | null => {
    try {
      return fn();
    } catch {
      if (!degraded.includes(name)) degraded.push(name);
      return null;
    }
  };
  const now = o.clock.now();
  const fromSeconds = Math.floor((now - RANGE_MS[params.range]) / 1000) - 3600;
  const snapshots = model.agents();

  /** Each source's views; `logsFailed`: its events come from a refresh that failed. */
  const sourceParts = (provider: ProviderName, logsFailed: boolean): { sources: SourceInput[]; agents: AgentCardInputs[] } => {
    const mine = snapshots.filter((a) => a.provider === provider);
    const agents: AgentCardInputs[] = [];
    for (const a of mine) {
      const healthy = a.state.status === "CONNECTED" || (a.state.status === "INITIALIZING" && a.firstPassDone);
      const usable = healthy && !failed.has("agents");
      if (!usable && !degraded.includes(a.id) && !failed.has("agents")) degraded.push(a.id);
      const part: AgentCardInputs = {
        sourceId: a.id,
        // Most tokens first: the card's "top sessions" are picked from these.
        sessions: usable ? attempt(a.id, () => model.sessions(a.id, { sortBy: "TOKENS_DESC" })) : null,
        sessionCounts: usable
          ? attempt(a.id, () => {
              const c = model.sessionCounts(a.id);
              return { total: c.total, active: c.ACTIVE };
            })
          : null,
        metrics: usable ? attempt(a.id, () => model.metrics(a.id, { range: METRICS_RANGE[params.range] })) : null,
        events: logsFailed ? null : attempt(hasCapability(provider, "gateway") ? "gateway-log" : a.id, () => model.events(a.id, { from: fromSeconds, limit: MAX_EVENT_LIMIT })),
      };
      if (params.detail === "full") {
        part.lifetime = usable ? attempt(a.id, () => model.lifetimeStats(a.id)) : null;
        part.usageCost = usable ? attempt(a.id, () => model.usageCost(a.id)) : null;
      }
      agents.push(part);
    }
    const sources = mine.map((a) => ({ id: a.id, name: a.name, status: a.state.status, lastError: a.state.lastError }));
    return { sources, agents };
  };

  const providers: ProviderCardInputs[] = [];
  // Each provider's system namespace, for its block and the one verdict; null when it failed.
  const systems: AnySystemView[] = [];
  let systemsComplete = true;
  for (const provider of present) {
    if (hasCapability(provider, "gateway")) {
      const system = failed.has("gateway") ? null : attempt("gateway", () => model.system());
      if (system) systems.push({ ...system, provider });
      else systemsComplete = false;
      const parts = sourceParts(provider, failed.has("logs"));
      // A state dir that cannot be read at all leaves the block empty: say which provider.
      const error = model.providerError(provider);
      if (error && !degraded.includes(provider)) degraded.push(provider);
      if (present.length === 1 && !system?.gateway.running && !system?.demo && parts.agents.every((a) => a.sessions === null) && error) {
        throw new InsightsError("GATEWAY_UNREACHABLE", `the gateway does not answer and its state dir cannot be read: ${error}`);
      }
      providers.push({
        provider,
        ...parts,
        gateway: system
          ? {
              state: system.gateway.state,
              running: system.gateway.running,
              version: system.gateway.version,
              uptimeSeconds: system.gateway.uptime,
              pid: system.gateway.pid,
              updateAvailable: system.gateway.updateAvailable,
              latestVersion: system.gateway.latestVersion,
            }
          : null,
        resources: system ? { cpuPercent: system.resources.cpu, memoryMB: system.resources.memoryMB, diskMB: system.resources.diskMB } : null,
        channels: system ? system.channels.map((c) => ({ provider: c.provider, name: c.name, connected: c.connected, latencyMs: c.latencyMs })) : null,
        cronJobs: failed.has("cron") ? null : model.cronJobInfos(),
        cronRuns: failed.has("cron") ? {} : model.cronRunInfos(),
      });
    } else {
      const system = failed.has("agents") ? null : attempt(provider, () => model.systemOf(provider));
      if (system) systems.push(system);
      else systemsComplete = false;
      const error = model.providerError(provider);
      if (error && !degraded.includes(provider)) degraded.push(provider);
      const view = system && !isGatewaySystem(system) ? system : null;
      providers.push({
        provider,
        ...sourceParts(provider, failed.has("agents")),
        cli: view ? { versions: view.versions, liveSessions: view.liveSessions.length } : null,
        // The plan's windows only: per-model weekly windows are not on the card (docs/statusline.md says why).
        ...(hasCapability(provider, "rateLimits") ? { rateLimits: view ? view.rateLimits.filter((l) => subLimitField(l.limitId) === null) : null } : {}),
      });
    }
  }
  // The daemon's one verdict (what /health says), over every provider; unknown when one is missing.
  const overall = systemsComplete ? attempt("health", () => model.overallHealth(systems)) : null;
  const inputs: CardInputs = {
    appVersion: VERSION,
    health: overall ? { status: overall.status, verdict: overall.verdict, checks: overall.checks } : null,
    providers,
    timeZone: model.timeZone,
  };
  // Alerts are daemon-wide: they come from the daemon's alert service, when there is one.
  const alerts = attempt("alerts", () => model.activeAlerts());
  if (alerts !== null || degraded.includes("alerts")) inputs.alerts = alerts;
  return { inputs, degraded };
}

async function withBudget(p: Promise<void>, ms: number): Promise<"ok" | "failed" | "timeout"> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p.then(
        () => "ok" as const,
        () => "failed" as const,
      ),
      new Promise<"timeout">((resolve) => {
        timer = setTimeout(() => resolve("timeout"), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
