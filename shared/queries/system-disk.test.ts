// The `disk` and `store` health checks: measured at the moment they are asked, and a store whose
// writes fail is a failing check (not a healthy one, and not the gateway's fault).
import { test } from "uvu";
import * as assert from "uvu/assert";
import { fixtureReadModel } from "../../test/helpers/read-model.js";
import type { SystemSnapshot } from "../providers/contract.js";
import { copyFixture, removeTempDirs, SQLITE_FIXTURE } from "../../test/helpers/openclaw-fixtures.js";
import { ok } from "../providers/result.js";
import { healthChecks } from "./system.js";

test.after(removeTempDirs);

const GB = 1024 ** 3;

/** A monitor snapshot whose disk sample (taken minutes ago) said there was plenty of room. */
function staleSnapshot(): SystemSnapshot {
  return {
    demo: true,
    checkedAt: 0,
    gateway: { running: false, url: null, port: null, pid: null, startedAt: null, uptimeSeconds: null, version: null, latencyMs: null, error: null, ready: null, failing: [], eventLoopDelayMs: null, eventLoopDegraded: null, updateAvailable: null, latestVersion: null },
    resources: { cpuPercent: null, memoryMB: null, diskMB: 12, diskFreeMB: 50_000, diskUsedPercent: 10, sampledAt: 0 },
    channels: { list: [], checkedAt: null, error: null, rpcLatencyMs: null, source: null },
  };
}

test("the disk check uses the free space measured now over the monitor's older sample", () => {
  const full = ok({ totalBytes: 100 * GB, freeBytes: 0, availableBytes: 0, usedPercent: 100 });
  const checks = healthChecks({ snapshot: staleSnapshot(), agents: [], openclawError: null, store: { ok: true }, disk: full, appVersion: "0.1.0" });
  const fail = checks.find((c) => c.name === "disk");
  assert.is(fail?.status, "FAIL");
  assert.is(fail?.message, "100% used, 0 MB free");
  const roomy = ok({ totalBytes: 100 * GB, freeBytes: 60 * GB, availableBytes: 55 * GB, usedPercent: 42.1 });
  const pass = healthChecks({ snapshot: staleSnapshot(), agents: [], openclawError: null, store: { ok: true }, disk: roomy, appVersion: "0.1.0" });
  const ok55 = pass.find((c) => c.name === "disk");
  assert.is(ok55?.status, "PASS");
  assert.is(ok55?.message, `${55 * 1024} MB free`);
});

test("a store whose writes fail is a failing store check with its reason", () => {
  const store = { ok: false, error: "ingestion stalled: writes to /s/insights.db fail since 2026-11-21T12:00:00.000Z (SQLITE_FULL: database or disk is full)", stalledSince: 0 };
  const checks = healthChecks({ snapshot: staleSnapshot(), agents: [], openclawError: null, store, appVersion: "0.1.0" });
  const st = checks.find((c) => c.name === "store");
  assert.is(st?.status, "FAIL");
  assert.is(st?.message, store.error);
});

test("the read model measures the store's filesystem when asked, before the monitor ever sampled it", async () => {
  const { model, collector } = await fixtureReadModel(copyFixture(SQLITE_FIXTURE));
  assert.is(collector.gateway?.snapshot().resources.diskUsedPercent, null, "the monitor has not sampled the disk");
  const view = model.system();
  assert.ok(view);
  const disk = view.health.checks.find((c) => c.name === "disk");
  assert.ok(disk && !/not measured/.test(disk.message ?? ""), `measured: ${JSON.stringify(disk)}`);
  assert.match(disk?.message ?? "", /[MG]B free/);
  assert.is(typeof view.resources.diskFreeMB, "number");
});

test.run();
