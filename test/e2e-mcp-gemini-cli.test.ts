// Issue 24 item 5, tested with the real agent: the REAL Gemini CLI registers the daemon's MCP server
// as a user does (`mcpServers` in ~/.gemini/settings.json, the streamable-HTTP `httpUrl`), offers
// the tool to its model as `mcp_insights_snapshot`, and the fake Gemini model
// (../shared/tools/fake-gemini.mjs, whole request bodies logged) makes it call it: one reply with
// three parallel calls (png full, json full, svg), then a call with a bad argument (which Gemini CLI refuses itself, by the tool's schema). Checked:
// every good call reached our /mcp (a recorder in front of it keeps what the daemon answered), what Gemini CLI
// handed its model (test/helpers/mcp-delivery.ts), and what it recorded in its session file.
// Needs no Gemini CLI provider in the daemon: the MCP server serves every agent alike.
// Required: CI always runs this; a developer may skip it locally with GI_SKIP_REAL_CLI=1.
import fs from "node:fs";
import path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { removeTempDirs } from "./helpers/openclaw-fixtures.js";
import { geminiSkipReason, startGemini, type GeminiRun } from "./helpers/gemini-runner.js";
import { readJsonl } from "./helpers/real-cli.js";
import { startDaemon, type TestDaemon } from "./helpers/daemon.js";
import { sessionFiles } from "./helpers/gemini-oracle.js";
import { BAD_CALL, checkDelivery, answeredPages, GENEROUS, geminiDelivery, mcpRecorder, PARALLEL_CALLS, type McpRecorder } from "./helpers/mcp-delivery.js";

test.after(removeTempDirs);

const skip = await geminiSkipReason();
const TOOL = "mcp_insights_snapshot";

type Rec = Record<string, unknown>;

/** Every toolCall Gemini CLI recorded for the tool (the last record of each call id wins, as Gemini CLI reads it back). */
function recordedCalls(g: GeminiRun): Rec[] {
  const byId = new Map<string, Rec>();
  for (const f of sessionFiles(g.geminiDir)) {
    for (const l of f.lines) for (const c of Array.isArray(l.toolCalls) ? (l.toolCalls as Rec[]) : []) if (c.name === TOOL) byId.set(String(c.id), c);
  }
  return [...byId.values()];
}

test("Gemini CLI: registered in settings.json mcpServers, three parallel calls reach /mcp and the model as documented, a bad argument refused by Gemini CLI itself; the session file records them", async () => {
  if (skip) {
    console.log(`skipped: ${skip}`);
    return;
  }
  let d: TestDaemon | undefined;
  let rec: McpRecorder | undefined;
  let g: GeminiRun | undefined;
  try {
    d = await startDaemon({ env: GENEROUS });
    rec = await mcpRecorder(d.url);
    g = await startGemini({ logBodies: true });
    const settingsFile = path.join(g.geminiDir, "settings.json");
    const settings = JSON.parse(fs.readFileSync(settingsFile, "utf8")) as Rec;
    // A full card's pages take a while on two loaded cores: Gemini CLI's per-server timeout (ms) is raised.
    settings.mcpServers = { insights: { httpUrl: rec.url, timeout: 600_000 } };
    fs.writeFileSync(settingsFile, JSON.stringify(settings, null, 2));
    const bodies = (): Rec[] => readJsonl(g?.bodyLog ?? "");

    const t1 = await g.turn([`Show me the status card @@MCPMULTI:${JSON.stringify(PARALLEL_CALLS)}@@`], { timeoutMs: 600_000 });
    assert.is(t1.exitCode, 0, t1.stderr.slice(-1500));
    const offered = bodies().some((b) => JSON.stringify((b.body as Rec | undefined)?.tools ?? []).includes(`"name":"${TOOL}"`));
    assert.ok(offered, `the model was offered ${TOOL}`);
    // Each call reached our /mcp: the daemon answered all three.
    for (const args of PARALLEL_CALLS) answeredPages(rec, args);
    const calls = geminiDelivery(bodies(), (n) => n === TOOL);
    assert.is(calls.length, 3, `one reply, three calls, three results in the model's next request; gemini printed: ${t1.stdout.slice(-1500)}`);
    const reference = answeredPages(rec, PARALLEL_CALLS[0]);

    const t2 = await g.turn([`And a wrong one @@MCPARGS:${JSON.stringify(BAD_CALL)}@@`], { timeoutMs: 300_000 });
    assert.is(t2.exitCode, 0, t2.stderr.slice(-1500));
    const bad = geminiDelivery(bodies(), (n) => n === TOOL);
    assert.equal(bad.map((c) => c.args), [BAD_CALL]);

    // Gemini CLI checks arguments against the tool's schema itself: the bad call never reaches
    // /mcp, and the model gets Gemini CLI's own validation error instead of our INVALID_PARAM.
    assert.not.ok(rec.answered.some((c) => c.args.detail === BAD_CALL.detail), "the bad call stayed in Gemini CLI");
    const report = checkDelivery("Gemini CLI", calls, reference, bad[0], /params\/detail must be equal to one of the allowed values/);
    console.log(`Gemini CLI ${g.version} handed its model: ${JSON.stringify(report)}`);

    // What Gemini CLI recorded: four calls of the tool with their arguments; the three good ones succeeded.
    const recorded = recordedCalls(g);
    assert.equal(recorded.map((c) => JSON.stringify(c.args)).sort(), [...PARALLEL_CALLS, BAD_CALL].map((a) => JSON.stringify(a)).sort());
    for (const c of recorded) assert.is(c.status, JSON.stringify(c.args) === JSON.stringify(BAD_CALL) ? "error" : "success", JSON.stringify(c).slice(0, 400));
  } finally {
    await g?.stop();
    await rec?.close();
    await d?.stop();
  }
});

test.run();
