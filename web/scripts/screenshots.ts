// Regenerates the dashboard screenshots in docs/images/ (used by docs/dashboard.md and the README):
// each view in both themes, a phone-width view and a Chinese one. Run `npm run screenshots` after
// `npm run build`. The data is the team's recorded OpenClaw state (the 2026.9.6 fixture), read by a
// real daemon. Two things are staged and said so here: the gateway probe answers "healthy" (no
// gateway runs beside a recording), and the sessions and transcript shots use the file-era fixture
// with two sub-agent sessions added, since neither recording has a sub-agent tree. The restart
// shown on the control view runs a stand-in `openclaw` that prints what a restart prints.
// The provider shots (All providers, Claude Code, Codex) read the recorded Claude Code 2.1.330 and
// Codex 0.169.0 homes beside the file-era OpenClaw state (with the same two sub-agents, dated ten
// minutes before the clock), the clock set twenty minutes after the Codex recording.
// The alerts shots read the 2026.9.6 state too, with a staged daily budget ($0.0108) small enough
// for the recording's last day ($0.0106) to cross its warning, a webhook channel to a local
// receiver that was sent a test, and the gateway-down rule muted for an hour.
// `GI_SCREENSHOTS=alerts npm run screenshots` regenerates only the alerts pictures.
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { Page } from "playwright-core";
import type { DaemonOptions } from "../../daemon/daemon.js";
import { ok } from "../../shared/providers/result.js";
import { FILES_FIXTURE, makeTempDir, removeTempDirs, SQLITE_FIXTURE } from "../../test/helpers/openclaw-fixtures.js";
import { addSubAgentSessions, launchBrowser, signIn } from "../../test/helpers/browser.js";
import { ROOT } from "../../test/helpers/cli.js";
import { FIXTURE_NOW, gqlData, startDaemon, type TestDaemon } from "../../test/helpers/daemon.js";
import { shiftedClock, systemClock } from "../../shared/base/clock.js";
import { ALL_PROVIDERS_NOW, startAllProviders } from "../../test/helpers/all-providers.js";

const OUT = join(ROOT, "docs", "images");
type Theme = "dark" | "light";

const healthyProbe: NonNullable<DaemonOptions["probeHttp"]> = async () =>
  ok({
    live: { live: true, status: "live", httpStatus: 200, roundTripMs: 3.4 },
    ready: { ready: true, failing: [], uptimeMs: 5_400_000, eventLoop: { degraded: false, delayP99Ms: 11, utilization: 0.07, reasons: [] }, httpStatus: 200, roundTripMs: 3.1 },
    readyError: null,
  });

/** Puts a stand-in `openclaw` first on PATH (the daemon runs in this process and looks it up there). */
function fakeOpenclaw(): void {
  const bin = makeTempDir();
  const fake = join(bin, "openclaw");
  writeFileSync(
    fake,
    `#!/bin/sh\necho "Restarting the OpenClaw gateway service..."\necho "Stopping gateway (pid 5283): draining 0 active runs"\necho "gateway stopped in 447ms"\necho "Starting gateway on 127.0.0.1:18789"\necho "http server listening (14 plugins; 5.2s)"\necho "Gateway restarted; healthz ok"\n`,
  );
  chmodSync(fake, 0o755);
  process.env.PATH = `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}`;
}

async function shoot(page: Page, name: string, fullPage = false): Promise<void> {
  // Let charts measure themselves and fonts settle before the picture.
  await page.evaluate("document.fonts.ready");
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(OUT, `dashboard-${name}.png`), fullPage, animations: "disabled", caret: "hide" });
  console.log(`docs/images/dashboard-${name}.png`);
}

