// The card's data model: what the image shows, as raw numbers and data labels, and the JSON
// format of a snapshot (`format: "json"`). One zod schema is the source of the TypeScript type
// and of the published JSON Schema, so the two cannot drift. docs/snapshot-json.md explains it
// field by field; a test keeps that page naming every field.
import { z } from "zod";
import { SNAPSHOT_DETAILS, SNAPSHOT_LANGS, SNAPSHOT_RANGES, SNAPSHOT_THEMES } from "./params.js";

export const CARD_SCHEMA_VERSION = 1;

const isoTime = z.iso.datetime().describe("ISO 8601 time, UTC");
const count = z.number().int().nonnegative();
const amount = z.number().nonnegative();

export const GATEWAY_STATES = ["healthy", "degraded", "unhealthy", "running", "stopped", "unknown"] as const;
export const HEALTH_LEVELS = ["HEALTHY", "DEGRADED", "UNHEALTHY"] as const;
export const CHECK_STATUSES = ["PASS", "WARN", "FAIL"] as const;
export const SESSION_STATUSES = ["ACTIVE", "IDLE", "DONE", "FAILED"] as const;
export const SESSION_KINDS = ["direct", "group", "cron", "subagent"] as const;
export const EVENT_TYPES = ["error", "warning", "restart"] as const;
export const SOURCE_STATUSES = ["INITIALIZING", "CONNECTED", "DISCONNECTED", "ERROR"] as const;

const gateway = z
  .object({
    state: z.enum(GATEWAY_STATES).describe("The header pill: stopped when the gateway is down, else its overall health (running when that is unknown); unknown when the probe failed"),
    running: z.boolean().nullable().describe("null when the gateway probe failed"),
    health: z.enum(HEALTH_LEVELS).nullable(),
    openclawVersion: z.string().nullable(),
    insightsVersion: z.string(),
    uptimeSeconds: amount.nullable().describe("Seconds since the gateway started; null while it is down"),
    updateAvailable: z.boolean(),
    latestVersion: z.string().nullable(),
  })
  .describe("The header");

const summary = z
  .object({
    tokens: amount.nullable().describe("Tokens used in the range, all agents (input + output + cache read + cache write)"),
    costUsd: amount.nullable().describe("Cost of the range in US dollars, all agents"),
    turns: count.nullable().describe("User messages in the range, all agents"),
    errors: count.nullable().describe("Error events in the range"),
    warnings: count.nullable().describe("Warning events in the range"),
    uptimePercent: z.number().min(0).max(100).nullable().describe("Share of gateway probes in the range that found it up"),
    activeSessions: count.nullable().describe("Sessions (sub-agents included) with status ACTIVE"),
    totalSessions: count.nullable().describe("All sessions, sub-agents included"),
  })
  .describe("The key numbers; null where the source behind a number failed");

const tokenChart = z
  .object({
    stepSeconds: z.number().int().positive(),
    peakTokens: amount.describe("The largest bucket, the top of the bars"),
    buckets: z.array(
      z.object({
        start: z.number().int().describe("Epoch seconds"),
        tokens: amount,
        errors: count.describe("Error events in the bucket (marked under its bar)"),
      }),
    ),
  })
  .describe("Tokens per bucket over the range, oldest first");

const sessionRow = z.object({
  key: z.string(),
  agentId: z.string(),
  displayName: z.string(),
  kind: z.enum(SESSION_KINDS),
  status: z.enum(SESSION_STATUSES),
  model: z.string().nullable(),
  channel: z.string().nullable(),
  totalTokens: amount.describe("All tokens of the session, every window"),
  costUsd: amount,
  turnCount: count,
  lastActivityAt: isoTime.nullable(),
  subAgentCount: count.describe("Sub-agent sessions under this one, at any depth"),
});

const topSessions = z
  .object({
    total: count.describe("Top-level sessions (sub-agents are counted under their parent)"),
    items: z.array(sessionRow).describe("The top-level sessions that used the most tokens, most first"),
  })
  .describe("standard and full");

const errorRow = z.object({
  time: isoTime,
  module: z.string(),
  message: z.string(),
  agentId: z.string().nullable(),
});

const recentErrors = z
  .object({
    total: count.describe("Error events in the range"),
    items: z.array(errorRow).describe("Newest first"),
  })
  .describe("standard and full");

const subAgentRow = z.object({
  key: z.string(),
  displayName: z.string(),
  status: z.enum(SESSION_STATUSES),
  totalTokens: amount,
  depth: count.describe("0 for a parent session, 1 for its sub-agents, 2 for theirs"),
});

