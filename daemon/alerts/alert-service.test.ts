// Who may create what through the API (issue 18 items 1-4), on the alert service over a real
// store: no command channel from the API (and a stored one from before is ignored, never run),
// refused targets at creation and update, a changed URL drops the secret, the config's caps.
import { receiver } from "../../test/helpers/http-receiver.js";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { manualClock } from "../../shared/base/clock.js";
import { InsightsError } from "../../shared/base/errors.js";
import type { Logger } from "../../shared/base/log/logger.js";
import { MAX_CHANNELS, MAX_RULES } from "../../shared/alerts/rules.js";
import { Store } from "../../shared/store/store.js";
import { makeTempDir, removeTempDirs } from "../../test/helpers/openclaw-fixtures.js";
import type { Caller } from "../../shared/alerts/views.js";
import { AlertService } from "./alert-service.js";
import { AlertStore } from "./alert-store.js";

test.after(removeTempDirs);

const BY: Caller = { auth: "bearer", peer: "127.0.0.1" };

function recordingLogger(lines: string[]): Logger {
  const log = (msg: string, fields?: Record<string, unknown>): void => void lines.push(`${msg} ${JSON.stringify(fields ?? {})}`);
  const l: Logger = { trace: log, debug: log, info: log, warn: log, error: log, fatal: log, child: () => l };
  return l;
}

function service(alerts: Record<string, unknown> | null, store = Store.open(join(makeTempDir("gi-alerts-"), "insights.db"), { clock: manualClock() }), lines: string[] = []) {
  const s = new AlertService({
    store,
    clock: manualClock(),
    logger: recordingLogger(lines),
    config: () => alerts,
    inputs: () => {
      throw new Error("not evaluated in these tests");
    },
    defaultTimeZone: "UTC",
  });
  return { s, store, lines };
}

function codeOf(f: () => unknown): string | null {
  try {
    f();
    return null;
  } catch (err) {
    return err instanceof InsightsError ? err.code : `not typed: ${String(err)}`;
  }
}

test("a command channel cannot be made or made into one through the API; a config-made one can be tested", async () => {
  const dir = makeTempDir("gi-cmd-");
  const { s } = service({ channels: [{ id: "log", type: "command", command: ["/bin/sh", "-c", `echo ran > ${join(dir, "ran")}`] }, { id: "ops", type: "webhook", url: "https://hooks.example.com/x" }] });
  try {
    assert.is(codeOf(() => s.addChannel({ id: "x", type: "command", command: ["/bin/sh", "-c", "id"] }, BY)), "FORBIDDEN_CHANNEL_TYPE");
    assert.is(codeOf(() => s.addChannel({ id: "x", type: "command" }, BY)), "FORBIDDEN_CHANNEL_TYPE", "refused before any other check");
    s.addChannel({ id: "mine", type: "webhook", url: "https://hooks.example.com/y" }, BY);
    assert.is(codeOf(() => s.updateChannel("mine", { type: "command", command: ["id"] }, BY)), "FORBIDDEN_CHANNEL_TYPE");
    assert.is(codeOf(() => s.updateChannel("mine", { command: ["id"] }, BY)), "FORBIDDEN_CHANNEL_TYPE");
    const r = await s.testChannel("log", BY);
    assert.is(r.outcome, "sent", r.error ?? "");
  } finally {
    s.close();
  }
});

test("a command channel stored through the API before this rule is ignored with a warning, never run", async () => {
  const store = Store.open(join(makeTempDir("gi-alerts-"), "insights.db"), { clock: manualClock() });
  new AlertStore(store).putChannel("old", JSON.stringify({ id: "old", type: "command", command: ["/bin/sh", "-c", "id"] }), 0);
  const { s, lines } = service(null, store);
  try {
    assert.equal(s.channelViews(), []);
    assert.ok(lines.some((l) => l.startsWith("ignoring a command alert channel made through the API") && l.includes('"old"')), lines.join("\n"));
    let code: string | null = null;
    await s.testChannel("old", BY).catch((err: InsightsError) => (code = err.code));
    assert.is(code, "NOT_FOUND");
  } finally {
    s.close();
  }
});

