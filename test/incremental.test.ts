// Incremental reading through a real daemon: appended transcript events and log lines are counted
// once; lines written while the daemon was down are read after its restart, and nothing is
// counted twice; a log rotation loses no line.
import { appendFileSync, readdirSync, renameSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { pollUntil } from "../shared/base/clock.js";
import { FILES_FIXTURE, removeTempDirs } from "./helpers/openclaw-fixtures.js";
import { gqlData, startDaemon, type TestDaemon } from "./helpers/daemon.js";

test.after(removeTempDirs);

interface Figures {
  tokens: number;
  users: number;
  warnings: number;
  isReady: boolean;
}

async function figures(d: TestDaemon): Promise<Figures> {
  const r = await gqlData<{ source: { lifetimeStats: { totalTokens: number; totalUserMessages: number; isReady: boolean }; eventCounts: { warning: number } } }>(
    d,
    `{ source(selector: { id: "agent:main" }) { ... on AgentNamespace { lifetimeStats { totalTokens totalUserMessages isReady } eventCounts { warning } } } }`,
  );
  const l = r.source.lifetimeStats;
  return { tokens: l.totalTokens, users: l.totalUserMessages, warnings: r.source.eventCounts.warning, isReady: l.isReady };
}

let n = 0;
/** One user + one assistant message of `tokens` input tokens, appended to the first transcript. */
function appendTurn(dir: string, tokens: number): void {
  const sessions = join(dir, "agents", "main", "sessions");
  const file = readdirSync(sessions).find((f) => /^[0-9a-f-]{36}\.jsonl$/.test(f)) as string;
  const ts = "2026-11-21T23:19:30.000Z";
  n++;
  const user = { type: "message", id: `u${n}`, parentId: null, timestamp: ts, message: { role: "user", content: `turn ${n}` } };
  const reply = { type: "message", id: `a${n}`, parentId: `u${n}`, timestamp: ts, message: { role: "assistant", content: [{ type: "text", text: "ok" }], model: "fake-model", provider: "fakellm", usage: { input: tokens, output: 0, cacheRead: 0, cacheWrite: 0, cost: { total: 0 } } } };
  appendFileSync(join(sessions, file), `${JSON.stringify(user)}\n${JSON.stringify(reply)}\n`);
}

function warnLine(message: string): string {
  return JSON.stringify({ "0": '{"subsystem":"diagnostic"}', "1": message, _meta: { logLevelName: "WARN" }, time: "2026-11-21T23:19:40.000+00:00", message }) + "\n";
}

test("appended, written while down, and across a rotation: each line counted exactly once", async () => {
  const first = await startDaemon({ fixture: FILES_FIXTURE });
  const log = join(first.openclawDir, "logs", "openclaw-2026-11-21.log");
  let second: TestDaemon | undefined;
  try {
    const f0 = await pollUntil(async () => {
      const f = await figures(first);
      return f.isReady ? f : null;
    }, { what: "the first scan" });

    appendTurn(first.openclawDir, 1000);
    appendFileSync(log, warnLine("appended while running"));
    const f1 = await pollUntil(async () => {
      const f = await figures(first);
      return f.tokens === f0.tokens + 1000 && f.warnings === f0.warnings + 1 ? f : null;
    }, { what: "the appended turn and log line" });
    assert.is(f1.users, f0.users + 1);
    await first.stop({ keep: true });

    // Written while no daemon runs.
    appendTurn(first.openclawDir, 200);
    appendFileSync(log, warnLine("appended while down"));

    second = await startDaemon({ again: first });
    const daemon = second;
    const f2 = await pollUntil(async () => {
      const f = await figures(daemon);
      return f.isReady && f.warnings === f1.warnings + 1 && f.tokens === f1.tokens + 200 ? f : null;
    }, { what: "the lines written while down" });
    assert.is(f2.users, f1.users + 1, "the earlier turns are not counted again");

    // Rotation: the active file becomes .1 with a line the daemon has not read yet, and a new file starts.
    appendFileSync(log, warnLine("last line before the rotation"));
    renameSync(log, log.replace(/\.log$/, ".1.log"));
    appendFileSync(log, warnLine("first line after the rotation"));
    const f3 = await pollUntil(async () => {
      const f = await figures(daemon);
      return f.warnings >= f2.warnings + 2 ? f : null;
    }, { what: "both lines around the rotation" });
    assert.is(f3.warnings, f2.warnings + 2, "no line lost, none twice");
    const logs = await gqlData<{ source: { recentLogs: Array<{ message: string }> } }>(daemon, `{ source(selector: { id: "agent:main" }) { ... on AgentNamespace { recentLogs(count: 3) { message } } } }`);
    assert.equal(logs.source.recentLogs.map((l) => l.message).slice(-2), ["last line before the rotation", "first line after the rotation"]);
  } finally {
    await second?.stop();
    await first.stop().catch(() => undefined);
  }
});

test.run();
