// Resolvers: each one a thin call into the read model (shared/queries). Their types come from
// schema.graphql through codegen, so a field the SDL promises cannot be returned in another shape.
import { GraphQLError } from "graphql";
import { localizeMessages } from "../../shared/i18n/message.js";
import { localeOf } from "../../shared/i18n/units.js";
import { iso } from "../../shared/queries/time.js";
import { subLimitField, type LogLevel } from "../../shared/providers/contract.js";
import type { Resolvers } from "./generated/types.js";
import type { AnySystemView } from "../../shared/queries/read-model.js";
import { PROVIDER_ENUM, PROVIDER_IDENTITIES, hasCapability, providerIdentity, providerOfEnum, type ProviderSystemType } from "../../shared/providers/registry.js";
import type { AgentParent, DashboardParent, ProviderSystemParent, QueryCtx, SystemParent } from "./parents.js";
import { parseQueryContext } from "./query-context.js";
import { alertMutations, alertQueries, alertTypes } from "./alert-resolvers.js";

/**
 * Each provider's system type (the schema's Provider<X>System): its enum value, and the plan's
 * rate limits where the provider records them.
 */
const systemTypes = Object.fromEntries(
  PROVIDER_IDENTITIES.map((p) => [
    p.systemType,
    {
      provider: () => p.enumValue,
      ...(hasCapability(p.name, "rateLimits")
        ? {
            // The newest figures of the plan's own windows across installs (a per-model weekly
            // window is a limit of its own, listed by rateLimitsBySource only).
            rateLimits: (s: ProviderSystemParent) => s.rateLimits.filter((l) => subLimitField(l.limitId) === null).sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))[0] ?? null,
            rateLimitsBySource: (s: ProviderSystemParent) => s.rateLimits,
          }
        : {}),
    },
  ]),
) as Pick<Resolvers, ProviderSystemType>;

/** Health messages in the asked language; without a locale the API keeps its plain English. */
function systemParent(sys: AnySystemView, localized: boolean, qctx: QueryCtx): SystemParent | ProviderSystemParent {
  const locale = localeOf(qctx.locale);
  const health = localized ? { ...sys.health, checks: localizeMessages(sys.health.checks, locale), reasons: localizeMessages(sys.health.reasons, locale) } : sys.health;
  return { ...sys, health, qctx };
}

function rootContext(ctx: { annotate(fields: Record<string, unknown>): void }, input: Parameters<typeof parseQueryContext>[0]): QueryCtx {
  const q = parseQueryContext(input);
  if (q.traceId) ctx.annotate({ traceId: q.traceId });
  return q;
}

