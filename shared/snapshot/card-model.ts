// The card's data model: what the image shows, as raw numbers and data labels, and the JSON
// format of a snapshot (`format: "json"`). One zod schema is the source of the TypeScript type
// and of the published JSON Schema, so the two cannot drift. docs/snapshot-json.md explains it
// field by field; a test keeps that page naming every field.
//
// Version 2: a header with the daemon's one verdict, an "all providers" summary when more than one
// provider is read, then one block per provider present (OpenClaw, Claude Code, Codex), each with
// its own figures and sections.
import { z } from "zod";
import type { ProviderIdentity } from "../providers/identity.js";
import { PROVIDER_IDENTITIES, PROVIDER_NAMES, type ProviderName, type ProviderWith, type ProviderWithout } from "../providers/registry.js";
import { SNAPSHOT_DETAILS, SNAPSHOT_LANGS, SNAPSHOT_RANGES, SNAPSHOT_THEMES } from "./params.js";

export const CARD_SCHEMA_VERSION = 2;

const isoTime = z.iso.datetime().describe("ISO 8601 time, UTC");
const count = z.number().int().nonnegative();
const amount = z.number().nonnegative();

/** The providers in the interface's order (A, B, C): the order of the blocks. */
export const CARD_PROVIDERS: readonly ProviderName[] = PROVIDER_NAMES;
/** The daemon's one verdict (GET /health, GraphQL `system.health.verdict`). */
export const VERDICTS = ["OK", "DEGRADED", "UNHEALTHY", "STARTING"] as const;
/** GraphQL `system.gateway.state`. */
export const GATEWAY_STATES = ["UP", "DOWN", "DEMO", "UNKNOWN"] as const;
export const HEALTH_LEVELS = ["HEALTHY", "DEGRADED", "UNHEALTHY"] as const;
export const CHECK_STATUSES = ["PASS", "WARN", "FAIL"] as const;
export const SESSION_STATUSES = ["ACTIVE", "IDLE", "DONE", "FAILED"] as const;
export const SESSION_KINDS = ["direct", "group", "cron", "subagent"] as const;
export const EVENT_TYPES = ["error", "warning", "restart"] as const;
export const SOURCE_STATUSES = ["INITIALIZING", "CONNECTED", "DISCONNECTED", "ERROR"] as const;
export const ALERT_SEVERITIES = ["critical", "warning"] as const;
/** The unit of an alert's value and threshold (docs/alerting.md). */
export const ALERT_UNITS = ["usd", "tokens", "count", "percent", "seconds"] as const;

const summary = z
  .object({
    tokens: amount.nullable().describe("Tokens used in the range (input + output + cache read + cache write)"),
    costUsd: amount.nullable().describe("Priced cost of the range in US dollars; a lower bound when unpricedResponses > 0"),
    unpricedResponses: count.nullable().describe("Responses in the range with no known price (never counted as $0)"),
    turns: count.nullable().describe("User prompts in the range"),
    errors: count.nullable().describe("Error events in the range"),
    warnings: count.nullable().describe("Warning events in the range"),
    activeSessions: count.nullable().describe("Sessions (sub-agents included) with status ACTIVE"),
    totalSessions: count.nullable().describe("All sessions, sub-agents included"),
    lastActivityAt: isoTime
      .nullable()
      .optional()
      .describe(
        "The newest recorded activity of the sources behind these numbers, at any time (null: none yet; a later addition to version 2: optional). Older than window.from with no tokens in the range: the card says when it was",
      ),
  })
  .describe("Key numbers over the range; null where the source behind a number failed");

const tokenChart = z
  .object({
    stepSeconds: z.number().int().positive(),
    peakTokens: amount.describe("The largest bucket"),
    buckets: z.array(
      z.object({
        start: z.number().int().describe("Epoch seconds"),
        tokens: amount,
        errors: count.describe("Error events in the bucket (marked under its bar)"),
      }),
    ),
  })
  .describe("standard and full: tokens per bucket over the range, oldest first");

