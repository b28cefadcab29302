// Sends one notification to one channel, once: an HTTP POST (webhook, Slack, Discord, ntfy) with a
// deadline, or a command hook run without a shell. Retries are the queue's business; this says
// whether a retry can help. Nothing here logs, and no error text carries a secret: URLs are named
// by their origin only (a Slack or Discord URL is itself the secret).
import { createHmac } from "node:crypto";
import { commandEnv, discordBody, ntfyMessage, slackBody, webhookBody, type NotificationInput } from "../../shared/alerts/format.js";
import type { AlertChannel } from "../../shared/alerts/rules.js";
import { runCommand } from "../../shared/sources/run-command.js";

export const SIGNATURE_HEADER = "X-Insights-Signature";
export const TIMESTAMP_HEADER = "X-Insights-Timestamp";
export const EVENT_HEADER = "X-Insights-Event";

export interface SendOutcome {
  ok: boolean;
  /** A retry may succeed (network, timeout, 5xx, 408, 429); false for a refusal (other 4xx) or a bad setup. */
  retry: boolean;
  /** Safe to log and show: no secret, no URL path. */
  error: string | null;
  status?: number;
}

/** The signature of a webhook body: hex HMAC-SHA256 over `<timestamp>.<raw body>`, as `sha256=<hex>`. */
export function signBody(secret: string, timestamp: string, body: string): string {
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

export interface HttpRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** What a channel sends (for an HTTP channel). */
export function httpRequestFor(channel: AlertChannel, n: NotificationInput): HttpRequest {
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

async function postHttp(req: HttpRequest, timeoutMs: number, signal: AbortSignal): Promise<SendOutcome> {
  const where = originOf(req.url) ?? "the channel's URL";
  const deadline = AbortSignal.timeout(timeoutMs);
  try {
    const res = await fetch(req.url, { method: "POST", headers: req.headers, body: req.body, redirect: "manual", signal: AbortSignal.any([deadline, signal]) });
    // The answer is not read beyond what it takes to free the connection.
    await res.body?.cancel().catch(() => undefined);
    if (res.status >= 200 && res.status < 300) return { ok: true, retry: false, error: null, status: res.status };
    const retry = res.status >= 500 || res.status === 408 || res.status === 429;
    return { ok: false, retry, error: `${where} answered HTTP ${res.status}`, status: res.status };
  } catch (err) {
    if (signal.aborted) return { ok: false, retry: false, error: "the daemon is stopping" };
    if (deadline.aborted) return { ok: false, retry: true, error: `${where} did not answer within ${Math.round(timeoutMs / 1000)} s` };
    const cause = (err as { cause?: { code?: string } }).cause?.code;
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

export const defaultTransport: Transport = (channel, n, signal) => {
  const timeoutMs = channel.timeoutSeconds * 1000;
  if (channel.type === "command") return runHook(channel, n, timeoutMs);
  if (!channel.url) return Promise.resolve({ ok: false, retry: false, error: "the channel has no URL" });
  return postHttp(httpRequestFor(channel, n), timeoutMs, signal);
};
