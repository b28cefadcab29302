// Issue 20, tested with the real agent: a REAL OpenClaw 2026.9.6 gateway gets the daemon's MCP
// server as its users register it (an `mcp.servers` entry in openclaw.json, which the gateway
// hot-reloads), and a model entry with `"api": "anthropic-messages"` on the fake Anthropic server
// (../shared/tools/fake-anthropic.mjs, whole request bodies logged; the gateway's own fake
// OpenAI-compatible model knows no parallel calls). One reply makes four parallel calls: png full,
// json full, svg, and one with a bad argument (one turn: an OpenClaw turn takes minutes here).
// What OpenClaw sent back to the model is checked in test/helpers/mcp-delivery.ts.
// Required: CI always runs this; a developer may skip it locally with GI_SKIP_REAL_GATEWAY=1.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { pollUntil } from "../shared/base/clock.js";
import { removeTempDirs, TOOLS_DIR } from "./helpers/openclaw-fixtures.js";
import { realGatewaySkipReason, startOpenClawGateway, type OpenClawGateway } from "./helpers/openclaw-gateway.js";
import { freePort } from "./helpers/cli.js";
import { onExitKill, pokeHttp, readJsonl, signal, waitGone } from "./helpers/real-cli.js";
import { startDaemon, type TestDaemon } from "./helpers/daemon.js";
import { anthropicDelivery, BAD_CALL, checkDelivery, answeredPages, GENEROUS, mcpRecorder, PARALLEL_CALLS, type McpRecorder } from "./helpers/mcp-delivery.js";

test.after(removeTempDirs);

const skip = realGatewaySkipReason();
const TOOL = "insights__snapshot";

test("OpenClaw: registered in openclaw.json's mcp.servers, four parallel calls reach the model as documented, the bad one as OpenClaw's own validation error", async () => {
  if (skip) {
    console.log(`skipped: ${skip}`);
    return;
  }
  let d: TestDaemon | undefined;
  // The agent talks to the daemon through it: what the daemon answered each call is the reference.
  let rec: McpRecorder | undefined;
  let gw: OpenClawGateway | undefined;
  let fakePid: number | undefined;
  let unhook: () => void = () => undefined;
  try {
    d = await startDaemon({ env: GENEROUS });
    rec = await mcpRecorder(d.url);
    gw = await startOpenClawGateway();
    const g = gw;

    // The fake Anthropic model, in the gateway's dir.
    const port = await freePort();
    const log = path.join(g.dir, "fake-anthropic-requests.jsonl");
    const out = fs.openSync(path.join(g.dir, "fake-anthropic.out"), "a");
    const child = spawn(process.execPath, [path.join(TOOLS_DIR, "fake-anthropic.mjs")], {
      env: { ...process.env, FAKE_ANTHROPIC_PORT: String(port), FAKE_ANTHROPIC_LOG: log, FAKE_ANTHROPIC_LOG_FULL: "1" },
      stdio: ["ignore", out, out],
    });
    fs.closeSync(out);
    fakePid = child.pid;
    const pid = child.pid;
    if (pid !== undefined) unhook = onExitKill(() => signal(pid, "SIGTERM"));
    await pollUntil(async () => {
      await pokeHttp(`http://127.0.0.1:${port}/v1/models`).catch(() => undefined);
      return readJsonl(log).some((l) => l.reply === "models") ? true : null;
    }, { timeoutMs: 60_000, intervalMs: 250, what: "the fake Anthropic API to answer" });

    // Register the server and the model as a user edits openclaw.json; the gateway reloads it.
    const config = JSON.parse(fs.readFileSync(g.configPath, "utf8")) as Record<string, Record<string, unknown>>;
    config.mcp = { servers: { insights: { url: rec.url, transport: "streamable-http" } } };
    (config.models as { providers: Record<string, unknown> }).providers.fakeanth = {
      baseUrl: `http://127.0.0.1:${port}`,
      apiKey: "fake-local",
      api: "anthropic-messages",
      models: [{ id: "claude-sonnet-4-5", name: "Fake Claude", reasoning: false, input: ["text", "image"], cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }, contextWindow: 200000, maxTokens: 8192 }],
    };
    const defaults = (config.agents as { defaults: { model: { primary: string }; timeoutSeconds?: number } }).defaults;
    defaults.model.primary = "fakeanth/claude-sonnet-4-5";
    defaults.timeoutSeconds = 540; // a turn with four calls takes minutes on two loaded cores
    fs.writeFileSync(g.configPath, JSON.stringify(config, null, 2));
    const outFile = path.join(g.dir, "gateway.out");
    await pollUntil(async () => (/config hot reload applied \([^)]*mcp\.servers/.test(fs.readFileSync(outFile, "utf8")) ? true : null), {
      timeoutMs: 180_000,
      intervalMs: 500,
      what: "the gateway to reload openclaw.json with the MCP server",
    });

    const turn = await g.turn(`Show me the status card @@MCPMULTI:${JSON.stringify([...PARALLEL_CALLS, BAD_CALL])}@@`, { timeoutMs: 600_000 });
    assert.is(turn.exitCode, 0, turn.stderr);
    const calls = anthropicDelivery(readJsonl(log), (n) => n === TOOL);
    const replies = readJsonl(log).map((l) => `${String(l.reply)}${l.reply === "no-mcp-tool" ? `(${JSON.stringify(l).slice(0, 300)})` : ""}`);
    assert.is(calls.length, 4, `one reply, four calls, four results in the model's next request; the fake's replies: ${replies.join(", ")}; openclaw printed: ${turn.stdout.slice(-1200)}`);
    const reference = answeredPages(rec, PARALLEL_CALLS[0]);
    const bad = calls.find((c) => c.args.detail === BAD_CALL.detail);
    // OpenClaw checks the arguments against the tool's inputSchema itself: a bad one never reaches
    // the daemon, and the model gets OpenClaw's own validation message instead of INVALID_PARAM.
    const ownCheck = new RegExp(`Validation failed for tool "${TOOL}":\\s*- detail: must be equal to one of the allowed values`);
    const report = checkDelivery("OpenClaw", calls.filter((c) => c !== bad), reference, bad, ownCheck);
    console.log(`OpenClaw ${g.version} handed its model: ${JSON.stringify(report)}`);
  } finally {
    if (fakePid !== undefined) {
      signal(fakePid, "SIGTERM");
      await waitGone([fakePid], 10_000);
    }
    unhook();
    await gw?.down();
    await rec?.close();
    await d?.stop();
  }
});

test.run();
