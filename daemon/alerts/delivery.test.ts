// Delivery against real local HTTP receivers: the webhook body and its HMAC signature (checked
// here the way a receiver would), retries with backoff on 500, a receiver that never answers
// holds up neither enqueue nor another channel, bounded queues drop and count, Slack, Discord and
// ntfy formats, a command hook with the alert on stdin, and no secret in any error. The channels
// here are config-made (the operator's own, not held to the outbound policy: see outbound.test.ts).
import { createHmac, timingSafeEqual } from "node:crypto";
import { readFileSync, writeFileSync, chmodSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { pollUntil } from "../../shared/base/clock.js";
import type { NotificationInput, WebhookBody } from "../../shared/alerts/format.js";
import { resolveChannel, type ChannelInput } from "../../shared/alerts/rules.js";
import { makeTempDir, removeTempDirs } from "../../test/helpers/openclaw-fixtures.js";
import { DeliveryQueue, type DeliveryResult } from "./delivery-queue.js";
import { SIGNATURE_HEADER, TIMESTAMP_HEADER } from "./transports.js";

test.after(removeTempDirs);

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A receiver on loopback whose answer per request the test decides. */
async function receiver(answer: (n: number, req: http.IncomingMessage, res: http.ServerResponse) => void) {
  const got: Received[] = [];
  const open = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      got.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      open.add(res);
      res.on("close", () => open.delete(res));
      answer(got.length, req, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    got,
    close: async () => {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

const SECRET = "s3cr3t-hmac-key-for-the-test";
const NOW = Date.UTC(2026, 2, 10, 12, 0);

function notification(over: Partial<NotificationInput> = {}): NotificationInput {
  return {
    event: "firing",
    escalated: false,
    rule: { id: "daily-cost", name: "Daily cost budget", metric: "cost", scope: { provider: "claude-code" }, window: "day" },
    alertId: "abc123",
    subject: "",
    label: "Daily cost budget",
    severity: "warning",
    value: 8.5,
    threshold: 8,
    since: NOW,
    resolvedAt: null,
    projection: { ratePerHour: 0.7, projectedTotal: 16.8, target: 10, reachesAt: NOW + 2 * 3_600_000, reachesAtLocal: "14:00", windowEnd: NOW + 12 * 3_600_000 },
    timeZone: "UTC",
    host: "test-host",
    sentAt: NOW,
    ...over,
  };
}

const channel = (c: Partial<ChannelInput> & { url?: string }) => resolveChannel({ id: "hook", type: "webhook", ...c } as ChannelInput, "config");

/** What a receiver does: recompute the HMAC over `<timestamp>.<raw body>` and compare in constant time. */
function verify(r: Received, secret: string): boolean {
  const sig = String(r.headers[SIGNATURE_HEADER.toLowerCase()] ?? "");
  const ts = String(r.headers[TIMESTAMP_HEADER.toLowerCase()] ?? "");
  const want = Buffer.from(`sha256=${createHmac("sha256", secret).update(`${ts}.${r.body}`).digest("hex")}`);
  const have = Buffer.from(sig);
  return want.length === have.length && timingSafeEqual(want, have);
}

test("webhook: the documented JSON body, signed with HMAC-SHA256 over timestamp and raw body", async () => {
  const rx = await receiver((_n, _req, res) => res.writeHead(204).end());
  const q = new DeliveryQueue({ backoffMs: 10 });
  try {
    const r = await q.enqueue({ channel: channel({ url: `${rx.url}/hook`, secret: SECRET }), notification: notification(), eventId: 7 });
    assert.equal({ outcome: r.outcome, attempts: r.attempts, eventId: r.eventId }, { outcome: "sent", attempts: 1, eventId: 7 });
    assert.is(rx.got.length, 1);
    const got = rx.got[0]!;
    assert.ok(verify(got, SECRET), "the signature checks out with the shared secret");
    assert.not.ok(verify(got, "another-secret"), "and not with another");
    assert.not.ok(verify({ ...got, body: got.body.replace("8.5", "9.5") }, SECRET), "a changed body fails the check");
    assert.is(got.headers[TIMESTAMP_HEADER.toLowerCase()], String(NOW / 1000));
    assert.is(got.headers["content-type"], "application/json");
    const body = JSON.parse(got.body) as WebhookBody;
    assert.is(body.version, 1);
    assert.is(body.event, "firing");
    assert.equal(body.alert.rule, { id: "daily-cost", name: "Daily cost budget", metric: "cost", scope: { provider: "claude-code" }, window: "day" });
    assert.equal([body.alert.id, body.alert.severity, body.alert.value, body.alert.threshold, body.alert.unit, body.alert.since], ["abc123", "warning", 8.5, 8, "usd", "2026-03-10T12:00:00.000Z"]);
    assert.equal(body.alert.projection, { ratePerHour: 0.7, projectedTotal: 16.8, target: 10, reachesAt: "2026-03-10T14:00:00.000Z", reachesAtLocal: "14:00", windowEnd: "2026-03-11T00:00:00.000Z", timeZone: "UTC" });
    assert.match(body.alert.summary, /\[WARNING\] Daily cost budget: \$8\.50 reached \$8\.00 per day - at this pace \$10\.00 is reached at 14:00 \(UTC\)/);
    assert.is(body.host, "test-host");
    assert.is(body.sentAt, "2026-03-10T12:00:00.000Z");
    assert.not.ok(got.body.includes(SECRET));
  } finally {
    q.close();
    await rx.close();
  }
});

test("webhook: retried with backoff on 500 until it is taken; a 4xx refusal is not retried", async () => {
  const rx = await receiver((n, _req, res) => res.writeHead(n < 3 ? 500 : 200).end());
  const q = new DeliveryQueue({ backoffMs: 20, tries: 3 });
  try {
    const r = await q.enqueue({ channel: channel({ url: rx.url, secret: SECRET }), notification: notification(), eventId: null });
    assert.equal([r.outcome, r.attempts], ["sent", 3]);
    assert.is(rx.got.length, 3);
    assert.ok(rx.got.every((g) => verify(g, SECRET)), "every try is signed");
    assert.is(q.counts.retries, 2);
  } finally {
    q.close();
    await rx.close();
  }
  const refusing = await receiver((_n, _req, res) => res.writeHead(400).end());
  const q2 = new DeliveryQueue({ backoffMs: 20, tries: 3 });
  try {
    const r = await q2.enqueue({ channel: channel({ url: refusing.url }), notification: notification(), eventId: null });
    assert.equal([r.outcome, r.attempts], ["failed", 1]);
    assert.match(r.error ?? "", /answered HTTP 400/);
  } finally {
    q2.close();
    await refusing.close();
  }
});

test("a receiver that never answers: enqueue returns at once, another channel is served meanwhile, the hung one times out", async () => {
  const hang = await receiver(() => undefined); // never answers
  const ok = await receiver((_n, _req, res) => res.writeHead(200).end());
  const q = new DeliveryQueue({ backoffMs: 10, tries: 2 });
  try {
    const hungChannel = resolveChannel({ id: "hung", type: "webhook", url: hang.url, timeoutSeconds: 1 }, "config");
    const t0 = Date.now();
    const pendingHung = q.enqueue({ channel: hungChannel, notification: notification(), eventId: null });
    const second = q.enqueue({ channel: hungChannel, notification: notification({ alertId: "second" }), eventId: null });
    // enqueue never waits for the network: both calls returned a promise without blocking.
    assert.ok(Date.now() - t0 < 1000, "enqueue returned without waiting for the receiver");
    const other = await q.enqueue({ channel: channel({ url: ok.url }), notification: notification(), eventId: null });
    assert.is(other.outcome, "sent", "the other channel was served while the first hung");
    assert.is(ok.got.length, 1);
    const hung = await pendingHung;
    assert.equal([hung.outcome, hung.attempts], ["failed", 2]);
    assert.match(hung.error ?? "", /did not answer within 1 s/);
    assert.is((await second).outcome, "failed", "the hung channel's queue moves on after the timeout");
  } finally {
    q.close();
    await hang.close();
    await ok.close();
  }
});

test("bounded: past the channel's bound a notification is dropped and counted, not queued", async () => {
  const hang = await receiver(() => undefined);
  const results: DeliveryResult[] = [];
  const q = new DeliveryQueue({ maxPerChannel: 2, tries: 1, onResult: (_j, r) => results.push(r) });
  try {
    const ch = resolveChannel({ id: "slow", type: "webhook", url: hang.url, timeoutSeconds: 30 }, "config");
    const all = [0, 1, 2, 3, 4].map((i) => q.enqueue({ channel: ch, notification: notification({ alertId: `a${i}` }), eventId: i }));
    // One in flight, two waiting, two dropped at once.
    const dropped = await Promise.all([all[3], all[4]]);
    assert.equal(dropped.map((d) => d?.outcome), ["dropped", "dropped"]);
    assert.is(q.counts.dropped, 2);
    assert.is(q.pending, 3);
    q.close();
    const rest = await Promise.all(all.slice(0, 3));
    assert.ok(rest.every((r) => r.outcome !== "sent"));
    assert.is(q.pending, 0, "closing releases everything");
    assert.is(results.length, 5, "every outcome reported once");
  } finally {
    q.close();
    await hang.close();
  }
});

test("Slack, Discord and ntfy formats; a failed Slack URL is named by its origin only", async () => {
  const rx = await receiver((_n, _req, res) => res.writeHead(200).end());
  const q = new DeliveryQueue({ tries: 1 });
  try {
    const n = notification({ severity: "critical", value: 10.2, threshold: 10 });
    await q.enqueue({ channel: resolveChannel({ id: "s", type: "slack", url: `${rx.url}/services/T000/B000/XXXX` }, "config"), notification: n, eventId: null });
    await q.enqueue({ channel: resolveChannel({ id: "d", type: "discord", url: `${rx.url}/api/webhooks/1/tok` }, "config"), notification: n, eventId: null });
    await q.enqueue({ channel: resolveChannel({ id: "n", type: "ntfy", url: `${rx.url}/alerts`, secret: "tk_ntfy_token" }, "config"), notification: n, eventId: null });
    const [slack, discord, ntfy] = rx.got as [Received, Received, Received];
    const s = JSON.parse(slack.body) as { text: string; blocks: Array<{ type: string }> };
    assert.match(s.text, /^\[CRITICAL\] Daily cost budget: \$10\.20 reached \$10\.00 per day/);
    assert.equal(s.blocks.map((b) => b.type), ["section", "context"]);
    const d = JSON.parse(discord.body) as { content: string; embeds: Array<{ color: number; title: string }>; allowed_mentions: unknown };
    assert.match(d.content, /^\[CRITICAL\]/);
    assert.is(d.embeds[0]?.title, "Daily cost budget");
    assert.equal(d.allowed_mentions, { parse: [] });
    assert.match(ntfy.body, /^\[CRITICAL\] Daily cost budget/);
    assert.is(ntfy.headers.title, "critical: Daily cost budget");
    assert.is(ntfy.headers.priority, "5");
    assert.is(ntfy.headers.tags, "rotating_light");
    assert.is(ntfy.headers.authorization, "Bearer tk_ntfy_token");
  } finally {
    q.close();
    await rx.close();
  }
  // Nothing listens here any more: the error names the origin, never the path (the Slack URL is the secret).
  const q2 = new DeliveryQueue({ tries: 1 });
  const r = await q2.enqueue({ channel: resolveChannel({ id: "s", type: "slack", url: `${rx.url}/services/T000/B000/SECRETPART` }, "config"), notification: notification(), eventId: null });
  q2.close();
  assert.is(r.outcome, "failed");
  assert.ok(r.error?.includes(rx.url), r.error ?? "");
  assert.not.ok(r.error?.includes("SECRETPART"));
});

test("command hook: run without a shell, the alert as JSON on stdin and INSIGHTS_ALERT_* in its env; a hook that hangs is killed", async () => {
  const dir = makeTempDir("gi-hook-");
  const out = join(dir, "got.json");
  const script = join(dir, "hook.sh");
  writeFileSync(script, `#!/bin/sh\ncat > "$1"\nprintf '%s|%s|%s' "$INSIGHTS_ALERT_EVENT" "$INSIGHTS_ALERT_RULE" "$INSIGHTS_ALERT_SEVERITY" > "$1.env"\n`);
  chmodSync(script, 0o755);
  const q = new DeliveryQueue({ tries: 1 });
  try {
    // A `;` in an argument stays an argument: no shell reads it.
    const r = await q.enqueue({ channel: resolveChannel({ id: "cmd", type: "command", command: [script, out] }, "config"), notification: notification(), eventId: null });
    assert.is(r.outcome, "sent", r.error ?? "");
    const body = JSON.parse(readFileSync(out, "utf8")) as WebhookBody;
    assert.is(body.alert.rule.id, "daily-cost");
    assert.is(readFileSync(`${out}.env`, "utf8"), "firing|daily-cost|warning");
    const hung = await q.enqueue({ channel: resolveChannel({ id: "sleepy", type: "command", command: ["sleep", "30"], timeoutSeconds: 1 }, "config"), notification: notification(), eventId: null });
    assert.is(hung.outcome, "failed");
    assert.match(hung.error ?? "", /did not finish within 1 s/);
    const missing = await q.enqueue({ channel: resolveChannel({ id: "nope", type: "command", command: [join(dir, "no-such-program")] }, "config"), notification: notification(), eventId: null });
    assert.match(missing.error ?? "", /could not run .*ENOENT/);
  } finally {
    q.close();
  }
});

test("close: a delivery waiting for its backoff ends at once instead of keeping the daemon up", async () => {
  const rx = await receiver((_n, _req, res) => res.writeHead(503).end());
  const q = new DeliveryQueue({ backoffMs: 60_000, tries: 3 });
  try {
    const p = q.enqueue({ channel: channel({ url: rx.url }), notification: notification(), eventId: null });
    await pollUntil(() => rx.got.length === 1, { what: "the first try" });
    q.close();
    const r = await p;
    assert.is(r.outcome, "failed");
    assert.is(r.attempts, 1);
  } finally {
    await rx.close();
  }
});

test.run();
