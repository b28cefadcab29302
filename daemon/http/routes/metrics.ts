// GET /metrics: the gateway and gateway-insights in Prometheus' text format, same auth as
// /graphql. OpenClaw has no such endpoint; this is how a fleet of gateways lands in one
// Prometheus and Grafana. Names follow Prometheus conventions: base units (seconds, bytes,
// ratios), `_total` on counters, one family per quantity with labels for the breakdown.
import { isGatewaySystem, type ReadModel } from "../../../shared/queries/read-model.js";
import { hasCapability, providerIdentity, providerOfSourceId, providersWith } from "../../../shared/providers/registry.js";
import { VERSION } from "../../../shared/base/version.js";
import { effectiveHostName } from "../../../shared/config/host-name.js";
import { CodexAccounts, UNKNOWN_ACCOUNT } from "../../metrics/codex-account.js";
import { Exposition } from "../../metrics/exposition.js";
import type { HttpServer, RouteHandler } from "../server.js";
import type { AlertService } from "../../alerts/alert-service.js";

export interface MetricsRouteDeps {
  model: ReadModel;
  http: HttpServer;
  /** Live subscribers and dropped slow consumers. */
  live: () => { dataChanged: number; logs: number; dropped: number };
  /** Render figures once the snapshot renderer runs in the daemon; null before. */
  /** Alerting; absent where no daemon runs the rules. */
  alerts?: Pick<AlertService, "activeSeries" | "deliveryCounts">;
  renders?: () => { byOutcome: Array<{ format: string; outcome: string; count: number; seconds: number }>; queued: number; active: number } | null;
  /** This machine's name for insights_build_info{host} (config hostName, default the hostname); read per scrape so a reload applies. */
  hostName?: () => string;
  /** Who the Codex homes belong to (the rate-limit gauges' `account`); one per route so its cache lives as long as the daemon. */
  accounts?: CodexAccounts;
}

const MB = 1024 * 1024;
const defaultAccounts = new CodexAccounts();
const CHECK_VALUE = { PASS: 0, WARN: 1, FAIL: 2 } as const;

export function buildMetrics(d: MetricsRouteDeps): string {
  return buildExposition(d).toString();
}

