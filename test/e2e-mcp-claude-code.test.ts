// Issue 20, tested with the real agent: the REAL Claude Code registers the daemon's MCP server as a
// user types it (`claude mcp add --transport http insights <url>`), and the fake Anthropic model
// (../shared/tools/fake-anthropic.mjs, whole request bodies logged) makes it call the tool: one
// reply with three parallel calls (png full, json full, svg), then a call with a bad argument.
// What Claude Code sent back to the model is checked in test/helpers/mcp-delivery.ts.
// Required: CI always runs this; a developer may skip it locally with GI_SKIP_REAL_CLI=1.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { removeTempDirs } from "./helpers/openclaw-fixtures.js";
import { realCliSkipReason, startClaudeCode, type ClaudeCodeRun } from "./helpers/claude-code-runner.js";
import { startDaemon, type TestDaemon } from "./helpers/daemon.js";
import { anthropicDelivery, BAD_CALL, checkDelivery, answeredPages, GENEROUS, mcpRecorder, PARALLEL_CALLS, type McpRecorder } from "./helpers/mcp-delivery.js";

test.after(removeTempDirs);

const skip = realCliSkipReason();
const TOOL = "mcp__insights__snapshot";

test("Claude Code: registered with `claude mcp add`, three parallel calls all reach the model as documented, and a bad argument as INVALID_PARAM", async () => {
  if (skip) {
    console.log(`skipped: ${skip}`);
    return;
  }
  let d: TestDaemon | undefined;
  // The agent talks to the daemon through it: what the daemon answered each call is the reference.
  let rec: McpRecorder | undefined;
  let cc: ClaudeCodeRun | undefined;
  try {
    d = await startDaemon({ env: GENEROUS });
    rec = await mcpRecorder(d.url);
    cc = await startClaudeCode({ logBodies: true });
    const add = await cc.cli(["mcp", "add", "--transport", "http", "insights", rec.url]);
    assert.is(add.exitCode, 0, add.output);
    const list = await cc.cli(["mcp", "list"]);
    assert.match(list.stdout, /insights: .*\/mcp \(HTTP\) - ✔ Connected/, list.output);

    const t1 = await cc.turn(`Show me the status card @@MCPMULTI:${JSON.stringify(PARALLEL_CALLS)}@@`, { timeoutMs: 600_000 });
    assert.is(t1.exitCode, 0, t1.stderr);
    const calls = anthropicDelivery(cc.requests(), (n) => n === TOOL);
    assert.is(calls.length, 3, "one reply, three calls, three results in the model's next request");
    const reference = answeredPages(rec, PARALLEL_CALLS[0]);

    const t2 = await cc.turn(`And a wrong one @@MCPARGS:${JSON.stringify(BAD_CALL)}@@`, { timeoutMs: 300_000 });
    assert.is(t2.exitCode, 0, t2.stderr);
    const bad = anthropicDelivery(cc.requests(), (n) => n === TOOL);
    assert.equal(bad.map((c) => c.args), [BAD_CALL]);

    const report = checkDelivery("Claude Code", calls, reference, bad[0]);
    console.log(`Claude Code ${cc.version} handed its model: ${JSON.stringify(report)}`);
  } finally {
    await cc?.stop();
    await rec?.close();
    await d?.stop();
  }
});

test.run();
