import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { pollUntil } from "../../shared/base/clock.js";
import { InsightsError } from "../../shared/base/errors.js";
import { LogHub } from "../../shared/base/log/logger.js";
import { buildCardModel } from "../../shared/snapshot/build-model.js";
import { EXAMPLE_NOW, exampleInputs } from "../../test/helpers/example-inputs.js";
import { DEFAULT_RENDER_IDLE_MS, RenderPool, type StartIdleTimer } from "./render-pool.js";

const logger = new LogHub({ console: "off" }).logger;
const card = (detail: "compact" | "full") => buildCardModel(exampleInputs("6h"), { detail, range: "6h", theme: "dark", lang: "en", generatedAt: EXAMPLE_NOW, demo: false, degradedSources: [] });

// Every module a worker loads costs its start (the first card after a rest waits for it) and its
// memory. A worker started as the pool starts one, with a module hook listing what it loads: the
// renderer's modules, and none of the daemon's own (zod, the store, GraphQL).
test("a render worker loads only what drawing needs: no zod, no store, no GraphQL", async () => {
  const dir = mkdtempSync(join(tmpdir(), "gi-worker-modules-"));
  try {
    writeFileSync(join(dir, "hook.mjs"), 'export async function resolve(s, c, next) { const r = await next(s, c); process._rawDebug("LOADED " + r.url); return r; }\n');
    writeFileSync(join(dir, "register.mjs"), `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(join(dir, "hook.mjs")).href)});\n`);
    const worker = fileURLToPath(new URL("./render-worker.ts", import.meta.url));
    // No IPC channel and no idle-collection argument: the worker loads and warms up, then exits.
    const child = spawn(process.execPath, ["--import", "tsx", "--import", join(dir, "register.mjs"), worker], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    assert.is(code, 0, stderr.slice(-2000));
    const loaded = [...stderr.matchAll(/^LOADED (\S+)$/gm)].map((m) => m[1] as string);
    assert.ok(loaded.some((u) => u.includes("/satori/")), "the hook saw the renderer load");
    for (const banned of ["/node_modules/zod/", "/node_modules/better-sqlite3/", "/node_modules/graphql/", "/shared/store/"]) {
      assert.equal(loaded.filter((u) => u.includes(banned)).slice(0, 3), [], `the worker loads nothing under ${banned}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("draws in a child process; workers start on demand, up to the pool size, and are replaced after their quota", async () => {
  const pool = new RenderPool({ size: 2, logger, maxRenders: 2 });
  try {
    assert.is(pool.size, 0, "nothing runs before the first card");
    const [a, b] = await Promise.all([pool.render(card("compact"), "svg"), pool.render(card("compact"), "png")]);
    assert.match(a.toString("utf8"), /^<svg/);
    assert.equal([...b.subarray(1, 4)], [0x50, 0x4e, 0x47]);
    assert.is(pool.started, 2);
    await pool.render(card("compact"), "svg");
    await pool.render(card("compact"), "svg");
    await pool.render(card("compact"), "svg");
    assert.ok(pool.started >= 3, "a worker past its quota was replaced");
  } finally {
    await pool.close();
  }
  assert.is(pool.size, 0);
});

test("a worker that dies mid-render fails that card with RENDER_FAILED; the next card gets a new worker", async () => {
  const pool = new RenderPool({ size: 1, logger });
  try {
    pool.prepare();
    const [pid] = pool.pids();
    const doomed = pool.render(card("full"), "png");
    process.kill(pid as number, "SIGKILL");
    try {
      await doomed;
      assert.unreachable("the render survived its worker");
    } catch (err) {
      assert.instance(err, InsightsError);
      assert.is((err as InsightsError).code, "RENDER_FAILED");
      assert.match((err as Error).message, /exited \(SIGKILL\)/);
    }
    const again = await pool.render(card("compact"), "svg");
    assert.match(again.toString("utf8"), /^<svg/);
    assert.is.not(pool.pids()[0], pid);
  } finally {
    await pool.close();
  }
});

test("a card past the render deadline fails with RENDER_FAILED and frees its worker slot", async () => {
  const pool = new RenderPool({ size: 1, logger, renderTimeoutMs: 1 });
  try {
    try {
      await pool.render(card("full"), "png");
      assert.unreachable("a full PNG in 1 ms");
    } catch (err) {
      assert.is((err as InsightsError).code, "RENDER_FAILED");
    }
    assert.is(pool.size, 0, "the stuck worker was killed");
  } finally {
    await pool.close();
  }
  const again = new RenderPool({ size: 1, logger });
  try {
    assert.match((await again.render(card("compact"), "svg")).toString("utf8"), /^<svg/);
  } finally {
    await again.close();
  }
});

/** Idle timers the test fires by hand, instead of waiting for them. */
function manualTimers(): { start: StartIdleTimer; armed: () => Array<{ ms: number; fire: () => void }> } {
  const timers: Array<{ ms: number; fire: () => void; cancelled: boolean }> = [];
  return {
    start: (onIdle, ms) => {
      const t = { ms, fire: onIdle, cancelled: false };
      timers.push(t);
      return { cancel: () => void (t.cancelled = true) };
    },
    armed: () => timers.filter((t) => !t.cancelled),
  };
}

test("lifecycle: one worker for requests that do not overlap, stopped after the idle period, started again by the next card", async () => {
  const timers = manualTimers();
  const pool = new RenderPool({ size: 2, logger, idleMs: 45_000, idleTimer: timers.start });
  try {
    assert.is(pool.size, 0, "nothing runs before a card is asked for");
    // A snapshot begins (prepare), then its card is drawn: the prepared worker draws it.
    pool.prepare();
    pool.prepare();
    assert.is(pool.started, 1, "prepare starts one worker, once");
    await pool.render(card("compact"), "svg");
    await pool.render(card("compact"), "png");
    pool.prepare();
    await pool.render(card("full"), "svg");
    assert.is(pool.started, 1, "cards one after another share one worker");
    assert.is(pool.size, 1);
    const armed = timers.armed();
    assert.is(armed.length, 1, "the idle worker has one idle timer");
    assert.is(armed[0]?.ms, 45_000, "the configured idle period");
    const [pid] = pool.pids();
    armed[0]?.fire();
    assert.is(pool.size, 0, "the idle worker is stopped");
    await pollUntil(() => !alive(pid as number), { what: "the idle worker's process to exit" });
    // The next card starts a new one.
    await pool.render(card("compact"), "svg");
    assert.is(pool.started, 2);
    assert.is.not(pool.pids()[0], pid);
  } finally {
    await pool.close();
  }
});

test("lifecycle: a prepared worker that gets no card stops too; a busy worker's stale idle timer does not stop it", async () => {
  const timers = manualTimers();
  const pool = new RenderPool({ size: 1, logger, idleTimer: timers.start });
  try {
    pool.prepare();
    assert.is(timers.armed().length, 1, "a prepared worker is idle until a card comes");
    assert.is(timers.armed()[0]?.ms, DEFAULT_RENDER_IDLE_MS);
    const stale = timers.armed()[0];
    const drawing = pool.render(card("compact"), "svg");
    assert.is(timers.armed().length, 0, "taking the worker cancels its idle timer");
    stale?.fire();
    assert.is(pool.size, 1, "a timer fired late does not stop a busy worker");
    assert.match((await drawing).toString("utf8"), /^<svg/);
    timers.armed()[0]?.fire();
    assert.is(pool.size, 0);
  } finally {
    await pool.close();
  }
});

test("lifecycle: a second worker starts only when a request would wait for the first", async () => {
  const pool = new RenderPool({ size: 2, logger, idleTimer: manualTimers().start });
  try {
    await Promise.all([pool.render(card("compact"), "svg"), pool.render(card("compact"), "svg")]);
    assert.is(pool.started, 2, "two at once: the second did not wait");
    await pool.render(card("compact"), "svg");
    assert.is(pool.started, 2, "a third, alone, takes an idle one");
  } finally {
    await pool.close();
  }
});

test("the default idle period stops workers within the minute the daemon counts as rest", () => {
  assert.ok(DEFAULT_RENDER_IDLE_MS > 0 && DEFAULT_RENDER_IDLE_MS <= 60_000, String(DEFAULT_RENDER_IDLE_MS));
});

test("an idle worker exits on the real timer", async () => {
  const pool = new RenderPool({ size: 1, logger, idleMs: 50 });
  try {
    await pool.render(card("compact"), "svg");
    await pollUntil(() => pool.size === 0, { what: "the idle worker to exit" });
  } finally {
    await pool.close();
  }
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test.run();
