// The executable schema: schema.graphql (shipped with the package; it is the API's documentation)
// joined with the resolvers. Apollo (queries, mutations), graphql-sse and graphql-ws share it.
import { makeExecutableSchema } from "@graphql-tools/schema";
import { specifiedRules, type GraphQLSchema, type ValidationRule } from "graphql";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "../../shared/base/package-root.js";
import { aliasLimit, depthLimit } from "./limits.js";
import { resolvers } from "./resolvers.js";

const SCHEMA_PATH = join(packageRoot(), "daemon", "graphql", "schema.graphql");

let cached: GraphQLSchema | null = null;

export function loadSchema(): GraphQLSchema {
  cached ??= makeExecutableSchema({ typeDefs: readFileSync(SCHEMA_PATH, "utf8"), resolvers });
  return cached;
}

/** Our limits on top of graphql's own rules; every transport validates with these. */
export const LIMIT_RULES: readonly ValidationRule[] = [depthLimit(), aliasLimit()];
export const VALIDATION_RULES: readonly ValidationRule[] = [...specifiedRules, ...LIMIT_RULES];