async function views(d: TestDaemon, files: TestDaemon, subAgent: string): Promise<void> {
  for (const theme of ["dark", "light"] as Theme[]) {
    const b = await launchBrowser(d.url, { colorScheme: theme, viewport: { width: 1280, height: 860 } });
    try {
      await signIn(b.page, d);
      await b.page.getByTestId("range-switch").locator('[data-value="TWENTY_FOUR_HOUR"]').click();
      await b.page.getByTestId("kpis").waitFor();
      await shoot(b.page, `overview-${theme}`, true);
      await b.page.goto(`${d.url}/#/events`);
      await b.page.getByTestId("event-list").waitFor();
      await shoot(b.page, `events-${theme}`);
      await b.page.goto(`${d.url}/#/cron`);
      await b.page.getByTestId("cron-job").first().waitFor();
      await b.page.getByTestId("cron-job").first().locator(".disclosure").click();
      await shoot(b.page, `cron-${theme}`);
      await b.page.goto(`${d.url}/#/logs`);
      await b.page.locator(".log-line").first().waitFor();
      await shoot(b.page, `logs-${theme}`);
      await b.page.goto(`${d.url}/#/control`);
      await b.page.getByTestId("restart-button").click();
      await b.page.locator("dialog.dialog").waitFor();
      await shoot(b.page, `control-confirm-${theme}`);
      await b.page.getByTestId("confirm-button").click();
      await b.page.getByTestId("operation-output").waitFor();
      await shoot(b.page, `control-${theme}`);
    } finally {
      await b.close();
    }
    const f = await launchBrowser(files.url, { colorScheme: theme, viewport: { width: 1280, height: 860 } });
    try {
      await signIn(f.page, files, "#/sessions");
      await f.page.locator(`tr[data-key="${subAgent}"]`).waitFor();
      await shoot(f.page, `sessions-${theme}`);
      await f.page.goto(`${files.url}/#/sessions/${encodeURIComponent(subAgent)}`);
      await f.page.locator('[data-testid="message"][data-role="toolResult"]').waitFor();
      await shoot(f.page, `transcript-${theme}`);
    } finally {
      await f.close();
    }
  }
}