const sessionRow = z.object({
  key: z.string(),
  source: z.string().describe("Source id: agent:main, claude-code:default, codex:default"),
  displayName: z.string(),
  kind: z.enum(SESSION_KINDS),
  status: z.enum(SESSION_STATUSES),
  model: z.string().nullable(),
  channel: z.string().nullable().describe("OpenClaw's channel; null for the CLIs"),
  project: z.string().nullable().describe("The working directory (a provider with projects); null for the others"),
  totalTokens: amount.describe("All tokens of the session, every window"),
  costUsd: amount.describe("Priced cost; a lower bound when unpricedResponses > 0"),
  unpricedResponses: count,
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

const sources = z
  .array(z.object({ id: z.string(), name: z.string(), status: z.enum(SOURCE_STATUSES), lastError: z.string().nullable() }))
  .describe("full: the provider's sources (OpenClaw agents, CLI installs)");

const totals = z
  .object({
    tokens: amount,
    costUsd: amount,
    unpricedResponses: count,
    todayCostUsd: amount.nullable(),
    transcripts: count,
    since: isoTime.nullable().describe("Earliest known activity"),
  })
  .describe("full: all-time totals of the provider's sources");

/** What every provider's block has. */
const blockBase = {
  summary,
  tokenChart: tokenChart.nullable().optional(),
  topSessions: topSessions.nullable().optional(),
  recentErrors: recentErrors.nullable().optional(),
  subAgents: subAgents.nullable().optional(),
  events: events.nullable().optional(),
  sources: sources.optional(),
  totals: totals.nullable().optional(),
};

const gateway = z
  .object({
    state: z.enum(GATEWAY_STATES).describe("UP or DOWN by /healthz; DEMO while the bundled demo state is served; UNKNOWN before the first probe or when the probe failed"),
    running: z.boolean().nullable().describe("null when the gateway probe failed"),
    version: z.string().nullable().describe("OpenClaw's version"),
    uptimeSeconds: amount.nullable().describe("Seconds since the gateway started; null while it is down"),
    uptimePercent: z.number().min(0).max(100).nullable().describe("Share of gateway probes in the range that found it up"),
    updateAvailable: z.boolean(),
    latestVersion: z.string().nullable(),
  })
  .describe("The OpenClaw gateway");

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
  overdueSeconds: count.nullable().describe("How long past its scheduled run an enabled job is; null when it is not overdue"),
});

const cron = z
  .object({
    total: count,
    overdue: count.describe("Overdue jobs in all"),
    items: z.array(cronRow).describe("Failing jobs first, then overdue ones, then enabled jobs by next run, then disabled ones"),
  })
  .describe("full");

const channels = z
  .object({
    items: z.array(z.object({ provider: z.string(), name: z.string(), connected: z.boolean(), latencyMs: amount.nullable() })),
    total: count,
  })
  .describe("full");

const resources = z
  .object({ pid: z.number().int().nullable(), cpuPercent: amount.nullable(), memoryMB: amount.nullable(), diskMB: amount.nullable() })
  .describe("full: the gateway's process tree; null when it could not be sampled");

/** A block's description: the provider's name and enum value. */
const described = (p: ProviderIdentity): string => `${p.displayName} (${p.enumValue})`;

/** The block of a provider with an agent gateway (OpenClaw's). */
const gatewayBlockOf = (p: ProviderIdentity) =>
  z
    .object({
      provider: z.literal(p.name as ProviderWith<"gateway">),
      gateway,
      ...blockBase,
      cron: cron.nullable().optional(),
      channels: channels.nullable().optional(),
      resources: resources.nullable().optional(),
    })
    .describe(described(p));

const cli = z
  .object({
    version: z.string().nullable().describe("The newest CLI version seen"),
    liveSessions: count.describe("The CLI's sessions running now"),
  })
  .nullable()
  .describe("The CLI; null when its system could not be read");

const rateWindow = z
  .object({
    usedPercent: amount.describe("Used share of the window, 0-100 (100 and above: at the limit)"),
    windowMinutes: count.nullable().describe("Length of the window: 300 for 5 h, 10080 for a week"),
    resetsAt: isoTime.nullable(),
    projectedFullAt: isoTime
      .nullable()
      .describe("At the burn rate of the last 30 minutes the window is used up at this time, before it resets; null when it is not (or cannot be told)"),
  })
  .nullable();

const rateLimits = z
  .array(
    z.object({
      source: z.string(),
      planType: z.string().nullable(),
      primary: rateWindow,
      secondary: rateWindow,
      updatedAt: isoTime.describe("When the provider recorded the figures"),
      stale: z.boolean().describe("The primary window has reset since: the figures may no longer hold"),
    }),
  )
  .nullable()
  .describe("The plan's rate limits per install as the provider last recorded them (each in its own way: a rollout, a status line); null when they could not be read");

/** The block of a CLI provider (no gateway), with the plan's rate limits when it records them. */
type CliName = ProviderWithout<"gateway">;
const cliBlockOf = (p: ProviderIdentity) => z.object({ provider: z.literal(p.name as Exclude<CliName, ProviderWith<"rateLimits">>), cli, ...blockBase }).describe(described(p));
const rateLimitedBlockOf = (p: ProviderIdentity) => z.object({ provider: z.literal(p.name as Extract<CliName, ProviderWith<"rateLimits">>), cli, rateLimits, ...blockBase }).describe(described(p));

type GatewayBlockSchema = ReturnType<typeof gatewayBlockOf>;
type CliBlockSchema = ReturnType<typeof cliBlockOf>;
type RateLimitedBlockSchema = ReturnType<typeof rateLimitedBlockOf>;
/** A CLI provider without rate limits, while there is one (none since Claude Code records its windows too). */
type PlainCliBlockSchema = [Exclude<CliName, ProviderWith<"rateLimits">>] extends [never] ? never : CliBlockSchema;
type BlockSchema = GatewayBlockSchema | PlainCliBlockSchema | RateLimitedBlockSchema;