test("refused targets at creation and update answer TARGET_REFUSED; config.json's allowedHosts opens one", () => {
  const { s } = service({ allowedHosts: ["127.0.0.1"] });
  try {
    for (const url of ["http://169.254.169.254/", "http://metadata.google.internal/", "http://[fd00:ec2::254]/", "http://0.0.0.0/", "http://0x7f000002/", "http://[::ffff:10.0.0.1]/", "http://localhost/"]) {
      assert.is(codeOf(() => s.addChannel({ id: "x", type: "webhook", url }, BY)), "TARGET_REFUSED", url);
    }
    s.addChannel({ id: "x", type: "ntfy", url: "https://ntfy.sh/topic" }, BY);
    assert.is(codeOf(() => s.updateChannel("x", { url: "http://192.168.0.10/topic" }, BY)), "TARGET_REFUSED");
    assert.is(s.addChannel({ id: "y", type: "webhook", url: "http://127.0.0.1:9/x" }, BY).id, "y", "allowed in config.json");
  } finally {
    s.close();
  }
});

test("a changed URL drops the ntfy token and the webhook signing key unless the same call sets one", async () => {
  const first = await receiver();
  const second = await receiver();
  const { s } = service({ allowedHosts: ["127.0.0.1"] });
  try {
    s.addChannel({ id: "n", type: "ntfy", url: `${first.url}/topic`, secret: "tk_private" }, BY);
    s.addChannel({ id: "w", type: "webhook", url: `${first.url}/hook`, secret: "whsec-private" }, BY);
    assert.is((await s.testChannel("n", BY)).outcome, "sent");
    assert.is((await s.testChannel("w", BY)).outcome, "sent");
    assert.is(first.got[0]?.authorization, "Bearer tk_private");
    assert.ok(first.got[1]?.["x-insights-signature"]);
    assert.is(s.updateChannel("n", { url: `${second.url}/topic` }, BY).secretSet, false);
    assert.is(s.updateChannel("w", { url: `${second.url}/hook` }, BY).secretSet, false);
    assert.is((await s.testChannel("n", BY)).outcome, "sent");
    assert.is((await s.testChannel("w", BY)).outcome, "sent");
    assert.is(second.got.length, 2);
    assert.is(second.got[0]?.authorization, undefined, "no token to the new address");
    assert.is(second.got[1]?.["x-insights-signature"], undefined, "no signature with the old key");
    // Set in the same call: kept. Another field changed: the secret stays.
    assert.is(s.updateChannel("n", { url: `${first.url}/topic`, secret: "tk_new" }, BY).secretSet, true);
    assert.is(s.updateChannel("n", { name: "Phone" }, BY).secretSet, true);
  } finally {
    s.close();
    await first.close();
    await second.close();
  }
});

test("the API holds rules and channels to the config's caps: LIMIT_REACHED beyond", () => {
  const { s } = service(null);
  try {
    for (let i = 0; i < MAX_CHANNELS; i++) s.addChannel({ id: `c${i}`, type: "webhook", url: "https://hooks.example.com/x" }, BY);
    assert.is(codeOf(() => s.addChannel({ id: "one-more", type: "webhook", url: "https://hooks.example.com/x" }, BY)), "LIMIT_REACHED");
    assert.is(s.channelViews().length, MAX_CHANNELS);
    for (let i = 0; i < MAX_RULES; i++) s.addRule({ id: `r${i}`, metric: "errors", warning: 5 }, BY);
    assert.is(codeOf(() => s.addRule({ id: "one-more", metric: "errors", warning: 5 }, BY)), "LIMIT_REACHED");
    s.deleteChannel("c0", BY);
    assert.is(s.addChannel({ id: "one-more", type: "webhook", url: "https://hooks.example.com/x" }, BY).id, "one-more", "room again after a delete");
  } finally {
    s.close();
  }
});

test("rows stored past the caps before there were any are not loaded, with one warning", () => {
  const store = Store.open(join(makeTempDir("gi-alerts-"), "insights.db"), { clock: manualClock() });
  const db = new AlertStore(store);
  for (let i = 0; i < MAX_CHANNELS + 20; i++) db.putChannel(`c${String(i).padStart(4, "0")}`, JSON.stringify({ id: `c${String(i).padStart(4, "0")}`, type: "webhook", url: "https://hooks.example.com/x" }), 0);
  const { s, lines } = service(null, store);
  try {
    assert.is(s.channelViews().length, MAX_CHANNELS);
    assert.is(lines.filter((l) => l.startsWith("ignoring alert channels made through the API past the first")).length, 1);
    assert.is(codeOf(() => s.addChannel({ id: "more", type: "webhook", url: "https://hooks.example.com/x" }, BY)), "LIMIT_REACHED");
  } finally {
    s.close();
  }
});

test.run();
