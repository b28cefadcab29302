// Validates a root query's optional `context: QueryContext` argument once, at the root, so every
// nested field can rely on it.
import { GraphQLError } from "graphql";
import type { MetricsRange } from "../../shared/queries/metrics.js";
import { safeTimeZone } from "../../shared/queries/time.js";
import type { QueryContext } from "./generated/types.js";
import type { QueryCtx } from "./parents.js";

const TRACE_ID = /^[A-Za-z0-9._:-]{1,64}$/;

function badInput(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: "BAD_USER_INPUT" } });
}

export function parseQueryContext(input: QueryContext | null | undefined): QueryCtx {
  const c = input ?? {};
  if (c.traceId != null && !TRACE_ID.test(c.traceId)) throw badInput("context.traceId: use 1-64 letters, digits or . _ : -");
  let locale = "en";
  if (c.locale != null) {
    try {
      locale = Intl.getCanonicalLocales(c.locale)[0] ?? "en";
    } catch {
      throw badInput(`context.locale ${JSON.stringify(c.locale)} is not a BCP 47 language tag (e.g. en, zh-CN)`);
    }
  }
  if (c.timezone != null && safeTimeZone(c.timezone) !== c.timezone) {
    throw badInput(`context.timezone ${JSON.stringify(c.timezone)} is not an IANA time zone (e.g. Europe/Berlin, UTC)`);
  }
  return {
    traceId: c.traceId ?? null,
    locale,
    timeZone: c.timezone ?? null,
    defaultRange: (c.defaultRange as MetricsRange | null | undefined) ?? null,
    tags: c.tags?.length ? [...c.tags] : null,
  };
}
