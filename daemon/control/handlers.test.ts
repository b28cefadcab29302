// The control socket's handlers on their own, with the parts they call recorded: hostile params
// are refused with INVALID_PARAM before anything is called, and what is called gets the caller
// the socket stands for and bounded backlogs.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { InsightsError } from "../../shared/base/errors.js";
import { LogHub } from "../../shared/base/log/logger.js";
import { controlHandlers, type ControlParts } from "./handlers.js";

function parts(): { p: ControlParts; calls: unknown[][]; hub: LogHub } {
  const calls: unknown[][] = [];
  const record =
    (name: string) =>
    (...args: unknown[]): unknown => {
      calls.push([name, ...args]);
      return { id: args[0] };
    };
  // A ring larger than the cap, so the cap seen is the handler's.
  const hub = new LogHub({ console: "off", ringSize: 5000 });
  // Only what the handlers under test call is filled in: the rest is never reached.
  const alerts = { testChannel: record("testChannel"), mute: record("mute"), unmute: record("unmute"), rule: () => null };
  const p = { alerts, hub, clock: { now: () => 1_000 } } as unknown as ControlParts;
  return { p, calls, hub };
}

const refused = async (fn: () => unknown): Promise<string> => {
  try {
    await fn();
  } catch (err) {
    return err instanceof InsightsError ? err.code : `not typed: ${String(err)}`;
  }
  return "answered";
};

test("alerts.test and alerts.mute refuse a missing or empty id before calling the service", async () => {
  const { p, calls } = parts();
  const { calls: h } = controlHandlers(p);
  for (const params of [{}, { channel: "" }, { channel: 7 }]) assert.is(await refused(() => h["alerts.test"]!(params)), "INVALID_PARAM", JSON.stringify(params));
  for (const params of [{ until: 5 }, { rule: "", until: null }, { rule: ["x"] }]) assert.is(await refused(() => h["alerts.mute"]!(params)), "INVALID_PARAM", JSON.stringify(params));
  assert.equal(calls, []);
});

test("the control socket's caller is the daemon's own user; a non-number `until` is passed on as NaN for the service to refuse", async () => {
  const { p, calls } = parts();
  const { calls: h } = controlHandlers(p);
  await h["alerts.test"]!({ channel: "ops" });
  await h["alerts.mute"]!({ rule: "cost", until: "tomorrow" });
  const caller = { auth: "control-socket", peer: "" };
  assert.equal(calls, [
    ["testChannel", "ops", caller],
    ["mute", "cost", NaN, caller],
  ]);
});

test("logs.follow sends at most 1000 past records whatever backlog is asked, and only those at the level asked", () => {
  const { p, hub } = parts();
  const log = hub.logger.child("t");
  for (let i = 0; i < 1200; i++) log.warn(`w${i}`);
  log.info("quiet");
  const sent: unknown[] = [];
  const stop = controlHandlers(p).streams["logs.follow"]!({ backlog: 1e9, level: "warn" }, (r) => sent.push(r), () => undefined);
  stop();
  assert.is(sent.length, 1000);
  assert.ok(sent.every((r) => (r as { level: string }).level === "warn"));
});

test.run();
