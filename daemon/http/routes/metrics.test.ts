// /metrics over a real Codex home: the provider-neutral token series equal the rollouts' own
// token_usage_record sums, and the plan's rate limits are gauges with the latest recorded figures.
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { manualClock } from "../../../shared/clock.js";
import { Collector } from "../../../shared/ingest/collector.js";
import { LogHub } from "../../../shared/log/logger.js";
import { Pricer } from "../../../shared/pricing/pricer.js";
import { ReadModel } from "../../../shared/queries/read-model.js";
import { CodexProvider } from "../../../shared/sources/codex/provider.js";
import { copyCodexHome, makeTempDir, rawLines, removeTempDirs, rolloutFiles } from "../../../shared/sources/codex/test-fixture.js";
import { Store } from "../../../shared/store/store.js";
import type { HttpServer } from "../server.js";
import { buildMetrics } from "./metrics.js";

test.after(removeTempDirs);

/** `name{labels} value` lines of one family, labels as an object. */
function samples(text: string, name: string): Array<{ labels: Record<string, string>; value: number }> {
  const out: Array<{ labels: Record<string, string>; value: number }> = [];
  for (const line of text.split("\n")) {
    const m = line.match(new RegExp(`^${name}\\{(.*)\\} (\\S+)$`));
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[1] as string).matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[l[1] as string] = l[2] as string;
    out.push({ labels, value: Number(m[2]) });
  }
  return out;
}

test("Codex: tokens by type equal the rollouts' records; rate limits are the latest figures, as gauges", async () => {
  const { home, codexDir } = copyCodexHome();
  // Expected, from the rollout lines: usage per distinct response_id, in the shared vocabulary.
  const seen = new Set<string>();
  const want = { input: 0, output: 0, cache_read: 0 };
  let latest: { ts: number; primary: number; secondary: number } | null = null;
  for (const rel of rolloutFiles(codexDir)) {
    for (const l of rawLines(join(codexDir, rel))) {
      if (l.type === "token_usage_record" && !seen.has(l.payload.response_id)) {
        seen.add(l.payload.response_id);
        const u = l.payload.usage;
        want.input += u.input_tokens - u.cached_input_tokens;
        want.cache_read += u.cached_input_tokens;
        want.output += u.output_tokens;
      }
      const rl = l.type === "event_msg" && l.payload?.type === "token_count" ? l.payload.rate_limits : null;
      const ts = Date.parse(l.timestamp);
      if (rl?.primary && (!latest || ts >= latest.ts)) latest = { ts, primary: rl.primary.used_percent, secondary: rl.secondary.used_percent };
    }
  }
  assert.ok(seen.size > 0 && latest, "the fixture has usage and rate limits");

  const clock = manualClock(latest.ts + 60_000);
  const store = Store.open(join(makeTempDir(), "insights.db"), { clock });
  const codex = new CodexProvider({ env: {}, home, dirs: null, pricer: new Pricer() });
  const collector = new Collector({ providers: [codex], openclaw: null, stateDir: makeTempDir(), store, clock, logger: new LogHub({ console: "off" }).logger, gatewayUrl: () => null, sampleMs: 60_000 });
  await collector.collectOnce(10_000);
  const model = new ReadModel({ store, collector, clock, appVersion: "0.1.0", startedAt: clock.now(), demo: false, openclawDir: null, timeZone: "UTC", rawDays: () => 7 });
  const text = buildMetrics({ model, http: { requestStats: () => [] } as unknown as HttpServer, live: () => ({ dataChanged: 0, logs: 0, dropped: 0 }) });

  const tokens = samples(text, "insights_tokens_total");
  assert.ok(tokens.every((t) => t.labels.provider === "codex" && t.labels.source === "codex:default"));
  for (const [type, value] of Object.entries(want)) {
    const sum = tokens.filter((t) => t.labels.type === type).reduce((a, t) => a + t.value, 0);
    assert.is(sum, value, type);
  }
  assert.ok(tokens.some((t) => t.labels.project === "/home/op/projects/webshop"), "the session's project is a label");
  assert.not.match(text, /^openclaw_/m, "no OpenClaw series without OpenClaw");

  const used = samples(text, "insights_rate_limit_used_ratio");
  assert.equal(used.map((s) => [s.labels.window, s.value]).sort(), [
    ["primary", latest.primary / 100],
    ["secondary", latest.secondary / 100],
  ]);
  assert.match(text, /# TYPE insights_rate_limit_used_ratio gauge/);
  assert.is(samples(text, "insights_rate_limit_stale")[0]?.value, 0);
  await collector.stop();
  store.close();
});

test.run();