export const resolvers: Resolvers = {
  Query: {
    system: (_root, args, ctx) => {
      const qctx = rootContext(ctx, args.context);
      return systemParent(ctx.model.systemOf(args.provider ? providerOfEnum(args.provider) : null), args.context?.locale != null, qctx);
    },
    systems: (_root, args, ctx) => {
      const qctx = rootContext(ctx, args.context);
      return ctx.model.systems().map((sys) => systemParent(sys, args.context?.locale != null, qctx));
    },
    sources: (_root, args, ctx) => {
      const q = rootContext(ctx, args.context);
      const f = args.filter ?? {};
      return ctx.model.sources({ ...f, tags: f.tags ?? q.tags });
    },
    source: (_root, args, ctx) => {
      const qctx = rootContext(ctx, args.context);
      const s = args.selector ?? {};
      const picked = ctx.model.select({ ...s, tags: s.tags ?? qctx.tags });
      if (picked.kind === "dashboard") return { ...ctx.model.dashboard(), kind: "dashboard", source: picked.source, qctx } satisfies DashboardParent;
      return { kind: "agent", sourceId: picked.sourceId, agentId: picked.agentId, source: picked.source, qctx } satisfies AgentParent;
    },
    ...alertQueries,
  },
  ...alertTypes,

  SystemNamespace: { __resolveType: (parent) => providerIdentity(parent.provider).systemType as ProviderSystemType },
  ...systemTypes,
  RateLimits: {
    history: (p, { days }, ctx) => ctx.model.rateLimitHistory(p.source, days ?? 7, p.limitId),
  },
  RateLimitProjection: {
    fullAt: (p) => iso(p.fullAt),
    resetsAt: (p) => iso(p.resetsAt),
  },

  SourceNamespace: {
    __resolveType: (parent) => (parent.kind === "agent" ? "AgentNamespace" : "DashboardNamespace"),
  },

  DashboardNamespace: {
    providers: (p) => p.providers.map((name) => PROVIDER_ENUM[name]),
  },

  AgentNamespace: {
    sessions: (p, { filter }, ctx) => ctx.model.sessions(p.sourceId, filter ?? {}),
    session: (p, { key }, ctx) => ctx.model.session(p.sourceId, key),
    metrics: (p, { date, range }, ctx) =>
      ctx.model.metrics(p.sourceId, { date: date ?? null, range: range ?? p.qctx.defaultRange, timeZone: p.qctx.timeZone, locale: p.qctx.locale }),
    events: (p, args, ctx) => ctx.model.events(p.sourceId, args),
    eventDensity: (p, _args, ctx) => ctx.model.eventDensity(p.sourceId, p.qctx.timeZone),
    eventCounts: (p, args, ctx) => ctx.model.eventCounts(p.sourceId, args),
    lifetimeStats: (p, _args, ctx) => ctx.model.lifetimeStats(p.sourceId),
    sessionTranscript: (p, args, ctx) => ctx.model.sessionTranscript(p.sourceId, args),
    projects: (p, { range, limit }, ctx) => ctx.model.projects(p.sourceId, { range: range ?? null, limit: limit ?? null, timeZone: p.qctx.timeZone }),
    cronJobs: (p, _args, ctx) => ctx.model.cronJobs(p.sourceId),
    usageCost: (p, _args, ctx) => ctx.model.usageCost(p.sourceId, p.qctx.timeZone),
    recentLogs: (p, { count, filter }, ctx) => ctx.model.recentLogs(p.sourceId, count, { level: filter?.level ?? null, module: filter?.module ?? null }),
  },

  Mutation: {
    restartGateway: (_root, _args, ctx) => ctx.operations.run("restart", { auth: ctx.caller.auth, peer: ctx.caller.peer }),
    updateGateway: (_root, _args, ctx) => ctx.operations.run("update", { auth: ctx.caller.auth, peer: ctx.caller.peer }),
    ...alertMutations,
  },

  Subscription: {
    dataChanged: {
      subscribe: (_root, _args, ctx) => mapIterator(ctx.live.subscribeChanges(), (change) => ({ dataChanged: change })),
    },
    logs: {
      subscribe: (_root, { filter }, ctx) => {
        if (filter?.module != null && filter.module.length > 200) throw new GraphQLError("filter.module is longer than 200 characters", { extensions: { code: "BAD_USER_INPUT" } });
        const level = (filter?.level ?? null) as LogLevel | null;
        return mapIterator(ctx.live.subscribeLogs({ level, module: filter?.module ?? null, agentId: filter?.agentId ?? null }), (entry) => ({ logs: entry }));
      },
    },
    alertChanged: {
      subscribe: (_root, _args, ctx) => mapIterator(ctx.alerts.subscribe(), (change) => ({ alertChanged: change })),
    },
  },
};

/** Wraps each item of a live channel as the subscription's payload; ending one ends the other. */
function mapIterator<T, U>(source: AsyncIterableIterator<T>, fn: (t: T) => U): AsyncIterableIterator<U> {
  const it: AsyncIterableIterator<U> = {
    next: async () => {
      const r = await source.next();
      return r.done ? { value: undefined, done: true } : { value: fn(r.value), done: false };
    },
    return: async () => {
      await source.return?.();
      return { value: undefined, done: true };
    },
    [Symbol.asyncIterator]: () => it,
  };
  return it;
}
