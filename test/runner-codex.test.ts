// The Codex runner helper (test/helpers/codex-runner.ts) against the REAL Codex CLI: a real exec
// turn with a shell call writes a rollout with token_usage_record lines under CODEX_HOME, a turn the
// fake API always fails exits non-zero, an interactive TUI session with two prompts lands in
// history.jsonl and its rollout, and stop() leaves nothing running (the TUI's app-server daemon
// included) or on disk; a port another server holds is refused rather than taken for the fake API.
// Required: CI always runs this; a developer may skip it locally with GI_SKIP_REAL_CLI=1. The first
// run installs the CLI (~400 MB) from the npm registry into ~/.cache/codex-e2e (network).
import fs from "node:fs";
import path from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { removeTempDirs } from "./helpers/openclaw-fixtures.js";
import { isAlive, readJsonl } from "./helpers/real-cli.js";
import { assertHeldPortRefused, runSkippedSuite } from "./helpers/runner-suite.js";
import { realCliSkipReason, startCodex, type CodexRun } from "./helpers/codex-runner.js";

const skip = realCliSkipReason();

/** Rollout files under sessions/YYYY/MM/DD/. */
function rollouts(sessionsDir: string): string[] {
  if (!fs.existsSync(sessionsDir)) return [];
  return (fs.readdirSync(sessionsDir, { recursive: true }) as string[])
    .filter((f) => /(^|\/)rollout-[^/]*\.jsonl$/.test(f))
    .map((f) => path.join(sessionsDir, f));
}

const payloadType = (l: Record<string, unknown>): unknown => (l.payload as { type?: unknown } | undefined)?.type;

interface RateLimits {
  primary?: { used_percent?: number };
}

