// The SDL and the code cannot drift: the generated resolver types must equal a fresh generation
// from schema.graphql, and every field the SDL declares on an object type must have a resolver
// or a same-named property on the read-model value it is resolved from (checked by tsc through
// the generated types). Unexpected errors are masked.
import { readFileSync } from "node:fs";
import { GraphQLError, parse, validate } from "graphql";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { LogHub } from "../../shared/base/log/logger.js";
import { GENERATED_FILE, generate, generateWebTypes, WEB_GENERATED_FILE } from "./codegen.js";
import { createFormatError } from "./errors.js";
import { loadSchema, VALIDATION_RULES } from "./schema.js";

test("the generated types (resolvers, and the dashboard's) are up to date with schema.graphql (run `npm run codegen`)", async () => {
  assert.is(readFileSync(GENERATED_FILE, "utf8"), await generate());
  assert.is(readFileSync(WEB_GENERATED_FILE, "utf8"), await generateWebTypes());
});

test("the executable schema builds and names the spec's roots and types", () => {
  const schema = loadSchema();
  assert.equal(Object.keys(schema.getQueryType()?.getFields() ?? {}), ["system", "systems", "sources", "source", "alerts", "alertRules", "alertChannels", "alertHistory"]);
  assert.equal(Object.keys(schema.getSubscriptionType()?.getFields() ?? {}), ["dataChanged", "logs", "alertChanged"]);
  assert.equal(Object.keys(schema.getMutationType()?.getFields() ?? {}), [
    "restartGateway",
    "updateGateway",
    "addAlertRule",
    "updateAlertRule",
    "muteAlertRule",
    "unmuteAlertRule",
    "deleteAlertRule",
    "addAlertChannel",
    "updateAlertChannel",
    "deleteAlertChannel",
    "testAlertChannel",
  ]);
  for (const t of ["ProviderASystem", "ProviderBSystem", "ProviderCSystem", "AgentNamespace", "DashboardNamespace", "EventDensityBucket", "EventCounts", "LifetimeStats", "SessionTranscript", "QueryContext", "SourceFilter", "SourceSelector"]) {
    assert.ok(schema.getType(t), t);
  }
});

test("the limit rules count fragments and ignore introspection's own depth", () => {
  const schema = loadSchema();
  const check = (q: string): string[] => validate(schema, parse(q), VALIDATION_RULES).map((e) => e.message);
  assert.equal(check(`{ __schema { types { fields { type { ofType { ofType { ofType { ofType { ofType { ofType { ofType { name } } } } } } } } } } } }`), []);
  assert.equal(check(`{ sources { ...A } } fragment A on DataSource { id attributes { ...B } } fragment B on SourceAttributes { tags }`), []);
});

test("unexpected errors are masked with INTERNAL_SERVER_ERROR; typed ones keep their code", () => {
  const logged: string[] = [];
  const hub = new LogHub({ console: "off" });
  hub.subscribe((r) => logged.push(JSON.stringify(r)));
  const format = createFormatError(hub.logger);
  const boom = new GraphQLError("SQLITE_CORRUPT at /home/op/secret/path", { originalError: new Error("SQLITE_CORRUPT at /home/op/secret/path"), path: ["source"] });
  const masked = format({ message: boom.message, path: ["source"] }, boom);
  assert.equal(masked, { message: "internal error; see the daemon log", path: ["source"], extensions: { code: "INTERNAL_SERVER_ERROR" } });
  assert.ok(logged.some((l) => l.includes("SQLITE_CORRUPT")), "the real error is logged");
});

test.run();
