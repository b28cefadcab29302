// Delivery of channels made through the API (issue 18 items 2 and 4): the address actually
// connected to is checked after DNS on every delivery (a name that resolves to loopback now is
// refused, the receiver never hears of it), a refused target says "refused by policy" the same way
// whether its port is open or closed, config.json's allowance opens loopback, an API-made command
// channel never runs, at most 4 deliveries are in flight across all channels, and a test is one try.
import { receiver } from "../../test/helpers/http-receiver.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { NotificationInput } from "../../shared/alerts/format.js";
import { resolveChannel, type ChannelInput } from "../../shared/alerts/rules.js";
import { DeliveryQueue } from "./delivery-queue.js";
import { STRICT_POLICY } from "./target-policy.js";
import type { SendOutcome, Transport } from "./transports.js";

const NOW = Date.UTC(2026, 2, 10, 12, 0);
const n: NotificationInput = {
  event: "test",
  escalated: false,
  rule: { id: "gateway-down", name: "Gateway down", metric: "gateway_down", scope: {}, window: null },
  alertId: "t",
  subject: "",
  label: "Gateway down",
  severity: "warning",
  value: 1,
  threshold: 1,
  since: NOW,
  resolvedAt: null,
  projection: null,
  timeZone: "UTC",
  host: "h",
  sentAt: NOW,
};

const api = (c: Partial<ChannelInput>) => resolveChannel({ id: "hook", type: "webhook", ...c } as ChannelInput, "api");

test("a name that resolves to loopback at delivery time is refused; the receiver hears nothing", async () => {
  const rx = await receiver();
  // The name was public when the channel was made; DNS now answers 127.0.0.1.
  const q = new DeliveryQueue({ tries: 1, policy: () => STRICT_POLICY, resolve: async () => [{ address: "127.0.0.1", family: 4 }] });
  try {
    const r = await q.enqueue({ channel: api({ url: `http://hooks.example.com:${rx.port}/x` }), notification: n, eventId: null });
    assert.is(r.outcome, "failed");
    assert.match(r.error ?? "", /refused by policy: a loopback address/);
    assert.is(rx.got.length, 0);
    // Among several addresses only the refused ones are dropped: a mixed answer never reaches loopback.
    const mixed = new DeliveryQueue({ tries: 1, resolve: async () => [{ address: "::1", family: 6 }, { address: "127.0.0.2", family: 4 }] });
    const m = await mixed.enqueue({ channel: api({ url: `http://hooks.example.com:${rx.port}/x` }), notification: n, eventId: null });
    mixed.close();
    assert.match(m.error ?? "", /refused by policy/);
    assert.is(rx.got.length, 0);
  } finally {
    q.close();
    await rx.close();
  }
});

test("config.json's allowance: the same name and a loopback literal are delivered", async () => {
  const rx = await receiver();
  const q = new DeliveryQueue({ tries: 1, policy: () => ({ allowPrivate: false, allowedHosts: ["127.0.0.1"] }), resolve: async () => [{ address: "127.0.0.1", family: 4 }] });
  try {
    const byName = await q.enqueue({ channel: api({ url: `http://hooks.example.com:${rx.port}/x` }), notification: n, eventId: null });
    assert.is(byName.outcome, "sent", byName.error ?? "");
    const literal = await q.enqueue({ channel: api({ url: `${rx.url}/x` }), notification: n, eventId: null });
    assert.is(literal.outcome, "sent", literal.error ?? "");
    assert.is(rx.got.length, 2);
  } finally {
    q.close();
    await rx.close();
  }
});

test("no port oracle: an open and a closed loopback port are refused alike, in every spelling", async () => {
  const rx = await receiver();
  const closed = await receiver();
  await closed.close();
  const q = new DeliveryQueue({ tries: 1 });
  try {
    const errors: string[] = [];
    for (const port of [rx.port, closed.port]) {
      for (const host of ["127.0.0.1", "127.1", "0x7f000001", "2130706433", "[::ffff:127.0.0.1]", "localhost", "0.0.0.0"]) {
        const r = await q.enqueue({ channel: api({ url: `http://${host}:${port}/x` }), notification: n, eventId: null });
        assert.is(r.outcome, "failed");
        errors.push((r.error ?? "").replace(/^http:\/\/\S+ /, ""));
      }
    }
    assert.ok(errors.every((e) => /^refused by policy: a (loopback|unspecified) address/.test(e)), errors.join("\n"));
    assert.not.ok(errors.some((e) => /ECONNREFUSED|HTTP \d/.test(e)));
    assert.is(rx.got.length, 0);
  } finally {
    q.close();
    await rx.close();
  }
});

test("a command channel made through the API never runs; a config-made one does", async () => {
  const q = new DeliveryQueue({ tries: 1 });
  try {
    const r = await q.enqueue({ channel: resolveChannel({ id: "c", type: "command", command: ["true"] }, "api"), notification: n, eventId: null });
    assert.equal([r.outcome, r.error], ["failed", "refused by policy: command channels come from config.json only"]);
    const ok = await q.enqueue({ channel: resolveChannel({ id: "c", type: "command", command: ["true"] }, "config"), notification: n, eventId: null });
    assert.is(ok.outcome, "sent");
  } finally {
    q.close();
  }
});

test("one firing to 200 channels: at most 4 deliveries in flight, the rest wait and are all sent", async () => {
  let inFlight = 0;
  let most = 0;
  const release: Array<() => void> = [];
  const transport: Transport = () =>
    new Promise<SendOutcome>((resolve) => {
      inFlight++;
      most = Math.max(most, inFlight);
      release.push(() => {
        inFlight--;
        resolve({ ok: true, retry: false, error: null });
      });
    });
  const q = new DeliveryQueue({ transport, tries: 1 });
  try {
    const all = Array.from({ length: 200 }, (_, i) => q.enqueue({ channel: resolveChannel({ id: `c${i}`, type: "command", command: ["true"] }, "config"), notification: n, eventId: i }));
    let done = 0;
    // Each round frees what is in flight; the next ones start in their turn.
    while (done < 200) {
      await new Promise((r) => setImmediate(r));
      const batch = release.splice(0);
      assert.ok(batch.length <= 4, `${batch.length} in flight`);
      if (!batch.length) continue;
      for (const f of batch) f();
      done += batch.length;
    }
    const results = await Promise.all(all);
    assert.ok(results.every((r) => r.outcome === "sent"));
    assert.is(most, 4);
  } finally {
    q.close();
  }
});

test("a test is one try within the channel's timeout, even when a retry could help", async () => {
  let tries = 0;
  const transport: Transport = async () => {
    tries++;
    return { ok: false, retry: true, error: "HTTP 503" };
  };
  const q = new DeliveryQueue({ transport, tries: 3, backoffMs: 10 });
  try {
    const r = await q.sendOnce({ channel: api({ url: "https://hooks.example.com/x" }), notification: n, eventId: null });
    assert.equal([r.outcome, r.attempts, tries], ["failed", 1, 1]);
  } finally {
    q.close();
  }
});

test.run();
