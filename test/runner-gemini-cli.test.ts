// The Gemini CLI runner helper (test/helpers/gemini-runner.ts) against the REAL Gemini CLI: a -p turn
// with a shell call writes a session file under HOME/.gemini/tmp/<slug>/chats whose responses are
// the ones the fake API served, a developer's Gemini settings do not leak in, an interactive run
// with a typed prompt and /compress lands in that session's file and logs.json, and stop() leaves
// nothing running or on disk; a port another server holds is refused rather than taken for the
// fake API. Required: CI always runs this; a developer may skip it locally with GI_SKIP_REAL_CLI=1,
// and off CI it is skipped when the CLI is not cached and the npm registry is unreachable.
import fs from "node:fs";
import path from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { removeTempDirs } from "./helpers/openclaw-fixtures.js";
import { isAlive, readJsonl } from "./helpers/real-cli.js";
import { assertHeldPortRefused, runSkippedSuite } from "./helpers/runner-suite.js";
import { geminiSkipReason, startGemini, type GeminiRun } from "./helpers/gemini-runner.js";
import { expected, servedResponses, sessionFiles } from "./helpers/gemini-oracle.js";

const skip = await geminiSkipReason();

if (skip) {
  runSkippedSuite("runner-gemini-cli.test", "Gemini CLI", skip, false);
} else {
  const s = suite("gemini runner");
  s.after(removeTempDirs);

  s("a -p turn with a shell call, then an interactive run with a typed prompt and /compress; stop() cleans up", async () => {
    // A developer's own Gemini settings must not reach the run (the script reads GEMINI_MODEL).
    const saved = process.env.GEMINI_MODEL;
    process.env.GEMINI_MODEL = "decoy-model-from-the-developer-env";
    let g: GeminiRun | undefined;
    try {
      g = await startGemini();
      console.log(`gemini runner: start ${g.timings.upMs} ms (installed: ${g.timings.installed}), fake API on ${g.baseUrl}`);
      const env = g.env();
      assert.equal([env.HOME, env.GEMINI_DIR, env.GOOGLE_GEMINI_BASE_URL, env.FAKE_GEMINI_LOG], [g.home, g.geminiDir, g.baseUrl, g.requestLog]);

      const t = await g.turn(["list the files @@SHELL@@"], { cwd: "api" });
      console.log(`gemini runner: -p turn ${t.wallMs} ms, exit ${t.exitCode}`);
      assert.is(t.exitCode, 0, t.stderr.slice(-800));
      assert.match(t.sessionId ?? "", /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      assert.is(fs.readFileSync(path.join(g.projectDir("api") ?? "", ".project_root"), "utf8"), g.cwdOf("api"), "the project is the turn's cwd");
      const files = sessionFiles(g.geminiDir);
      assert.equal(files.map((f) => f.sessionId), [t.sessionId]);
      assert.ok(files[0]!.rel.startsWith(path.join("tmp", "api", "chats", "session-")) && files[0]!.rel.endsWith(`-${t.sessionId!.slice(0, 8)}.jsonl`), files[0]!.rel);
      const e = expected(files);
      assert.equal([e.total.prompts, e.total.toolCalls, e.total.responses], [1, 1, 2], "a shell round: two responses");
      // The model is the script's default, not the inherited GEMINI_MODEL; every response is one the fake API served.
      assert.equal([...new Set(e.responses.map((r) => r.model))], ["gemini-2.5-pro"]);
      const served = servedResponses(g.requests());
      assert.equal(e.responses.map((r) => JSON.stringify(r.raw)).sort(), served.map((x) => JSON.stringify(x.raw)).sort());

      const r = await g.tui("api", ["first interactive prompt", "a typed second prompt", "/compress"]);
      console.log(`gemini runner: interactive run ${r.wallMs} ms, exit ${r.exitCode}`);
      assert.is(r.exitCode, 0, "/quit ends it cleanly");
      assert.is.not(r.sessionId, t.sessionId);
      const lines = readJsonl(r.sessionFile);
      const prompts = lines.filter((l) => l.type === "user" && Array.isArray(l.content) && (l.content as Array<{ text?: unknown }>).some((p) => typeof p.text === "string")).map((l) => (l.content as Array<{ text: string }>)[0]!.text);
      assert.equal(prompts, ["first interactive prompt", "a typed second prompt"]);
      assert.ok(lines.some((l) => l.type === "info"), "/compress wrote its info record");
      const logs = JSON.parse(fs.readFileSync(path.join(g.projectDir("api") ?? "", "logs.json"), "utf8")) as Array<{ sessionId: string; message: string }>;
      assert.ok(["a typed second prompt", "/compress"].every((m) => logs.some((l) => l.sessionId === r.sessionId && l.message === m)), JSON.stringify(logs));

      const pid = g.pid();
      assert.ok(pid !== null && isAlive(pid));
      const dir = g.dir;
      await g.stop();
      g = undefined;
      assert.not.ok(isAlive(pid as number), "the fake API was stopped");
      assert.not.ok(fs.existsSync(dir), "the temp dir was removed");
    } finally {
      if (saved === undefined) delete process.env.GEMINI_MODEL;
      else process.env.GEMINI_MODEL = saved;
      await g?.stop();
    }
  });

  s("a port held by another server is refused, not mistaken for the fake API", () => assertHeldPortRefused((port) => startGemini({ port })));

  s.run();
}
