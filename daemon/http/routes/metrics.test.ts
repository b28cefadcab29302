// /metrics over a real Codex home: the provider-neutral token series equal the rollouts' own
// token_usage_record sums, and the plan's rate limits are gauges with the latest recorded figures.
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { manualClock } from "../../../shared/base/clock.js";
import { Pricer } from "../../../shared/pricing/pricer.js";
import { ReadModel } from "../../../shared/queries/read-model.js";
import { fixtureCollector } from "../../../test/helpers/read-model.js";
import { CodexProvider } from "../../../shared/providers/codex/provider.js";
import { copyCodexHome, makeTempDir, rawLines, removeTempDirs, rolloutFiles } from "../../../test/helpers/codex-fixture.js";
import { Store } from "../../../shared/store/store.js";
import type { HttpServer } from "../server.js";
import { buildMetrics } from "./metrics.js";
import { createHash } from "node:crypto";
import { symlinkSync, writeFileSync } from "node:fs";
import { runRetention } from "../../../shared/store/retention.js";
import { CodexAccounts } from "../../metrics/codex-account.js";

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
  const collector = fixtureCollector({ providers: [codex], side: null, store, clock });
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
  // Every label set of the cost counter has its unpriced series from the start, at 0 here (every
  // model of the fixture has a price): one born later at 1 would be missed by increase().
  const key = (l: Record<string, string>): string => JSON.stringify([l.provider, l.source, l.model, l.project]);
  const unpriced = samples(text, "insights_unpriced_responses_total");
  assert.equal(unpriced.map((u) => key(u.labels)).sort(), samples(text, "insights_cost_usd_total").map((c) => key(c.labels)).sort());
  assert.ok(unpriced.length > 0 && unpriced.every((u) => u.value === 0));
  // Sources are the providers' only, each with its provider.
  assert.equal(samples(text, "insights_source_up").map((u) => [u.labels.provider, u.labels.source, u.value]), [["codex", "codex:default", 1]]);

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

/** A store and read model over a fresh copy of the Codex fixture home, scanned once. */
async function codexModel(prepare?: (codexDir: string) => void) {
  const { home, codexDir } = copyCodexHome();
  prepare?.(codexDir);
  const clock = manualClock(Date.parse("2026-11-23T22:00:00Z"));
  const store = Store.open(join(makeTempDir(), "insights.db"), { clock });
  const codex = new CodexProvider({ env: {}, home, dirs: null, pricer: new Pricer() });
  const collector = fixtureCollector({ providers: [codex], side: null, store, clock });
  await collector.collectOnce(10_000);
  const model = new ReadModel({ store, collector, clock, appVersion: "0.1.0", startedAt: clock.now(), demo: false, openclawDir: null, timeZone: "UTC", rawDays: () => 7 });
  const accounts = new CodexAccounts();
  const scrape = (): string => buildMetrics({ model, http: { requestStats: () => [] } as unknown as HttpServer, live: () => ({ dataChanged: 0, logs: 0, dropped: 0 }), hostName: () => "box-7", accounts });
  return { codexDir, clock, store, collector, scrape, close: async () => { await collector.stop(); store.close(); } };
}

const SECRETS = { id_token: "eyJhbGciOiJSUzI1NiJ9.payload.sig", access_token: "access-secret-0001", refresh_token: "refresh-secret-0001" };
const digest = (id: string): string => `acct-${createHash("sha256").update(`gateway-insights:codex-account:${id}`).digest("hex").slice(0, 12)}`;

test("rate-limit gauges carry the account: a digest of auth.json's account_id, never the id or a token", async () => {
  const m = await codexModel((dir) => writeFileSync(join(dir, "auth.json"), JSON.stringify({ OPENAI_API_KEY: null, tokens: { ...SECRETS, account_id: "acc-42" }, last_refresh: "2026-11-23T20:00:00Z" })));
  let text = m.scrape();
  for (const family of ["insights_rate_limit_used_ratio", "insights_rate_limit_window_seconds", "insights_rate_limit_resets_timestamp_seconds", "insights_rate_limit_stale"]) {
    const got = samples(text, family);
    assert.ok(got.length > 0, family);
    for (const s of got) assert.is(s.labels.account, digest("acc-42"), family);
  }
  for (const secret of [...Object.values(SECRETS), "acc-42"]) assert.not.ok(text.includes(secret), `the exposition contains ${secret}`);
  // A new login (another account) shows at the next scrape.
  writeFileSync(join(m.codexDir, "auth.json"), JSON.stringify({ tokens: { ...SECRETS, account_id: "acc-43-longer" } }));
  text = m.scrape();
  assert.is(samples(text, "insights_rate_limit_used_ratio")[0]?.labels.account, digest("acc-43-longer"));
  await m.close();
});

test("no usable auth.json: account is unknown (API key login, a link, a huge file, no file)", async () => {
  const cases: Array<[string, (dir: string) => void]> = [
    ["an API-key login", (dir) => writeFileSync(join(dir, "auth.json"), JSON.stringify({ OPENAI_API_KEY: "sk-not-a-real-key", tokens: null }))],
    ["a symlink", (dir) => {
      const real = join(makeTempDir(), "auth.json");
      writeFileSync(real, JSON.stringify({ tokens: { account_id: "acc-via-link" } }));
      symlinkSync(real, join(dir, "auth.json"));
    }],
    ["a file of 1 MB", (dir) => writeFileSync(join(dir, "auth.json"), `{"tokens":{"account_id":"acc-big"},"pad":"${"x".repeat(1024 * 1024)}"}`)],
    ["no file", () => undefined],
  ];
  for (const [what, prepare] of cases) {
    const m = await codexModel(prepare);
    const text = m.scrape();
    const used = samples(text, "insights_rate_limit_used_ratio");
    assert.ok(used.length > 0, what);
    for (const s of used) assert.is(s.labels.account, "unknown", what);
    assert.not.match(text, /sk-not-a-real-key|acc-via-link|acc-big/, what);
    await m.close();
  }
});

test("insights_build_info names the host; every family has HELP and TYPE; retention never lowers a counter", async () => {
  const m = await codexModel();
  const text = m.scrape();
  assert.match(text, /^insights_build_info\{host="box-7",version="[^"]+"\} 1$/m);
  assert.is(text.match(/^insights_build_info/gm)?.length, 1, "one info series, no host label elsewhere");
  assert.not.match(text.replace(/^insights_build_info.*$/m, ""), /[{,]host="/);
  for (const [, name] of text.matchAll(/^([a-zA-Z_:][a-zA-Z0-9_:]*)[{ ]/gm)) {
    assert.match(text, new RegExp(`^# HELP ${name} \\S`, "m"), `HELP of ${name}`);
    assert.match(text, new RegExp(`^# TYPE ${name} (counter|gauge)$`, "m"), `TYPE of ${name}`);
  }
  const counters = (t: string): string => t.split("\n").filter((l) => /^insights_(tokens|cost_usd|responses|reasoning_tokens)_total/.test(l)).join("\n");
  const before = counters(text);
  assert.ok(before.length > 0);
  // A year later, with 1-day raw and rollup retention: every raw row and rollup is gone, the counters stay.
  const r = runRetention(m.store, { rawDays: 1, rollupDays: 1 }, m.clock.now() + 365 * 86_400_000);
  assert.ok((r.deleted.token_usage ?? 0) > 0, "retention pruned the raw usage");
  assert.is(counters(m.scrape()), before);
  await m.close();
});

test.run();
