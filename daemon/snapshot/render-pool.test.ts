import { test } from "uvu";
import * as assert from "uvu/assert";
import { pollUntil } from "../../shared/clock.js";
import { InsightsError } from "../../shared/errors.js";
import { LogHub } from "../../shared/log/logger.js";
import { buildCardModel } from "../../shared/snapshot/build-model.js";
import { EXAMPLE_NOW, exampleInputs } from "../../shared/snapshot/example-inputs.js";
import { RenderPool } from "./render-pool.js";

const logger = new LogHub({ console: "off" }).logger;
const card = (detail: "compact" | "full") => buildCardModel(exampleInputs("6h"), { detail, range: "6h", theme: "dark", lang: "en", generatedAt: EXAMPLE_NOW, demo: false, degradedSources: [] });

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
    await pool.warm();
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

test("an idle worker exits", async () => {
  const pool = new RenderPool({ size: 1, logger, idleMs: 50 });
  try {
    await pool.render(card("compact"), "svg");
    await pollUntil(() => pool.size === 0, { what: "the idle worker to exit" });
  } finally {
    await pool.close();
  }
});

test.run();