/** Every family of one scrape; the text and the OTLP push (daemon/metrics/otlp.ts) are made from it. */
export function buildExposition(d: MetricsRouteDeps): Exposition {
  const { model } = d;
  const x = new Exposition();
  // One series per daemon for joins (`* on (instance) group_left (host) insights_build_info`): the
  // target labels Prometheus adds (instance, and the host set in the scrape config) say which
  // daemon a series is from, so no series carries a host label of its own (docs/fleet.md).
  x.metric("insights_build_info", "gauge", "This gateway-insights: its host name (config hostName, default the hostname) and version (value is always 1)", [{ labels: { host: d.hostName?.() ?? effectiveHostName({ hostName: null }), version: VERSION }, value: 1 }]);
  const sys = model.system();
  if (sys) {
    const gw = sys.gateway;
    x.metric("openclaw_gateway_up", "gauge", "1 when the gateway answered /healthz at the last probe", [{ value: gw.running ? 1 : 0 }]);
    x.metric("openclaw_gateway_info", "gauge", "Gateway and gateway-insights versions (value is always 1)", [{ labels: { version: gw.version ?? "unknown", insights_version: gw.appVersion, demo: String(sys.demo) }, value: 1 }]);
    x.metric("openclaw_gateway_uptime_seconds", "gauge", "Seconds since the gateway started", [{ value: gw.uptime }]);
    x.metric("openclaw_gateway_cpu_ratio", "gauge", "CPU used by the gateway's process tree, in cores (1 = one core busy)", [{ value: sys.resources.cpu === null ? null : sys.resources.cpu / 100 }]);
    x.metric("openclaw_gateway_resident_memory_bytes", "gauge", "Resident memory of the gateway's process tree", [{ value: sys.resources.memoryMB === null ? null : Math.round(sys.resources.memoryMB * MB) }]);
    x.metric("openclaw_state_dir_bytes", "gauge", "Disk used by the OpenClaw state dir", [{ value: sys.resources.diskMB === null ? null : Math.round(sys.resources.diskMB * MB) }]);
    x.metric("openclaw_gateway_probe_latency_seconds", "gauge", "Round trip of the last /healthz probe", [{ value: gw.latencyMs === null ? null : gw.latencyMs / 1000 }]);
    x.metric("openclaw_health_check_status", "gauge", "Health check result: 0 PASS, 1 WARN, 2 FAIL", sys.health.checks.map((c) => ({ labels: { check: c.name }, value: CHECK_VALUE[c.status] })));
    x.metric("openclaw_channel_connected", "gauge", "1 when the channel account is connected", sys.channels.map((c) => ({ labels: { channel: c.provider, account: c.name }, value: c.connected ? 1 : 0 })));
  }

  const agents = model.agents();
  const sessions: Array<{ labels: Record<string, string>; value: number }> = [];
  const openclawSessions: Array<{ labels: Record<string, string>; value: number }> = [];
  for (const a of agents) {
    if (a.state.status !== "CONNECTED") continue;
    const { total: _total, ...byStatus } = model.sessionCounts(a.id);
    for (const [status, n] of Object.entries(byStatus)) {
      sessions.push({ labels: { provider: a.provider, source: a.id, status: status.toLowerCase() }, value: n });
      if (hasCapability(a.provider, "gateway")) openclawSessions.push({ labels: { agent: a.agentId, status: status.toLowerCase() }, value: n });
    }
  }
  const counters = model.modelCounters();
  if (sys) {
    // OpenClaw's own series, as before the other providers came: by agent, model and vendor.
    const oc = new Map<string, { agent: string; model: string; provider: string; input: number; output: number; cacheRead: number; cacheWrite: number; costUsd: number; messages: number }>();
    for (const c of counters) {
      const owner = providerOfSourceId(c.sourceId);
      if (!owner || !hasCapability(owner, "gateway")) continue;
      const agent = c.sourceId.slice(providerIdentity(owner).sourcePrefix.length);
      const key = JSON.stringify([agent, c.model, c.provider]);
      const row = oc.get(key) ?? { agent, model: c.model || "unknown", provider: c.provider || "unknown", input: 0, output: 0, cacheRead: 0, cacheWrite: 0, costUsd: 0, messages: 0 };
      row.input += c.input;
      row.output += c.output;
      row.cacheRead += c.cacheRead;
      row.cacheWrite += c.cacheWrite;
      row.costUsd += c.costUsd;
      row.messages += c.messages;
      oc.set(key, row);
    }
    const rows = [...oc.values()];
    x.metric("openclaw_sessions", "gauge", "Sessions by agent and status (active, idle, done, failed)", openclawSessions);
    const tokens = rows.flatMap((c) =>
      (
        [
          ["input", c.input],
          ["output", c.output],
          ["cache_read", c.cacheRead],
          ["cache_write", c.cacheWrite],
        ] as const
      ).map(([type, value]) => ({ labels: { agent: c.agent, model: c.model, provider: c.provider, type }, value })),
    );
    x.metric("openclaw_tokens_total", "counter", "Tokens used, by agent, model and type (input, output, cache_read, cache_write)", tokens);
    x.metric("openclaw_cost_usd_total", "counter", "Recorded cost in US dollars, by agent and model", rows.map((c) => ({ labels: { agent: c.agent, model: c.model, provider: c.provider }, value: c.costUsd })));
    x.metric("openclaw_assistant_messages_total", "counter", "Assistant messages, by agent and model", rows.map((c) => ({ labels: { agent: c.agent, model: c.model, provider: c.provider }, value: c.messages })));
    x.metric("openclaw_log_events_total", "counter", "Classified gateway log events (error, warning, restart)", Object.entries(model.eventTotals()).map(([type, value]) => ({ labels: { type }, value })));
  }

  // Every provider in one vocabulary (design §9), so totals add up across OpenClaw, Claude Code and Codex.
  const labelsOf = (c: (typeof counters)[number]): Record<string, string> => ({
    provider: providerOfSourceId(c.sourceId) ?? "unknown",
    source: c.sourceId,
    model: c.model || "unknown",
    project: c.project,
  });
  x.metric("insights_sessions", "gauge", "Sessions by provider, source and status (active, idle, done, failed)", sessions);
  x.metric(
    "insights_tokens_total",
    "counter",
    "Tokens used, by provider, source, model, project and type (input, output, cache_read, cache_write; reasoning is part of output)",
    counters.flatMap((c) =>
      (
        [
          ["input", c.input],
          ["output", c.output],
          ["cache_read", c.cacheRead],
          ["cache_write", c.cacheWrite],
        ] as const
      ).map(([type, value]) => ({ labels: { ...labelsOf(c), type }, value })),
    ),
  );
  x.metric("insights_reasoning_tokens_total", "counter", "Output tokens that were reasoning, by provider, source, model and project", counters.map((c) => ({ labels: labelsOf(c), value: c.reasoning })));
  x.metric("insights_cost_usd_total", "counter", "Cost in US dollars (recorded, or priced from the shipped price data set), by provider, source, model and project", counters.map((c) => ({ labels: labelsOf(c), value: c.costUsd })));
  x.metric("insights_responses_total", "counter", "Billable model responses, by provider, source, model and project", counters.map((c) => ({ labels: labelsOf(c), value: c.messages })));
  // Every label set the other counters have, at 0 until a response goes unpriced: Prometheus counts
  // no increase for a series' first sample, so a series born at 1 would never show in increase().
  x.metric("insights_unpriced_responses_total", "counter", "Responses whose model has no known price (their cost is not in insights_cost_usd_total)", counters.map((c) => ({ labels: labelsOf(c), value: c.unpriced })));

  // The plan's quota (Codex): gauges, never counters, and never to be added up: the quota belongs
  // to the account, and every machine using it reports the same figure.
  const read = model.providers();
  const limited = providersWith("rateLimits").filter((p) => read.includes(p));
  const limits = limited.flatMap((p) => {
    const sys = model.systemOf(p);
    return isGatewaySystem(sys) ? [] : sys.rateLimits.map((l) => ({ ...l, provider: p }));
  });
  const windows = limits.flatMap((l) =>
    (["primary", "secondary"] as const).flatMap((w) => {
      const win = l[w];
      return win ? [{ l, w, win }] : [];
    }),
  );
  // The account (a digest of the login's account id, codex-account.ts) tells one quota from another:
  // machines on the same account report the same figure, so a fleet takes max by (account), never sum.
  const accounts = d.accounts ?? defaultAccounts;
  const homes = new Map(model.agents().filter((a) => hasCapability(a.provider, "rateLimits")).map((a) => [a.id, a.dir]));
  const accountOf = (source: string): string => {
    const home = homes.get(source);
    return home === undefined ? UNKNOWN_ACCOUNT : accounts.account(home);
  };
  const limitLabels = (l: (typeof limits)[number], w: string): Record<string, string> => ({ provider: l.provider, source: l.source, account: accountOf(l.source), limit: l.limitId ?? "unknown", window: w });
  x.metric("insights_rate_limit_used_ratio", "gauge", "Share of a rate-limit window used (1 = the limit), as the provider last recorded it", windows.map(({ l, w, win }) => ({ labels: limitLabels(l, w), value: win.usedPercent / 100 })));
  x.metric("insights_rate_limit_window_seconds", "gauge", "Length of the rate-limit window", windows.map(({ l, w, win }) => ({ labels: limitLabels(l, w), value: win.windowMinutes === null ? null : win.windowMinutes * 60 })));
  x.metric("insights_rate_limit_resets_timestamp_seconds", "gauge", "When the rate-limit window resets (Unix time)", windows.map(({ l, w, win }) => ({ labels: limitLabels(l, w), value: win.resetsAt === null ? null : Date.parse(win.resetsAt) / 1000 })));
  x.metric("insights_rate_limit_stale", "gauge", "1 when the window has reset since the figures were recorded", limits.map((l) => ({ labels: { provider: l.provider, source: l.source, account: accountOf(l.source), limit: l.limitId ?? "unknown" }, value: l.stale ? 1 : 0 })));

  // The providers' sources only: the daemon's own `dashboard:self` is not a data source an operator watches.
  x.metric(
    "insights_source_up",
    "gauge",
    "1 when the data source is CONNECTED",
    model.sources().flatMap((s) => {
      const provider = providerOfSourceId(s.id);
      return provider ? [{ labels: { provider, source: s.id, status: s.status.toLowerCase() }, value: s.status === "CONNECTED" ? 1 : 0 }] : [];
    }),
  );
  const stats = d.http.requestStats();
  x.metric("insights_http_requests_total", "counter", "HTTP requests served, by route, method and status", stats.map((s) => ({ labels: { route: s.route, method: s.method, status: s.status }, value: s.count })));
  x.metric("insights_http_requests_in_flight", "gauge", "HTTP requests being served, open event streams and this scrape included", [{ value: d.http.requestsInFlight }]);
  x.metric("insights_http_request_duration_seconds_total", "counter", "Time spent serving HTTP requests, by route", aggregate(stats, (s) => s.route, (s) => s.seconds).map(([route, value]) => ({ labels: { route }, value })));
  const live = d.live();
  x.metric("insights_subscribers", "gauge", "Open GraphQL subscriptions", [
    { labels: { subscription: "dataChanged" }, value: live.dataChanged },
    { labels: { subscription: "logs" }, value: live.logs },
  ]);
  x.metric("insights_dropped_subscribers_total", "counter", "Subscribers dropped because they fell behind", [{ value: live.dropped }]);
  const renders = d.renders?.() ?? null;
  if (renders) {
    x.metric("insights_renders_total", "counter", "Snapshot renders, by format and outcome", renders.byOutcome.map((r) => ({ labels: { format: r.format, outcome: r.outcome }, value: r.count })));
    x.metric("insights_render_duration_seconds_total", "counter", "Time spent rendering snapshots, by format", aggregate(renders.byOutcome, (r) => r.format, (r) => r.seconds).map(([format, value]) => ({ labels: { format }, value })));
    x.metric("insights_render_queue", "gauge", "Snapshot renders running and waiting", [
      { labels: { state: "active" }, value: renders.active },
      { labels: { state: "queued" }, value: renders.queued },
    ]);
  }
  if (d.alerts) {
    // One series per enabled rule and severity it has: 1 while an alert of the rule fires at that
    // severity, else 0 (present, so a dashboard tells "quiet" from "not measured").
    x.metric("insights_alert_active", "gauge", "1 while an alert of the rule fires at this severity, else 0 (one series per enabled rule and severity it defines)", d.alerts.activeSeries().map((a) => ({ labels: { rule: a.rule, severity: a.severity }, value: a.value })));
    const n = d.alerts.deliveryCounts();
    x.metric("insights_alert_notifications_total", "counter", "Alert notifications by outcome: sent, failed (after every try) or dropped (queue full, or the daemon stopping)", [
      { labels: { outcome: "sent" }, value: n.sent },
      { labels: { outcome: "failed" }, value: n.failed },
      { labels: { outcome: "dropped" }, value: n.dropped },
    ]);
    x.metric("insights_alert_notifications_pending", "gauge", "Alert notifications waiting or being sent", [{ value: n.pending }]);
  }
  const dash = model.dashboard();
  x.metric("insights_store_bytes", "gauge", "Size of gateway-insights' own SQLite store", [{ value: dash.store.sizeBytes }]);
  x.metric("insights_uptime_seconds", "gauge", "Seconds since gateway-insights started", [{ value: dash.uptimeSeconds }]);
  x.metric("insights_resident_memory_bytes", "gauge", "Resident memory of the gateway-insights daemon", [{ value: process.memoryUsage.rss() }]);
  return x;
}

function aggregate<T>(items: readonly T[], key: (t: T) => string, value: (t: T) => number): Array<[string, number]> {
  const m = new Map<string, number>();
  for (const i of items) m.set(key(i), (m.get(key(i)) ?? 0) + value(i));
  return [...m.entries()];
}

export function metricsRoute(d: MetricsRouteDeps): RouteHandler {
  const deps = { ...d, accounts: d.accounts ?? new CodexAccounts() };
  return (_req, res) => {
    const text = buildMetrics(deps);
    res.writeHead(200, { "Content-Type": "text/plain; version=0.0.4; charset=utf-8", "Content-Length": Buffer.byteLength(text) });
    res.end(text);
  };
}
