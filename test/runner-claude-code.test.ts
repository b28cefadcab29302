// The Claude Code runner helper (test/helpers/claude-code-runner.ts) against the REAL Claude Code
// CLI: one real print-mode turn with a tool call lands as a transcript under the run's HOME, the
// fake API saw the requests, and stop() leaves nothing running or on disk; a port another server
// holds is refused rather than taken for the fake API.
// Required: CI always runs this; a developer may skip it locally with GI_SKIP_REAL_CLI=1. The first
// run installs the CLI from the npm registry into ~/.cache/claude-code-e2e (network).
import fs from "node:fs";
import path from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { makeTempDir, removeTempDirs } from "./helpers/openclaw-fixtures.js";
import { isAlive, readJsonl } from "./helpers/real-cli.js";
import { assertHeldPortRefused, runSkippedSuite } from "./helpers/runner-suite.js";
import { realCliSkipReason, startClaudeCode, type ClaudeCodeRun } from "./helpers/claude-code-runner.js";

const skip = realCliSkipReason();

/** Every `<sessionId>.jsonl` under `<claudeDir>/projects/<slug>/`. */
function transcripts(claudeDir: string): string[] {
  const projects = path.join(claudeDir, "projects");
  if (!fs.existsSync(projects)) return [];
  return fs
    .readdirSync(projects)
    .flatMap((slug) => fs.readdirSync(path.join(projects, slug)).filter((f) => f.endsWith(".jsonl")).map((f) => path.join(projects, slug, f)));
}

interface Block {
  type?: string;
  name?: string;
}
const blocks = (line: Record<string, unknown>): Block[] => {
  const content = (line.message as { content?: unknown } | undefined)?.content;
  return Array.isArray(content) ? (content as Block[]) : [];
};

if (skip) {
  runSkippedSuite("runner-claude-code.test", "Claude Code CLI", skip, true);
} else {
  const s = suite("claude code runner");
  s.after(removeTempDirs);

  s("a real turn with a Bash call writes a transcript under the run's HOME", async () => {
    // A developer's own Claude Code settings must not leak into the run: with CLAUDE_CONFIG_DIR
    // inherited, the CLI would write its transcript there instead of under the run's HOME.
    const decoy = makeTempDir("gi-cc-decoy-");
    const saved = process.env.CLAUDE_CONFIG_DIR;
    process.env.CLAUDE_CONFIG_DIR = decoy;
    let cc: ClaudeCodeRun | undefined;
    try {
      cc = await startClaudeCode();
      console.log(`claude code runner: start ${cc.timings.upMs} ms (installed: ${cc.timings.installed}), fake API on ${cc.baseUrl}`);
      const env = cc.env();
      assert.is(env.HOME, cc.home);
      assert.is(env.CLAUDE_CONFIG_DIR, path.join(cc.home, ".claude"));
      assert.is(env.ANTHROPIC_BASE_URL, cc.baseUrl);
      assert.is(env.FAKE_ANTHROPIC_LOG, cc.requestLog);
      assert.ok(cc.home.startsWith(cc.dir + path.sep));

      const cwd = path.join(cc.dir, "proj-a");
      const t = await cc.turn("List the files here. @@BASH@@", { cwd });
      console.log(`claude code runner: turn ${t.wallMs} ms, exit ${t.exitCode}`);
      assert.is(t.exitCode, 0, `exit ${t.exitCode}: ${t.stderr.slice(-800)}`);
      assert.ok(t.json, `stdout was not the JSON result: ${t.stdout.slice(0, 400)}`);
      assert.is(t.json?.is_error, false);
      assert.match(t.sessionId ?? "", /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);

      // The transcript: <HOME>/.claude/projects/<slug>/<sessionId>.jsonl, nothing in the decoy.
      const files = transcripts(cc.claudeDir);
      assert.equal(files.map((f) => path.basename(f)), [`${t.sessionId}.jsonl`]);
      assert.equal(fs.readdirSync(decoy), [], "nothing may be written to an inherited CLAUDE_CONFIG_DIR");
      const lines = readJsonl(files[0]!);
      const assistant = lines.filter((l) => l.type === "assistant");
      assert.ok(assistant.length > 0, "an assistant line");
      assert.ok(
        assistant.some((l) => blocks(l).some((b) => b.type === "tool_use" && b.name === "Bash")),
        "the Bash call the fake model asked for (@@BASH@@)",
      );
      assert.ok(lines.some((l) => l.type === "user" && blocks(l).some((b) => b.type === "tool_result")), "the Bash result");
      // The cwd option: the turn ran where it was told to.
      assert.ok(lines.some((l) => l.cwd === cwd), `a line with cwd ${cwd}`);
      assert.ok(lines.every((l) => l.sessionId === undefined || l.sessionId === t.sessionId));

      // The fake API saw the tool call round trip: one request for the call, one after its result.
      const messages = cc.requests().filter((r) => r.method === "POST" && String(r.url).startsWith("/v1/messages"));
      assert.ok(messages.length >= 2, `${messages.length} POST /v1/messages`);
      for (const r of messages) assert.is((r.headers as Record<string, string>)["x-claude-code-session-id"], t.sessionId);

      // stop(): the fake API is gone and the temp dir with it.
      const pid = cc.pid();
      assert.ok(pid !== null && isAlive(pid));
      const dir = cc.dir;
      await cc.stop();
      cc = undefined;
      assert.not.ok(isAlive(pid as number), "the fake API was stopped");
      assert.not.ok(fs.existsSync(dir), "the temp dir was removed");
    } finally {
      if (saved === undefined) delete process.env.CLAUDE_CONFIG_DIR;
      else process.env.CLAUDE_CONFIG_DIR = saved;
      await cc?.stop();
    }
  });

  s("a port held by another server is refused, not mistaken for the fake API", () => assertHeldPortRefused((port) => startClaudeCode({ port })));

  s.run();
}
