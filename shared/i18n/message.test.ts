// Messages render in the reader's language, with plural rules, lists and the shared units; the
// plain English stays as the API always gave it.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { list, localize, localizeMessages, millis, msg, plainText, sizeMB } from "./message.js";

test("plain English: sizes in whole MB and numbers as they were", () => {
  const m = msg("health.disk.low", { used: 93.5, free: sizeMB(52344) });
  assert.is(plainText(m), "93.5% used, 52344 MB free");
  assert.is(plainText(msg("health.gateway.answered", { latency: millis(3.4) })), "healthz answered in 3.4 ms");
});

test("display: the shared units, in each language", () => {
  const m = msg("health.disk.low", { used: 93.5, free: sizeMB(52344) });
  assert.is(localize(m, "en"), "93.5% used, 51.1 GB free");
  assert.is(localize(m, "zh"), "已用 93.5%，可用 51.1 GB");
  assert.is(localize(msg("health.eventLoop.delay", { delay: millis(1200) }), "zh"), "p99 延迟 1,200 毫秒");
});

test("plurals follow the language's rule", () => {
  assert.is(plainText(msg("health.sources.connected", { n: 1 })), "1 agent connected");
  assert.is(plainText(msg("health.sources.connected", { n: 2 })), "2 agents connected");
  assert.is(localize(msg("health.channels.allDown", { n: 1 }), "en"), "the only channel is disconnected");
  assert.is(localize(msg("health.channels.allDown", { n: 3 }), "en"), "all 3 channels disconnected");
  assert.is(localize(msg("health.sources.connected", { n: 1 }), "zh"), "1 个智能体已连接");
});

test("lists and nested messages: separators and words per language", () => {
  const m = msg("health.sources.failed", {
    errors: list([msg("health.sources.agentError", { id: "agent:main", error: "database is locked" }), msg("health.sources.agentError", { id: "agent:ops", error: msg("health.sources.unknownError") })], "semicolon"),
  });
  assert.is(plainText(m), "agent:main: database is locked; agent:ops: error");
  assert.is(localize(m, "zh"), "读取失败：agent:main：database is locked；agent:ops：错误");
  assert.is(localize(msg("health.channels.someDown", { channels: list(["whatsapp", "slack"]) }), "zh"), "已断开：whatsapp、slack");
});

test("a parameter's own text is never read as a placeholder", () => {
  assert.is(localize(msg("health.store.error", { error: "bad {n} {error}" }), "zh"), "存储出错：bad {n} {error}");
});

test("localizeMessages renders what has a message id and leaves the rest", () => {
  const items = [
    { name: "a", message: "demo mode: no demo gateway answers", text: msg("health.gateway.demoNone") },
    { name: "b", message: "kept", text: null },
    { name: "c", message: null, text: null },
  ];
  assert.equal(
    localizeMessages(items, "zh").map((i) => i.message),
    ["演示模式：没有演示网关应答", "kept", null],
  );
  assert.is(items[0]?.message, "demo mode: no demo gateway answers", "the input is not changed");
});

test.run();
