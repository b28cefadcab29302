// Gateway control from the dashboard with a fake `openclaw` (the daemon's openclawCommand): each
// operation waits behind a confirmation that Escape and Cancel dismiss without running anything,
// and the command's output is shown when it ends, success or failure.
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { makeTempDir, removeTempDirs, SQLITE_FIXTURE } from "./helpers/openclaw-fixtures.js";
import { inPage, launchBrowser, signIn, PAGE_WAIT_MS } from "./helpers/browser.js";
import { startDaemon } from "./helpers/daemon.js";

test.after(removeTempDirs);

test("restart and update: confirmation first, then the command's output", async () => {
  const bin = makeTempDir();
  const ran = join(bin, "ran");
  const fake = join(bin, "openclaw");
  // Records each run, prints to both streams, and fails the update with exit code 3.
  writeFileSync(fake, `#!/bin/sh\necho "$*" >> "${ran}"\necho "fake openclaw $*"\necho "restarting gateway (pid 4242)" >&2\n[ "$1" = "update" ] && exit 3\nexit 0\n`);
  chmodSync(fake, 0o755);
  const d = await startDaemon({ fixture: SQLITE_FIXTURE, env: { INSIGHTS_OPENCLAW_COMMAND: fake, PATH: `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}` } });
  const b = await launchBrowser(d.url);
  try {
    await signIn(b.page, d, "#/control");
    const restart = b.page.getByTestId("restart-button");
    const dialog = b.page.locator("dialog.dialog");

    // Keyboard: Enter opens the confirmation with Cancel focused; Escape closes it; nothing ran.
    await restart.focus();
    await b.page.keyboard.press("Enter");
    await dialog.waitFor({ state: "visible" });
    assert.is(await inPage(b.page, "document.activeElement?.textContent"), "Cancel", "the safe choice has the focus");
    assert.match((await dialog.textContent()) ?? "", /openclaw gateway restart/);
    await b.page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    await restart.click();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "hidden" });
    assert.not.ok(existsSync(ran), "cancelled twice: the command never ran");

    // Confirmed: the command runs and its output shows.
    await restart.click();
    await dialog.getByTestId("confirm-button").click();
    const result = b.page.getByTestId("operation-result");
    await result.waitFor({ timeout: PAGE_WAIT_MS });
    assert.is(await result.getAttribute("data-ok"), "true");
    const output = (await b.page.getByTestId("operation-output").textContent()) ?? "";
    assert.match(output, /fake openclaw gateway restart/);
    assert.match(output, /restarting gateway \(pid 4242\)/);
    assert.match((await result.textContent()) ?? "", /finished/);
    assert.is(readFileSync(ran, "utf8"), "gateway restart\n", "exactly one run");

    // The update fails: the page says so and still shows what the command printed.
    await b.page.getByTestId("update-button").click();
    await dialog.getByTestId("confirm-button").click();
    await b.page.locator('[data-testid="operation-result"][data-ok="false"]').waitFor({ timeout: PAGE_WAIT_MS });
    assert.match((await b.page.getByTestId("operation-result").textContent()) ?? "", /exited with code 3/);
    assert.match((await b.page.getByTestId("operation-output").textContent()) ?? "", /fake openclaw update --yes/);
    assert.equal(b.foreignRequests, []);
    assert.equal(b.errors, []);
  } finally {
    await b.close();
    await d.stop();
  }
});

test.run();
