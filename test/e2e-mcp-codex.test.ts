// Issue 20, tested with the real agent: the REAL Codex CLI registers the daemon's MCP server as a
// user types it (`codex mcp add insights --url <url>`), and the fake Responses model
// (../shared/tools/fake-openai-responses.mjs, whole request bodies logged) makes it call the tool:
// one reply with three parallel calls (png full, json full, svg), then a call with a bad argument.
// What Codex sent back to the model is checked in test/helpers/mcp-delivery.ts.
// Required: CI always runs this; a developer may skip it locally with GI_SKIP_REAL_CLI=1.
import fs from "node:fs";
import path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { runCommand } from "../shared/providers/run-command.js";
import { removeTempDirs } from "./helpers/openclaw-fixtures.js";
import { realCliSkipReason, startCodex, type CodexRun } from "./helpers/codex-runner.js";
import { readJsonl } from "./helpers/real-cli.js";
import { startDaemon, type TestDaemon } from "./helpers/daemon.js";
import { BAD_CALL, checkDelivery, answeredPages, GENEROUS, mcpRecorder, PARALLEL_CALLS, type McpRecorder, responsesDelivery } from "./helpers/mcp-delivery.js";

test.after(removeTempDirs);

const skip = realCliSkipReason();

test("Codex: registered with `codex mcp add`, three parallel calls all reach the model as documented, and a bad argument as INVALID_PARAM", async () => {
  if (skip) {
    console.log(`skipped: ${skip}`);
    return;
  }
  let d: TestDaemon | undefined;
  // The agent talks to the daemon through it: what the daemon answered each call is the reference.
  let rec: McpRecorder | undefined;
  let cx: CodexRun | undefined;
  try {
    d = await startDaemon({ env: GENEROUS });
    rec = await mcpRecorder(d.url);
    cx = await startCodex({ logBodies: true });
    const add = await runCommand("codex", ["mcp", "add", "insights", "--url", rec.url], { timeoutMs: 120_000, env: cx.cliEnv() });
    assert.is(add.exitCode, 0, add.output);
    const configPath = path.join(cx.codexHome, "config.toml");
    assert.match(fs.readFileSync(configPath, "utf8"), `[mcp_servers.insights]\nurl = "${rec.url}"`);
    // Codex gives a server 10 s to start and a call 60 s by default; two loaded cores (a CI run
    // beside other work) can take longer for both: the documented settings for a slow machine.
    fs.appendFileSync(configPath, "startup_timeout_sec = 300\ntool_timeout_sec = 600\nrequired = true\n");
    const bodies = (): Array<Record<string, unknown>> => readJsonl(path.join(cx?.dir ?? "", "fake-openai-bodies.jsonl"));

    const t1 = await cx.turn(["--json", `Show me the status card [[MCPMULTI: ${JSON.stringify(PARALLEL_CALLS)}]]`], { timeoutMs: 600_000 });
    assert.is(t1.exitCode, 0, t1.stderr);
    const calls = responsesDelivery(bodies());
    assert.is(calls.length, 3, `one reply, three calls, three outputs in the model's next request; codex printed: ${t1.stdout.slice(-1500)} ${t1.stderr.slice(-1500)}`);
    const reference = answeredPages(rec, PARALLEL_CALLS[0]);

    const t2 = await cx.turn(["--json", `And a wrong one [[MCPARGS: ${JSON.stringify(BAD_CALL)}]]`], { timeoutMs: 300_000 });
    assert.is(t2.exitCode, 0, t2.stderr);
    const bad = responsesDelivery(bodies());
    assert.equal(bad.map((c) => c.args), [BAD_CALL]);

    const report = checkDelivery("Codex", calls, reference, bad[0]);
    console.log(`Codex ${cx.version} handed its model: ${JSON.stringify(report)}`);
  } finally {
    await cx?.stop();
    await rec?.close();
    await d?.stop();
  }
});

test.run();
