// A real headless Chromium for the dashboard's end-to-end tests: Debian's `chromium` package
// (installed by .ci/run) driven by playwright-core, in a fresh profile. Every request the pages
// make is recorded, so a test can prove the dashboard never reaches past the daemon, and so are
// page errors and console errors (a CSP violation shows up there).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { pollUntil } from "../../shared/base/clock.js";
import { ROOT } from "./cli.js";

/**
 * How long a browser test waits for the page to show something. Waits end as soon as the
 * condition holds, so a long deadline costs nothing on a quiet machine; on a loaded 2-core one
 * (CI with a CPU-bound process beside it) the page, the daemon and another test file share the
 * cores, and 15-20 s deadlines timed out there while the same tests passed alone.
 */
export const PAGE_WAIT_MS = 90_000;

export const CHROMIUM_PATH = process.env.GI_CHROMIUM ?? "/usr/bin/chromium";

/** Without the background-networking switches a closed network makes Chromium hang at start. */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export interface BrowserOptions {
  colorScheme?: "light" | "dark";
  viewport?: { width: number; height: number };
  /** Browser UI language (navigator.languages); default en-US. */
  locale?: string;
  deviceScaleFactor?: number;
}

export interface TestBrowser {
  context: BrowserContext;
  /** The first tab. */
  page: Page;
  /** URLs requested from anywhere but the daemon's origin. */
  foreignRequests: string[];
  /** Uncaught exceptions and console errors (network status errors excluded: a 401 is expected at times). */
  errors: string[];
  close(): Promise<void>;
}

/** Fails early and clearly when the pieces the browser tests need are missing. */
export function assertBrowserTestsCanRun(): void {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`no Chromium at ${CHROMIUM_PATH}: install Debian's chromium package (apt-get install chromium fonts-noto-cjk; .ci/run does)`);
  if (!existsSync(join(ROOT, "dist", "web", "index.html"))) throw new Error("dist/web/index.html is missing: run `npm run build` first (npm test does)");
}

/**
 * Chromium's env: HOME and the XDG dirs inside its temp profile. Besides the profile it writes a
 * crash-report database under $XDG_CONFIG_HOME/chromium and dconf's cache under $XDG_RUNTIME_DIR,
 * which left ~/.config/chromium in the developer's home.
 */
function browserEnv(profile: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  const dirs = { HOME: "home", XDG_CONFIG_HOME: "config", XDG_CACHE_HOME: "cache", XDG_DATA_HOME: "share", XDG_STATE_HOME: "state", XDG_RUNTIME_DIR: "run" };
  for (const [k, sub] of Object.entries(dirs)) {
    env[k] = join(profile, sub);
    mkdirSync(env[k], { recursive: true, mode: 0o700 });
  }
  return env;
}

