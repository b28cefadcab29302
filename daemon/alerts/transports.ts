// Sends one notification to one channel, once: an HTTP POST (webhook, Slack, Discord, ntfy) with a
// deadline, held to the outbound policy for channels made through the API (target-policy.ts), or
// a command hook run without a shell (config-made channels only). Retries are the queue's business; this says
// whether a retry can help. Nothing here logs, and no error text carries a secret: URLs are named
// by their origin only (a Slack or Discord URL is itself the secret).
import { createHmac } from "node:crypto";
import { lookup as dnsLookup } from "node:dns/promises";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { commandEnv, discordBody, ntfyMessage, slackBody, webhookBody, type NotificationInput } from "../../shared/alerts/format.js";
import type { AlertChannel } from "../../shared/alerts/rules.js";
import { runCommand } from "../../shared/providers/run-command.js";
import { refusedAddress, refusedUrl, STRICT_POLICY, type TargetPolicy } from "./target-policy.js";

export const SIGNATURE_HEADER = "X-Insights-Signature";
export const TIMESTAMP_HEADER = "X-Insights-Timestamp";
const EVENT_HEADER = "X-Insights-Event";

export interface SendOutcome {
  ok: boolean;
  /** A retry may succeed (network, timeout, 5xx, 408, 429); false for a refusal (other 4xx) or a bad setup. */
  retry: boolean;
  /** Safe to log and show: no secret, no URL path. */
  error: string | null;
  status?: number;
}