async function mobileAndChinese(d: TestDaemon): Promise<void> {
  for (const theme of ["dark", "light"] as Theme[]) {
    const b = await launchBrowser(d.url, { colorScheme: theme, viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
    try {
      await signIn(b.page, d);
      await b.page.getByTestId("kpis").waitFor();
      await shoot(b.page, `mobile-${theme}`);
    } finally {
      await b.close();
    }
  }
  const zh = await launchBrowser(d.url, { colorScheme: "light", viewport: { width: 1280, height: 860 }, locale: "zh-CN" });
  try {
    await signIn(zh.page, d);
    await zh.page.getByTestId("kpis").waitFor();
    await shoot(zh.page, "overview-zh-light");
  } finally {
    await zh.close();
  }
  const out = await launchBrowser(d.url, { colorScheme: "dark", viewport: { width: 1280, height: 720 } });
  try {
    await out.page.goto(`${d.url}/`);
    await out.page.getByTestId("signin").waitFor();
    await shoot(out.page, "signin-dark");
  } finally {
    await out.close();
  }
}

/** All providers together, Claude Code and Codex, their sessions and a transcript with tool calls. */
async function providers(): Promise<void> {
  const d = await startAllProviders({ daemon: { probeHttp: healthyProbe } });
  try {
    addSubAgentSessions(d.openclawDir, ALL_PROVIDERS_NOW - 10 * 60_000);
    for (const theme of ["dark", "light"] as Theme[]) {
      const b = await launchBrowser(d.url, { colorScheme: theme, viewport: { width: 1280, height: 860 } });
      try {
        await signIn(b.page, d, "#/?source=all");
        await b.page.locator('[data-testid="provider-table"] tr[data-provider="PROVIDER_A"] td[data-col="tokens"]:not([data-value="0"])').waitFor();
        await shoot(b.page, `all-providers-${theme}`, true);
        await b.page.goto(`${d.url}/#/?source=${d.codexSource}`);
        await b.page.getByTestId("rate-limits").waitFor();
        await b.page.getByTestId("projects").waitFor();
        await shoot(b.page, `codex-${theme}`, true);
        if (theme === "light") {
          await b.page.goto(`${d.url}/#/?source=${d.claudeSource}`);
          await b.page.getByTestId("projects").waitFor();
          await shoot(b.page, "claude-code-light", true);
          await b.page.goto(`${d.url}/#/sessions/2e9c2371-da3e-47f6-90cb-2bbf8fb5defc?source=${d.claudeSource}`);
          await b.page.locator('[data-testid="message"][data-role="toolResult"]').first().waitFor();
          await shoot(b.page, "transcript-claude-code-light", true);
        } else {
          await b.page.goto(`${d.url}/#/sessions?source=all`);
          await b.page.locator('[data-testid="sessions-table"] tr[data-source="agent:main"]').first().waitFor();
          await shoot(b.page, "sessions-all-dark", true);
        }
      } finally {
        await b.close();
      }
    }
    const m = await launchBrowser(d.url, { colorScheme: "dark", viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
    try {
      await signIn(m.page, d, "#/?source=all");
      await m.page.getByTestId("all-kpis").waitFor();
      await shoot(m.page, "mobile-all-dark");
    } finally {
      await m.close();
    }
    const zh = await launchBrowser(d.url, { colorScheme: "light", viewport: { width: 1280, height: 860 }, locale: "zh-CN" });
    try {
      await signIn(zh.page, d, "#/?source=all");
      await zh.page.getByTestId("provider-table").waitFor();
      await shoot(zh.page, "all-providers-zh-light");
    } finally {
      await zh.close();
    }
  } finally {
    await d.stop();
  }
}

/** The banner a page shows when its daemon stops. */
async function offline(): Promise<void> {
  const gone = await startDaemon({ fixture: SQLITE_FIXTURE, daemon: { probeHttp: healthyProbe } });
  const b = await launchBrowser(gone.url, { colorScheme: "light", viewport: { width: 1280, height: 560 } });
  try {
    await signIn(b.page, gone);
    await b.page.getByTestId("kpis").waitFor();
    await gone.stop();
    await b.page.locator('[data-testid="connection-banner"][data-state="unreachable"]').waitFor({ timeout: 30_000 });
    await shoot(b.page, "offline-light");
  } finally {
    await b.close();
  }
}

/** The Alerts tab and the banner, in both themes, on a desktop and a phone. */
async function alertShots(): Promise<void> {
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(204).end());
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/insights`;
  const clock = shiftedClock(systemClock, FIXTURE_NOW);
  const d = await startDaemon({ fixture: SQLITE_FIXTURE, clock, env: { INSIGHTS_ALERTS: JSON.stringify({ timeZone: "UTC", evaluateSeconds: 1 }) }, daemon: { probeHttp: healthyProbe, alertDebounceMs: 50 } });
  try {
    await gqlData(d, `mutation($url: String!) { addAlertChannel(input: { id: "ops", name: "Ops webhook", type: WEBHOOK, url: $url, secret: "screenshot-secret" }) { id } }`, { url: hook });
    await gqlData(d, `mutation { updateAlertRule(id: "daily-cost", input: { budget: 0.0108, enabled: true, channels: ["ops"] }) { id } }`);
    await gqlData(d, `mutation { testAlertChannel(id: "ops") { outcome } }`);
    await gqlData(d, `mutation($until: String!) { muteAlertRule(id: "gateway-down", until: $until) { id } }`, { until: new Date(clock.now() + 3_600_000).toISOString() });
    for (const theme of ["dark", "light"] as Theme[]) {
      const b = await launchBrowser(d.url, { colorScheme: theme, viewport: { width: 1280, height: 860 } });
      try {
        await signIn(b.page, d, "#/alerts");
        await b.page.locator('[data-testid="alert-banner-item"][data-rule="daily-cost"]').waitFor({ timeout: 30_000 });
        await b.page.locator('[data-testid="alert-event"][data-kind="FIRING"]').waitFor({ timeout: 30_000 });
        await shoot(b.page, `alerts-${theme}`, true);
        await b.page.locator('[data-testid="alert-rule"][data-rule="daily-cost"]').getByTestId("rule-edit").click();
        await b.page.getByTestId("rule-form").waitFor();
        await shoot(b.page, `alerts-editor-${theme}`);
      } finally {
        await b.close();
      }
    }
    const phone = await launchBrowser(d.url, { colorScheme: "light", viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, locale: "zh-CN" });
    try {
      await signIn(phone.page, d);
      await phone.page.locator('[data-testid="alert-banner-item"]').first().waitFor({ timeout: 30_000 });
      await phone.page.getByTestId("kpis").waitFor();
      await shoot(phone.page, "alerts-banner-mobile-zh-light");
    } finally {
      await phone.close();
    }
  } finally {
    await d.stop();
    await new Promise<void>((r) => receiver.close(() => r()));
  }
}

mkdirSync(OUT, { recursive: true });
if (process.env.GI_SCREENSHOTS === "alerts") {
  try {
    await alertShots();
  } finally {
    removeTempDirs();
  }
  process.exit(0);
}
fakeOpenclaw();
const d = await startDaemon({ fixture: SQLITE_FIXTURE, env: { PATH: process.env.PATH ?? "" }, daemon: { probeHttp: healthyProbe } });
const files = await startDaemon({ fixture: FILES_FIXTURE, daemon: { probeHttp: healthyProbe } });
try {
  const { child } = addSubAgentSessions(files.openclawDir, FIXTURE_NOW - 10 * 60_000);
  await views(d, files, child);
  await mobileAndChinese(d);
  await providers();
  await offline();
  await alertShots();
} finally {
  await d.stop();
  await files.stop();
  removeTempDirs();
}