export async function launchBrowser(origin: string, o: BrowserOptions = {}): Promise<TestBrowser> {
  assertBrowserTestsCanRun();
  const profile = mkdtempSync(join(tmpdir(), "gi-chromium-"));
  const context = await chromium.launchPersistentContext(join(profile, "data"), {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    env: browserEnv(profile),
    viewport: o.viewport ?? { width: 1280, height: 900 },
    deviceScaleFactor: o.deviceScaleFactor ?? 1,
    colorScheme: o.colorScheme ?? "dark",
    locale: o.locale ?? "en-US",
    timezoneId: "UTC",
    reducedMotion: "reduce",
  });
  context.setDefaultTimeout(PAGE_WAIT_MS);
  const foreignRequests: string[] = [];
  const errors: string[] = [];
  const own = origin.replace(/\/$/, "") + "/";
  context.on("request", (r) => {
    if (!r.url().startsWith(own)) foreignRequests.push(r.url());
  });
  const watch = (p: Page): void => {
    p.on("pageerror", (e) => errors.push(`pageerror: ${e.message}`));
    p.on("console", (m) => {
      if (m.type() === "error" && !/^Failed to load resource/.test(m.text())) errors.push(`console: ${m.text()}`);
    });
  };
  context.pages().forEach(watch);
  context.on("page", watch);
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    foreignRequests,
    errors,
    close: async () => {
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Follows the sign-in link and waits until the dashboard is live. */
export async function signIn(page: Page, d: { url: string; token: string }, hash = ""): Promise<void> {
  await page.goto(`${d.url}/?token=${encodeURIComponent(d.token)}`);
  if (hash) await page.goto(`${d.url}/${hash}`);
  await page.locator('[data-testid="live-indicator"][data-state="live"]').waitFor({ timeout: PAGE_WAIT_MS });
}

/**
 * Adds two sessions to a file-era (2026.7.1) state dir: a sub-agent spawned by `agent:main:main`
 * and a sub-agent of that one, each with a real-format JSONL transcript (a spawn prompt, a tool
 * call, its result and a reply). Neither fixture recording has sub-agents; the browser tests and
 * the screenshots need a tree. The daemon picks them up like any new session on disk.
 */
export function addSubAgentSessions(stateDir: string, at: number): { child: string; grandchild: string } {
  const dir = join(stateDir, "agents", "main", "sessions");
  const indexFile = join(dir, "sessions.json");
  const index = JSON.parse(readFileSync(indexFile, "utf8")) as Record<string, Record<string, unknown>>;
  const child = "agent:main:subagent:5e1f0c2a-7d3b-4a59-9c1e-2b8f6d4a0c11";
  const grandchild = "agent:main:subagent:9a7c3e51-0b2d-4f6e-8a14-6c5d2e9f1b33";
  const sessions: Array<{ key: string; id: string; parent: string; label: string; prompt: string; tool: string; reply: string; offset: number }> = [
    { key: child, id: "5e1f0c2a-7d3b-4a59-9c1e-2b8f6d4a0c11", parent: "agent:main:main", label: "Research: release notes", prompt: "Summarise the changes in the latest OpenClaw release notes.", tool: "web_fetch", reply: "The release adds SQLite session storage and faster cron scheduling.", offset: 0 },
    { key: grandchild, id: "9a7c3e51-0b2d-4f6e-8a14-6c5d2e9f1b33", parent: child, label: "Check: changelog links", prompt: "Verify that every link in the changelog resolves.", tool: "http_head", reply: "All 12 links resolve.", offset: 20_000 },
  ];
  for (const s of sessions) {
    const t = (ms: number): string => new Date(at + s.offset + ms).toISOString();
    const usage = (input: number, output: number, cost: number): Record<string, unknown> => ({ input, output, cacheRead: 2000, cacheWrite: 0, totalTokens: input + output + 2000, cost: { total: cost } });
    const lines = [
      { type: "session", version: 3, id: s.id, timestamp: t(0), cwd: "/home/op/.openclaw/workspace" },
      { type: "model_change", id: `${s.id.slice(0, 8)}-m`, parentId: null, timestamp: t(0), provider: "fakellm", modelId: "fake-model" },
      { type: "message", id: `${s.id.slice(0, 8)}-u`, parentId: null, timestamp: t(100), message: { role: "user", content: s.prompt, timestamp: at + s.offset + 100 } },
      { type: "message", id: `${s.id.slice(0, 8)}-a1`, parentId: `${s.id.slice(0, 8)}-u`, timestamp: t(900), message: { role: "assistant", content: [{ type: "toolCall", id: "call_1", name: s.tool, arguments: {} }], provider: "fakellm", model: "fake-model", usage: usage(1800, 60, 0.0061), stopReason: "toolUse", timestamp: at + s.offset + 900 } },
      { type: "message", id: `${s.id.slice(0, 8)}-t`, parentId: `${s.id.slice(0, 8)}-a1`, timestamp: t(1500), message: { role: "toolResult", toolCallId: "call_1", toolName: s.tool, content: [{ type: "text", text: "200 OK" }], isError: false, timestamp: at + s.offset + 1500 } },
      { type: "message", id: `${s.id.slice(0, 8)}-a2`, parentId: `${s.id.slice(0, 8)}-t`, timestamp: t(2400), message: { role: "assistant", content: [{ type: "text", text: s.reply }], provider: "fakellm", model: "fake-model", usage: usage(2100, 140, 0.0079), stopReason: "stop", timestamp: at + s.offset + 2400 } },
    ];
    writeFileSync(join(dir, `${s.id}.jsonl`), lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    index[s.key] = { sessionId: s.id, label: s.label, spawnedBy: s.parent, createdVia: "spawn", model: "fake-model", modelProvider: "fakellm", contextTokens: 128000, totalTokens: 4240, updatedAt: at + s.offset + 2400, startedAt: at + s.offset, lastActivityAt: at + s.offset + 2400, status: "done" };
  }
  writeFileSync(indexFile, JSON.stringify(index, null, 2));
  return { child, grandchild };
}

/**
 * Evaluates a JavaScript expression in the page. The tests pass browser code as text: the
 * project's typecheck has Node's types, not the DOM's, and must not get both.
 */
export async function inPage<T>(page: Page, expression: string): Promise<T> {
  return (await page.evaluate(expression)) as T;
}

/**
 * Waits until an expression is truthy in the page. Not `page.waitForFunction(string)`: after its
 * first try Playwright re-evaluates the string with `eval` inside the page, which the dashboard's
 * CSP (script-src 'self') forbids, so it fails whenever the condition is not already true.
 * `page.evaluate` goes through the DevTools protocol, which the CSP does not govern.
 */
export async function waitInPage(page: Page, expression: string, timeoutMs = PAGE_WAIT_MS): Promise<void> {
  await pollUntil(() => inPage<unknown>(page, expression), { timeoutMs, what: expression });
}