const subAgents = z
  .object({
    parents: count.describe("Sessions that have sub-agents"),
    sessions: count.describe("Sub-agent sessions"),
    rows: z.array(subAgentRow).describe("The tree, depth first: each parent followed by its sub-agents"),
    more: count.describe("Tree rows left out for space"),
  })
  .describe("full");

const eventRow = z.object({
  time: isoTime,
  type: z.enum(EVENT_TYPES),
  level: z.string(),
  module: z.string(),
  message: z.string(),
  agentId: z.string().nullable(),
});

const events = z
  .object({
    total: count.describe("Events in the range"),
    items: z.array(eventRow).describe("Newest first"),
  })
  .describe("full");

const cronRow = z.object({
  id: z.string(),
  name: z.string(),
  agentId: z.string().nullable(),
  enabled: z.boolean(),
  schedule: z.string().describe("The schedule in words: every 2m, 0 3 * * * (Europe/Berlin), at <time>"),
  lastRunAt: isoTime.nullable(),
  lastStatus: z.string().nullable().describe("ok, error, skipped, running, … as the gateway wrote it"),
  lastDurationMs: amount.nullable(),
  nextRunAt: isoTime.nullable(),
  consecutiveErrors: count,
});

const cron = z
  .object({
    total: count,
    items: z.array(cronRow).describe("Failing jobs first, then enabled jobs by next run, then disabled ones"),
  })
  .describe("full");

const channels = z
  .object({
    items: z.array(z.object({ provider: z.string(), name: z.string(), connected: z.boolean(), latencyMs: amount.nullable() })),
    total: count,
  })
  .describe("full");

const health = z
  .object({
    status: z.enum(HEALTH_LEVELS),
    checks: z.array(z.object({ name: z.string(), status: z.enum(CHECK_STATUSES), message: z.string().nullable() })),
  })
  .describe("full");

const system = z
  .object({
    pid: z.number().int().nullable(),
    resources: z
      .object({ cpuPercent: amount.nullable(), memoryMB: amount.nullable(), diskMB: amount.nullable() })
      .nullable()
      .describe("The gateway's process tree; null when it could not be sampled"),
    sources: z.array(z.object({ id: z.string(), name: z.string(), status: z.enum(SOURCE_STATUSES), lastError: z.string().nullable() })),
  })
  .describe("full");

const totals = z
  .object({
    tokens: amount,
    costUsd: amount,
    todayCostUsd: amount.nullable(),
    transcripts: count,
    since: isoTime.nullable().describe("Earliest known activity"),
  })
  .describe("full: all-time totals of every agent");

export const cardModelSchema = z
  .object({
    schemaVersion: z.literal(CARD_SCHEMA_VERSION),
    generatedAt: isoTime,
    detail: z.enum(SNAPSHOT_DETAILS),
    range: z.enum(SNAPSHOT_RANGES),
    theme: z.enum(SNAPSHOT_THEMES),
    lang: z.enum(SNAPSHOT_LANGS),
    timeZone: z.string().describe("IANA zone of the clock times on the image"),
    window: z.object({ from: isoTime, to: isoTime }).describe("The range's start and end"),
    demo: z.boolean().describe("The data is the bundled demo state, not a live gateway"),
    degradedSources: z.array(z.string()).describe("Sources that failed and were skipped; their parts are null"),
    gateway,
    summary,
    tokenChart: tokenChart.nullable().optional(),
    topSessions: topSessions.nullable().optional(),
    recentErrors: recentErrors.nullable().optional(),
    subAgents: subAgents.nullable().optional(),
    events: events.nullable().optional(),
    cron: cron.nullable().optional(),
    channels: channels.nullable().optional(),
    health: health.nullable().optional(),
    system: system.optional(),
    totals: totals.nullable().optional(),
  })
  .describe("gateway-insights status card, JSON format (schemaVersion 1). Sections beyond the summary appear from the detail level that shows them; a section is null when its source failed.");

export type CardModel = z.infer<typeof cardModelSchema>;
export type CardGatewayState = (typeof GATEWAY_STATES)[number];
export type CardSessionRow = z.infer<typeof sessionRow>;
export type CardSubAgentRow = z.infer<typeof subAgentRow>;
export type CardEventRow = z.infer<typeof eventRow>;
export type CardErrorRow = z.infer<typeof errorRow>;
export type CardCronRow = z.infer<typeof cronRow>;

/** JSON Schema (draft 2020-12) of the snapshot JSON, derived from `cardModelSchema`. */
export const cardJsonSchema: Record<string, unknown> = {
  title: "gateway-insights snapshot card",
  ...z.toJSONSchema(cardModelSchema),
};
