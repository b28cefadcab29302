// `insightsctl snapshot` as a user runs it (the built bin, a throwaway HOME): without a daemon it
// renders in-process and says so; with one it asks the daemon. -o, stdout when piped, JSON, the
// defaults, --quick, and a bad value's code, message, hint and exit status.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { cardModelSchema } from "../shared/snapshot/card-model.js";
import { CTL, ctl, sandbox, type Sandbox } from "./helpers/cli.js";
import { pngSize } from "./helpers/png.js";

let box: Sandbox;
test.before(async () => {
  box = await sandbox();
});
test.after(async () => box.cleanup());

/** Runs insightsctl with stdout as raw bytes (a pipe: not a TTY). */
function run(args: string[], cwd: string): Promise<{ code: number; stdout: Buffer; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CTL, ...args], { env: box.env, cwd, encoding: "buffer", timeout: 60_000, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout, stderr: stderr.toString("utf8") });
    });
  });
}

test("no daemon: renders in-process and says so; piped PNG on stdout, -o writes a file, JSON validates", async () => {
  const cwd = mkdtempSync(join(tmpdir(), "gi-snap-"));
  const piped = await run(["snapshot"], cwd);
  assert.is(piped.code, 0, piped.stderr);
  assert.match(piped.stderr, /not running; rendered in-process from the bundled demo state/);
  assert.equal(pngSize(piped.stdout), { width: 780, height: pngSize(piped.stdout).height });

  const file = await run(["snapshot", "-o", "card.svg", "--format", "svg", "--detail", "compact"], cwd);
  assert.is(file.code, 0, file.stderr);
  assert.match(readFileSync(join(cwd, "card.svg"), "utf8"), /^<svg/);
  assert.match(file.stderr, /wrote .*card\.svg/);

  const json = await run(["snapshot", "--format", "json", "--lang", "zh"], cwd);
  const card = cardModelSchema.parse(JSON.parse(json.stdout.toString("utf8")));
  assert.equal([card.detail, card.range, card.theme, card.lang, card.demo], ["standard", "6h", "dark", "zh", true], "CLI defaults");
  const oc = card.providers[0];
  assert.ok((oc?.summary.tokens ?? 0) > 0, "the demo recording is inside the range");
  // The demo's gateway is DEMO, never "stopped", whether or not it answers.
  assert.equal(oc?.provider === "openclaw" ? [oc.gateway.state, oc.gateway.running, oc.gateway.version] : null, ["DEMO", true, "2026.9.6"], "the demo gateway answers the in-process render too");
});

test("bad values: INVALID_PARAM with what is allowed and what to do, exit 2", async () => {
  const r = await ctl(box, ["snapshot", "--range", "2h"]);
  assert.is(r.code, 2);
  assert.match(r.stderr, /^insightsctl: INVALID_PARAM: invalid range "2h"; allowed: 30m, 1h, 6h, 12h, 24h/);
  assert.match(r.stderr, /insightsctl snapshot --help/);
});

test("an output that cannot be written is OUTPUT_FAILED (exit 1), found before anything is rendered", async () => {
  const cwd = mkdtempSync(join(tmpdir(), "gi-snap-"));
  const r = await run(["snapshot", "-o", "/no/such/dir/x.png"], cwd);
  assert.is(r.code, 1);
  assert.match(r.stderr, /^insightsctl: OUTPUT_FAILED: cannot write \/no\/such\/dir\/x\.png: the directory \/no\/such\/dir does not exist\n  Check the path given to -o/);
  assert.not.match(r.stderr, /RENDER_FAILED/);
  // The in-process render says so when it has drawn the card: it never started.
  assert.not.match(r.stderr, /rendered in-process/);
  const dir = await run(["snapshot", "--format", "svg", "-o", cwd], cwd);
  assert.is(dir.code, 1);
  assert.match(dir.stderr, /OUTPUT_FAILED: cannot write .*: it is a directory/);
  assert.is(readdirSync(cwd).length, 0, "nothing written");
});

test("with a daemon: asks it over the control socket; --quick is a compact PNG; a timestamped file on a TTY-less -o .", async () => {
  const started = await ctl(box, ["start"]);
  assert.is(started.code, 0, started.stderr);
  try {
    const cwd = mkdtempSync(join(tmpdir(), "gi-snap-"));
    const viaDaemon = await run(["snapshot", "--format", "json", "--detail", "full"], cwd);
    assert.is(viaDaemon.code, 0, viaDaemon.stderr);
    assert.not.match(viaDaemon.stderr, /in-process/);
    assert.is(cardModelSchema.parse(JSON.parse(viaDaemon.stdout.toString("utf8"))).detail, "full");

    const quick = await run(["snapshot", "--quick", "-o", "quick.png"], cwd);
    assert.is(quick.code, 0, quick.stderr);
    const png = readFileSync(join(cwd, "quick.png"));
    assert.is(pngSize(png).width, 780);
    const standard = await run(["snapshot", "-o", "standard.png"], cwd);
    assert.ok(pngSize(readFileSync(join(cwd, "standard.png"))).height > pngSize(png).height, "--quick is the compact card");

    const bad = await run(["snapshot", "--theme", "blue"], cwd);
    assert.is(bad.code, 2);
    assert.match(bad.stderr, /INVALID_PARAM: invalid theme "blue"; allowed: dark, light/);
    assert.ok(!existsSync(join(cwd, "insights-")) && readdirSync(cwd).length === 2);
    assert.is(standard.code, 0);
  } finally {
    await ctl(box, ["stop"]);
  }
});

test.run();
