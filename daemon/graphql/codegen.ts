// Generates TypeScript types for the resolvers from schema.graphql (`npm run codegen`), so the
// SDL (the API's documentation) and the resolvers cannot drift: a resolver returning the wrong
// shape no longer type-checks, and schema.test.ts fails when the committed output is stale.
// Mappers name the read-model types each GraphQL type is resolved from.
import { codegen } from "@graphql-codegen/core";
import * as typescriptPlugin from "@graphql-codegen/typescript";
import * as resolversPlugin from "@graphql-codegen/typescript-resolvers";
import { buildSchema, parse, printSchema } from "graphql";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { PROVIDER_IDENTITIES } from "../../shared/providers/registry.js";

const SCHEMA_FILE = fileURLToPath(new URL("./schema.graphql", import.meta.url));
export const GENERATED_FILE = fileURLToPath(new URL("./generated/types.ts", import.meta.url));
/** The schema's types for the dashboard (web/): its answer types pick their fields from these. */
export const WEB_GENERATED_FILE = fileURLToPath(new URL("../../web/src/api/schema.generated.ts", import.meta.url));

const HEADER = "// Generated from schema.graphql by daemon/graphql/codegen.ts (`npm run codegen`). Do not edit.\n/* eslint-disable */\n";

export async function generate(sdl = readFileSync(SCHEMA_FILE, "utf8")): Promise<string> {
  const schema = buildSchema(sdl);
  const out = await codegen({
    filename: GENERATED_FILE,
    schema: parse(printSchema(schema)),
    documents: [],
    plugins: [{ typescript: {} }, { typescriptResolvers: {} }],
    pluginMap: { typescript: typescriptPlugin, typescriptResolvers: resolversPlugin },
    config: {
      useTypeImports: true,
      enumsAsTypes: true,
      avoidOptionals: { field: true, inputValue: false, object: false, defaultValue: false },
      maybeValue: "T | null",
      inputMaybeValue: "T | null | undefined",
      contextType: "../context.js#GraphQLContext",
      mappers: {
        // Each provider's system type, from the registry: the gateway's system, or the provider system.
        ...Object.fromEntries(PROVIDER_IDENTITIES.map((p) => [p.systemType, p.capabilities.gateway ? "../parents.js#SystemParent" : "../parents.js#ProviderSystemParent"])),
        RateLimits: "../../../shared/queries/rate-limits.js#RateLimitsView",
        RateLimitProjection: "../../../shared/queries/rate-limit-projection.js#WindowProjection",
        AgentNamespace: "../parents.js#AgentParent",
        DashboardNamespace: "../parents.js#DashboardParent",
        DataSource: "../../../shared/queries/sources.js#DataSourceView",
        Session: "../../../shared/queries/sessions.js#SessionView",
        ProjectUsage: "../../../shared/queries/projects.js#ProjectUsageView",
        Metrics: "../../../shared/queries/metrics.js#Metrics as MetricsModel",
        LifetimeStats: "../../../shared/queries/lifetime.js#LifetimeStats as LifetimeStatsModel",
        SessionTranscript: "../../../shared/queries/transcript.js#SessionTranscript as SessionTranscriptModel",
        CronJob: "../../../shared/queries/cron.js#CronJobView",
        UsageCost: "../../../shared/queries/usage-cost.js#UsageCost as UsageCostModel",
        Event: "../../../shared/queries/events.js#EventView",
        LogEntry: "../../../shared/queries/events.js#LogEntryView",
        Alert: "../../../shared/alerts/views.js#AlertRow",
        AlertRule: "../../../shared/alerts/views.js#RuleView",
        AlertChannel: "../../../shared/alerts/views.js#ChannelView",
        AlertEvent: "../../../shared/alerts/views.js#HistoryEvent",
        AlertDelivery: "../../../shared/alerts/views.js#DeliveryView",
        AlertChange: "../../../shared/alerts/views.js#AlertChange as AlertChangeModel",
        AlertProjection: "../../../shared/alerts/windows.js#Projection",
      },
      scalars: { ID: "string" },
    },
  });
  return HEADER + out.replace(/[ \t]+$/gm, "") + (out.endsWith("\n") ? "" : "\n");
}

/** Plain types of every schema type (no resolvers, no server imports), for the browser code. */
export async function generateWebTypes(sdl = readFileSync(SCHEMA_FILE, "utf8")): Promise<string> {
  const out = await codegen({
    filename: WEB_GENERATED_FILE,
    schema: parse(printSchema(buildSchema(sdl))),
    documents: [],
    plugins: [{ typescript: {} }],
    pluginMap: { typescript: typescriptPlugin },
    config: { useTypeImports: true, enumsAsTypes: true, skipTypename: true, avoidOptionals: true, maybeValue: "T | null", inputMaybeValue: "T | null | undefined", scalars: { ID: "string" } },
  });
  return HEADER + out.replace(/[ \t]+$/gm, "") + (out.endsWith("\n") ? "" : "\n");
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(GENERATED_FILE, await generate());
  writeFileSync(WEB_GENERATED_FILE, await generateWebTypes());
  process.stdout.write(`wrote ${GENERATED_FILE} and ${WEB_GENERATED_FILE}\n`);
}