/** One block per registered provider, in the interface's order, its shape by its capabilities. */
// The plain CLI shape stays for a provider added without rate limits; no registered one is (the cast says so).
const blocks = PROVIDER_IDENTITIES.map((p): BlockSchema => (p.capabilities.gateway ? gatewayBlockOf(p) : p.capabilities.rateLimits ? rateLimitedBlockOf(p) : (cliBlockOf(p) as unknown as BlockSchema))) as [BlockSchema, ...BlockSchema[]];
/** A block by its provider: OpenClaw's has the gateway, the CLIs' have rate limits. */
export type CardBlockOf<P extends ProviderName> = P extends ProviderWith<"gateway"> ? CardOpenClawBlock : CardRateLimitedBlock;

const health = z
  .object({
    status: z.enum(HEALTH_LEVELS),
    verdict: z.enum(VERDICTS),
    checks: z
      .array(z.object({ name: z.string().describe("gateway, sources, … ; another provider's as claude-code/pricing, codex/rate-limit"), status: z.enum(CHECK_STATUSES), message: z.string().nullable() }))
      .describe("Every provider's checks, disk and store once"),
  })
  .describe("full: the checks behind the verdict");

const alertRow = z.object({
  ruleId: z.string().describe("The rule's id: daily-cost, gateway-down, a rule of yours"),
  ruleName: z.string().describe("The rule's name as configured"),
  subject: z.string().describe('"" for the rule\'s whole scope; else the session, check, rate-limit window or model it is about'),
  label: z.string().describe("The subject in words (a session's name, a check's name); the rule's name for the whole scope"),
  metric: z.string().describe("What the rule measures: cost, tokens, errors, warnings, context, gateway_down, health_check, rate_limit, unpriced"),
  severity: z.enum(ALERT_SEVERITIES),
  value: z.number().describe("The latest value measured, in `unit`"),
  threshold: z.number().describe("The threshold crossed (of `severity`), in `unit`"),
  unit: z.enum(ALERT_UNITS),
  window: z.string().nullable().describe("hour, day, week, month, primary, secondary; null for a metric without a window"),
  since: isoTime.describe("When the alert fired"),
  mutedUntil: isoTime.nullable().describe("The rule is muted (nothing is sent) until then; null when not muted"),
  projection: z
    .object({
      target: amount.describe("The budget (else the critical threshold) the pace is measured against"),
      projectedTotal: amount.describe("What the window ends with at this pace"),
      reachesAt: isoTime.nullable().describe("When the target is reached at this pace; null when not before the window ends"),
      windowEnd: isoTime,
    })
    .nullable()
    .describe("Calendar cost and token budgets: the burn rate over the window so far; null otherwise, or once over the target"),
});

const alerts = z
  .object({
    total: count.describe("Alerts firing now"),
    critical: count.describe("Of them at critical"),
    items: z.array(alertRow).describe("Critical first, then the most recent"),
  })
  .describe("Every detail level: the alerts firing now, daemon-wide");

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
    demo: z.boolean().describe("The data is the bundled demo state"),
    degradedSources: z.array(z.string()).describe("Sources that failed and were skipped; their parts are null"),
    insightsVersion: z.string(),
    verdict: z.enum(VERDICTS).nullable().describe("The daemon's one verdict over every provider; null when a provider's state could not be read"),
    alerts: alerts
      .nullable()
      .optional()
      .describe("The alerts firing now (a later addition to version 2: optional, so no version bump); null when they could not be read; absent when the card was made without the daemon"),
    allProviders: summary.optional().describe("Every provider together; present when more than one is read"),
    providers: z.array(z.discriminatedUnion("provider", blocks)).describe(`One block per provider read, in the order ${PROVIDER_NAMES.join(", ")}`),
    health: health.nullable().optional(),
  })
  .describe("gateway-insights status card, JSON format (schemaVersion 2). Sections beyond the summaries appear from the detail level that shows them; a section is null when its source failed.");

export type CardModel = z.infer<typeof cardModelSchema>;
export type CardProvider = ProviderName;
export type CardVerdict = (typeof VERDICTS)[number];
export type CardGatewayState = (typeof GATEWAY_STATES)[number];
export type CardBlock = CardModel["providers"][number];
/** OpenClaw's block shape: a provider with an agent gateway. */
export type CardOpenClawBlock = z.infer<GatewayBlockSchema>;
/** A CLI provider with the plan's rate limits: Claude Code's (from its status line) and Codex's. */
export type CardRateLimitedBlock = z.infer<RateLimitedBlockSchema>;
export type CardSummary = z.infer<typeof summary>;
export type CardTokenChart = z.infer<typeof tokenChart>;
export type CardRateLimits = NonNullable<z.infer<typeof rateLimits>>;
export type CardSessionRow = z.infer<typeof sessionRow>;
export type CardSubAgentRow = z.infer<typeof subAgentRow>;
export type CardEventRow = z.infer<typeof eventRow>;
export type CardErrorRow = z.infer<typeof errorRow>;
export type CardCronRow = z.infer<typeof cronRow>;
export type CardAlerts = z.infer<typeof alerts>;
export type CardAlertRow = z.infer<typeof alertRow>;

/** JSON Schema (draft 2020-12) of the snapshot JSON, derived from `cardModelSchema`. */
export const cardJsonSchema: Record<string, unknown> = {
  title: "gateway-insights snapshot card",
  ...z.toJSONSchema(cardModelSchema),
};