if (skip) {
  runSkippedSuite("runner-codex.test", "Codex CLI", skip, true);
} else {
  const s = suite("codex runner");
  s.after(removeTempDirs);

  s("exec turns: a shell call writes a rollout with usage records, a failing API exits non-zero", async () => {
    // A developer's own Codex settings must not leak into the run: run-codex.sh reads CODEX_MODEL
    // (and CODEX_AUTO_COMPACT_LIMIT, FAKE_RL_*) from its environment when it writes config.toml.
    const saved = process.env.CODEX_MODEL;
    process.env.CODEX_MODEL = "decoy-model-from-the-developer-env";
    let cx: CodexRun | undefined;
    try {
      // Rate limits far from the fake's defaults (12 % + 1.5 per request), so the rollout shows they were applied.
      cx = await startCodex({ rateLimits: { primaryStart: 60, secondaryStart: 5, step: 0.5 } });
      console.log(`codex runner: start ${cx.timings.upMs} ms (installed: ${cx.timings.installed}), fake API on ${cx.baseUrl}`);
      const env = cx.env();
      assert.is(env.HOME, cx.home);
      assert.is(env.CODEX_HOME, cx.codexHome);
      assert.is(env.CODEX_SESSIONS_DIR, cx.sessionsDir);
      assert.is(env.FAKE_OPENAI_LOG, cx.requestLog);

      const t = await cx.turn(["hello [[SHELL: ls]]"]);
      console.log(`codex runner: exec turn ${t.wallMs} ms, exit ${t.exitCode}`);
      assert.is(t.exitCode, 0, `exit ${t.exitCode}: ${t.stderr.slice(-800)}`);
      assert.match(t.sessionId ?? "", /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      const files = rollouts(cx.sessionsDir);
      assert.is(files.length, 1, files.join(", "));
      assert.ok(files[0]!.endsWith(`-${t.sessionId}.jsonl`), `${files[0]} is the session ${t.sessionId}`);
      const lines = readJsonl(files[0]!);
      // run-codex.sh's default model, not the inherited CODEX_MODEL.
      const models = lines.filter((l) => l.type === "turn_context").map((l) => (l.payload as { model?: unknown }).model);
      assert.equal(models, ["gpt-5-codex"]);
      const records = lines.filter((l) => l.type === "token_usage_record");
      // One record for the shell call, one for the follow-up answer (one per response).
      assert.ok(records.length >= 2, `${records.length} token_usage_record lines`);
      assert.ok(lines.some((l) => l.type === "response_item" && payloadType(l) === "function_call"), "the shell call");
      assert.ok(lines.some((l) => l.type === "event_msg" && payloadType(l) === "task_complete"), "the turn completed");
      const limits = lines
        .filter((l) => l.type === "event_msg" && payloadType(l) === "token_count")
        .map((l) => (l.payload as { rate_limits?: RateLimits }).rate_limits?.primary?.used_percent)
        .filter((p): p is number => typeof p === "number");
      assert.ok(limits.length > 0 && limits.every((p) => p >= 60 && p < 70), `primary used_percent from rateLimits: ${limits.join(", ")}`);

      // [[FAIL500]]: every attempt gets HTTP 500, codex gives up and exits non-zero.
      const before = cx.requests().length;
      const f = await cx.turn(["--json", "deploy [[FAIL500]]"]);
      console.log(`codex runner: failing turn ${f.wallMs} ms, exit ${f.exitCode}`);
      assert.ok(f.exitCode !== 0 && f.exitCode !== null, `exit ${f.exitCode}`);
      assert.match(f.stdout, /"type":"turn\.failed"/);
      assert.match(f.sessionId ?? "", /^[0-9a-f-]{36}$/);
      assert.is.not(f.sessionId, t.sessionId);
      const failed = cx.requests().slice(before);
      assert.ok(failed.length > 1 && failed.every((r) => r.reply === 500), `retries, all answered 500: ${failed.map((r) => r.reply).join(", ")}`);

      // stop(): the fake API is gone and the temp dir with it.
      const pid = cx.pid();
      assert.ok(pid !== null && isAlive(pid));
      const dir = cx.dir;
      await cx.stop();
      cx = undefined;
      assert.not.ok(isAlive(pid as number), "the fake API was stopped");
      assert.not.ok(fs.existsSync(dir), "the temp dir was removed");
    } finally {
      if (saved === undefined) delete process.env.CODEX_MODEL;
      else process.env.CODEX_MODEL = saved;
      await cx?.stop();
    }
  });

  s("tui: two prompts in one interactive session, then stop() ends the app-server daemon", async () => {
    let cx: CodexRun | undefined;
    try {
      cx = await startCodex();
      // The first prompt goes on the command line: one starting with "-" must not be taken for a flag.
      const prompts = ["-v first TUI prompt [[SHELL: ls]]", "a second prompt, pasted into the composer"];
      const r = await cx.tui("proj-tui", prompts);
      console.log(`codex runner: tui ${r.wallMs} ms, exit ${r.exitCode}`);
      assert.is(r.exitCode, 0, "Ctrl-C Ctrl-C quits the TUI cleanly");
      const history = readJsonl(path.join(cx.codexHome, "history.jsonl"));
      assert.equal(history.map((h) => h.text), prompts);
      assert.ok(history.every((h) => h.session_id === r.sessionId));
      const lines = readJsonl(r.rolloutPath);
      assert.is(lines.filter((l) => l.type === "event_msg" && payloadType(l) === "task_complete").length, 2);
      const meta = lines.find((l) => l.type === "session_meta")?.payload as { id?: string; cwd?: string; originator?: string } | undefined;
      assert.is(meta?.id, r.sessionId);
      assert.is(meta?.cwd, path.join(cx.workDir, "proj-tui"));
      assert.is(meta?.originator, "codex-tui");

      // The daemon outlives the TUI; stop() must end it.
      const daemons = cx.daemonPids();
      assert.ok(daemons.length > 0, "the TUI started an app-server daemon");
      const pid = cx.pid() as number;
      await cx.stop();
      cx = undefined;
      for (const p of [pid, ...daemons]) assert.not.ok(isAlive(p), `pid ${p} still running after stop()`);
    } finally {
      await cx?.stop();
    }
  });

  s("a port held by another server is refused, not mistaken for the fake API", () => assertHeldPortRefused((port) => startCodex({ port })));

  s.run();
}
