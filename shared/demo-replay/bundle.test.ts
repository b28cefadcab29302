// The bundled demo state (shared/demo, written by test/tools/demo/build-demo-state.ts) as shipped: demo
// content only, and usage that is what the rows say. Read from an installed copy: opening the
// bundle's databases in place would leave -wal/-shm files in the package.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { makeTempDir, removeTempDirs } from "../../test/helpers/openclaw-fixtures.js";
import { demoRoot, installDemoState } from "./install.js";

test.after(removeTempDirs);

type Json = Record<string, unknown>;

const FORBIDDEN = ["FAKE-LLM", "fakellm", "fake-model", "chatcmpl-fake", "@@", "END_OPENCLAW_INTERNAL_CONTEXT", "hi from probe", "probe-every-2m", "fixture-gateway-token"];

function install(): string {
  const dir = join(makeTempDir(), "openclaw-state");
  installDemoState(dir, { now: Date.now() });
  return dir;
}

function texts(dir: string, out: { where: string; text: string }[] = []): { where: string; text: string }[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) texts(p, out);
    else if (e.name.endsWith(".sqlite")) {
      const db = new Database(p, { readonly: true });
      try {
        for (const { name } of db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]) {
          out.push({ where: `${p} ${name}`, text: JSON.stringify(db.prepare(`SELECT * FROM "${name}"`).all()) });
        }
      } finally {
        db.close();
      }
    } else if (!e.name.endsWith("-wal") && !e.name.endsWith("-shm")) out.push({ where: p, text: readFileSync(p, "utf8") });
  }
  return out;
}

test("no fake-model text or test markers anywhere: databases, log, config, lock, gateway answers", () => {
  const all = [...texts(install()), ...texts(join(demoRoot(), "gateway"))];
  assert.ok(all.length > 50);
  for (const { where, text } of all) for (const bad of FORBIDDEN) assert.not.ok(text.includes(bad), `${where} holds "${bad}"`);
});

test("every assistant message's usage adds up and is priced at the configured model's rates", () => {
  const dir = install();
  const config = JSON.parse(readFileSync(join(dir, "openclaw.json"), "utf8")) as { models: { providers: Record<string, { models: { id: string; cost: Record<string, number> }[] }> } };
  const db = new Database(join(dir, "agents", "main", "agent", "openclaw-agent.sqlite"), { readonly: true });
  try {
    let checked = 0;
    for (const row of db.prepare("SELECT event_json FROM transcript_events WHERE event_json IS NOT NULL").all() as { event_json: string }[]) {
      const m = (JSON.parse(row.event_json) as { message?: Json }).message;
      if (m?.role !== "assistant") continue;
      const u = m.usage as { input: number; output: number; cacheRead: number; cacheWrite: number; totalTokens: number; cost: Record<string, number> };
      const rates = config.models.providers[String(m.provider)]?.models.find((x) => x.id === m.model)?.cost;
      assert.ok(rates, `the config prices ${String(m.provider)}/${String(m.model)}`);
      assert.is(u.totalTokens, u.input + u.output + u.cacheRead + u.cacheWrite);
      for (const part of ["input", "output", "cacheRead", "cacheWrite"] as const) assert.ok(Math.abs((u.cost[part] ?? NaN) - (u[part] * (rates[part] ?? NaN)) / 1e6) < 1e-12, part);
      assert.ok(Math.abs((u.cost.total ?? NaN) - (u.cost.input! + u.cost.output! + u.cost.cacheRead! + u.cost.cacheWrite!)) < 1e-12);
      assert.ok(u.output > 0 && u.totalTokens > 1000, "a real prompt, a real answer");
      checked++;
    }
    assert.ok(checked >= 15, `${checked} assistant messages`);

    // Each session's entry holds its latest run, as OpenClaw keeps it: the last answer of its current window.
    for (const n of db.prepare("SELECT session_key, current_session_id, entry_json FROM session_nodes").all() as { session_key: string; current_session_id: string; entry_json: string }[]) {
      const last = db
        .prepare("SELECT event_json FROM transcript_events WHERE session_id = ? AND json_extract(event_json, '$.message.role') = 'assistant' ORDER BY seq DESC LIMIT 1")
        .get(n.current_session_id) as { event_json: string };
      const u = (JSON.parse(last.event_json) as { message: { usage: { input: number; output: number; cacheRead: number; cacheWrite: number; cost: { total: number } } } }).message.usage;
      const e = JSON.parse(n.entry_json) as Json;
      assert.equal([e.inputTokens, e.outputTokens, e.cacheRead, e.cacheWrite, e.estimatedCostUsd], [u.input, u.output, u.cacheRead, u.cacheWrite, u.cost.total], n.session_key);
    }
  } finally {
    db.close();
  }
});

test("the sessions are labelled as a demo: an inbox, a triage cron job and a research sub-agent", () => {
  const db = new Database(join(install(), "agents", "main", "agent", "openclaw-agent.sqlite"), { readonly: true });
  try {
    const nodes = db.prepare("SELECT session_key, label, display_name, parent_session_key FROM session_nodes ORDER BY session_key").all() as { session_key: string; label: string | null; display_name: string | null; parent_session_key: string | null }[];
    const name = (k: string): string => {
      const n = nodes.find((x) => x.session_key.startsWith(k));
      return n?.display_name ?? n?.label ?? "";
    };
    assert.is(name("agent:main:main"), "Demo: support inbox");
    assert.match(name("agent:main:cron:"), /Demo ticket triage/);
    assert.is(name("agent:main:subagent:"), "Demo: research refund policies");
    assert.is(nodes.find((x) => x.session_key.startsWith("agent:main:subagent:"))?.parent_session_key, "agent:main:main");
  } finally {
    db.close();
  }
});

test.run();