/** The signature of a webhook body: hex HMAC-SHA256 over `<timestamp>.<raw body>`, as `sha256=<hex>`. */
function signBody(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

/** `https://hooks.slack.com` for any URL: what may be said about where a channel points. */
export function originOf(url: string | null): string | null {
  if (!url) return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

interface HttpRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** What a channel sends (for an HTTP channel). */
function httpRequestFor(channel: AlertChannel, n: NotificationInput): HttpRequest {
  const url = channel.url as string;
  switch (channel.type) {
    case "slack":
      return { url, headers: { "content-type": "application/json" }, body: JSON.stringify(slackBody(n)) };
    case "discord":
      return { url, headers: { "content-type": "application/json" }, body: JSON.stringify(discordBody(n)) };
    case "ntfy": {
      const m = ntfyMessage(n);
      return { url, headers: { "content-type": "text/plain; charset=utf-8", ...m.headers, ...(channel.secret ? { authorization: `Bearer ${channel.secret}` } : {}) }, body: m.body };
    }
    default: {
      const body = JSON.stringify(webhookBody(n));
      const timestamp = String(Math.floor(n.sentAt / 1000));
      const headers: Record<string, string> = { "content-type": "application/json", "user-agent": "gateway-insights-alerts/1", [TIMESTAMP_HEADER]: timestamp, [EVENT_HEADER]: n.event };
      if (channel.secret) headers[SIGNATURE_HEADER] = signBody(channel.secret, timestamp, body);
      return { url, headers, body };
    }
  }
}

/** Resolves a host name to its addresses (dns.lookup's shape with `all: true`); injected by tests. */
export type Resolve = (host: string) => Promise<Array<{ address: string; family: number }>>;

const systemResolve: Resolve = (host) => dnsLookup(host, { all: true, verbatim: true });

interface HttpPolicy {
  /** The policy for this channel, or null: not checked (a config-made channel is the operator's own). */
  policy: TargetPolicy | null;
  resolve?: Resolve;
}

/** Thrown inside a request when the policy refuses where it would go; never says anything about a port. */
class Refused extends Error {
  constructor(readonly kind: string) {
    super(`refused by policy (${kind})`);
  }
}

const refusedOutcome = (where: string, kind: string): SendOutcome => ({
  ok: false,
  retry: false,
  error: `${where} refused by policy: a ${kind} address (allow it in config.json alerts.allowedHosts or alerts.allowPrivateTargets)`,
});

/**
 * One POST with node:http(s), so that where it connects can be checked: a literal address before
 * connecting, every address a name resolves to (this time: DNS may answer otherwise than when the
 * channel was made), and the socket's remote address once connected. Redirects are not followed.
 */
async function postHttp(req: HttpRequest, timeoutMs: number, signal: AbortSignal, p: HttpPolicy): Promise<SendOutcome> {
  const where = originOf(req.url) ?? "the channel's URL";
  const u = new URL(req.url);
  const host = u.hostname.replace(/^\[|\]$/g, "");
  const policy = p.policy;
  if (policy) {
    const early = refusedUrl(req.url, policy);
    if (early) return refusedOutcome(where, early);
  }
  const resolve = p.resolve ?? systemResolve;
  const lookup: LookupFunction = (hostname, options, callback) => {
    resolve(hostname).then(
      (all) => {
        const kept = policy ? all.filter((a) => refusedAddress(host, a.address, policy) === null) : all;
        if (!kept.length) {
          const kind = all.length && policy ? (refusedAddress(host, all[0]!.address, policy) ?? "refused") : null;
          const err = kind ? new Refused(kind) : Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" });
          callback(err as NodeJS.ErrnoException, "", 4);
        } else if (options.all) (callback as unknown as (e: null, a: typeof kept) => void)(null, kept);
        else callback(null, kept[0]!.address, kept[0]!.family);
      },
      (err: unknown) => callback(err as NodeJS.ErrnoException, "", 4),
    );
  };
  const deadline = AbortSignal.timeout(timeoutMs);
  const abort = AbortSignal.any([deadline, signal]);
  const send = u.protocol === "https:" ? httpsRequest : httpRequest;
  try {
    const status = await new Promise<number>((done, fail) => {
      const r = send(u, { method: "POST", headers: { ...req.headers, "content-length": String(Buffer.byteLength(req.body)) }, lookup, signal: abort, agent: false }, (res) => {
        // The answer is not read beyond what it takes to free the connection.
        res.resume();
        done(res.statusCode ?? 0);
        r.destroy();
      });
      r.on("error", fail);
      r.on("socket", (socket) => {
        socket.once("connect", () => {
          const kind = policy && socket.remoteAddress ? refusedAddress(host, socket.remoteAddress, policy) : null;
          if (kind) r.destroy(new Refused(kind));
        });
      });
      r.end(req.body);
    });
    if (status >= 200 && status < 300) return { ok: true, retry: false, error: null, status };
    const retry = status >= 500 || status === 408 || status === 429;
    return { ok: false, retry, error: `${where} answered HTTP ${status}`, status };
  } catch (err) {
    if (err instanceof Refused) return refusedOutcome(where, err.kind);
    if (signal.aborted) return { ok: false, retry: false, error: "the daemon is stopping" };
    if (deadline.aborted) return { ok: false, retry: true, error: `${where} did not answer within ${Math.round(timeoutMs / 1000)} s` };
    const cause = (err as { code?: string }).code;
    return { ok: false, retry: true, error: `could not reach ${where}${cause ? ` (${cause})` : ""}` };
  }
}

async function runHook(channel: AlertChannel, n: NotificationInput, timeoutMs: number): Promise<SendOutcome> {
  const [file, ...args] = channel.command as string[];
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/", LANG: process.env.LANG ?? "C.UTF-8", ...commandEnv(n) };
  const r = await runCommand(file as string, args, { timeoutMs, env, input: JSON.stringify(webhookBody(n)), maxOutputBytes: 4096, keep: "tail" });
  if (r.spawnError) return { ok: false, retry: false, error: `could not run ${file}: ${r.spawnError.code ?? r.spawnError.message}` };
  if (r.timedOut) return { ok: false, retry: true, error: `${file} did not finish within ${Math.round(timeoutMs / 1000)} s and was killed` };
  if (r.exitCode === 0) return { ok: true, retry: false, error: null };
  return { ok: false, retry: true, error: `${file} exited with ${r.signal ? `signal ${r.signal}` : `code ${r.exitCode}`}` };
}

export type Transport = (channel: AlertChannel, n: NotificationInput, signal: AbortSignal) => Promise<SendOutcome>;

interface TransportOptions {
  /** The outbound policy in force (read on every delivery: a SIGHUP may change it). */
  policy?: () => TargetPolicy;
  resolve?: Resolve;
}

/**
 * The real transport. A channel made through the API is held to the outbound policy, and can never
 * run a program (issue 18: a program runs only because the operator wrote it into a file they own).
 */
export function createTransport(o: TransportOptions = {}): Transport {
  return (channel, n, signal) => {
    const timeoutMs = channel.timeoutSeconds * 1000;
    const api = channel.origin === "api";
    if (channel.type === "command") {
      if (api) return Promise.resolve({ ok: false, retry: false, error: "refused by policy: command channels come from config.json only" });
      return runHook(channel, n, timeoutMs);
    }
    if (!channel.url) return Promise.resolve({ ok: false, retry: false, error: "the channel has no URL" });
    return postHttp(httpRequestFor(channel, n), timeoutMs, signal, { policy: api ? (o.policy?.() ?? STRICT_POLICY) : null, ...(o.resolve ? { resolve: o.resolve } : {}) });
  };
}
