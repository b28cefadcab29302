// `insightsctl statusline` as Claude Code runs it after every message: the documented input piped
// in (test/fixtures/statusline/subscriber.json), one line out. Timed side by side, alternating, on
// the same input: bare `node -e ""` (the floor every Node CLI pays), our command with and without
// a daemon (with none it writes the spool), and `ccusage statusline` (ccusage 20.0.24, bench/ccusage.ts).
// Aim: within 1.5x of bare Node. Beside them, `insightsctl usage daily --json` against the same
// running daemon (a small install: its answer is a few rows), the other CLI call a user or script
// repeats; aim (issue 23): at most 1.5x bare Node, as `insightsctl status`.
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import { createServer } from "node:net";
import * as path from "node:path";
import { CcusageUnavailable, locateCcusage } from "./ccusage.js";
import { cliMain } from "./build.js";
import { BENCH_TMP, REPO_ROOT } from "./paths.js";
import type { Measurements, Row, Suite } from "./suite.js";


function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const a = srv.address();
      srv.close(() => resolve(typeof a === "object" && a ? a.port : 0));
    });
  });
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

function timeOnce(cmd: string, args: string[], input: string, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(cmd, args, { env, stdio: ["pipe", "ignore", "ignore"] });
    child.on("error", reject);
    child.on("close", () => resolve(Number(process.hrtime.bigint() - t0) / 1e6));
    child.stdin.on("error", () => undefined);
    child.stdin.end(input);
  });
}

export const statuslineSuite: Suite = {
  name: "statusline",
  title: "insightsctl statusline per call (Claude Code runs it after every message), and usage on a warm daemon",
  async setup(o): Promise<Measurements> {
    const CTL = cliMain(o.build);
    if (!fs.existsSync(CTL)) throw new Error("dist/ is missing: npm run build first");
    fs.mkdirSync(BENCH_TMP, { recursive: true });
    const dir = fs.mkdtempSync(path.join(BENCH_TMP, "statusline-"));
    const home = path.join(dir, "home");
    fs.mkdirSync(path.join(home, ".claude", "projects"), { recursive: true });
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, XDG_STATE_HOME: path.join(dir, "state"), XDG_CONFIG_HOME: path.join(dir, "config"), XDG_RUNTIME_DIR: path.join(dir, "run"), CLAUDE_CONFIG_DIR: path.join(home, ".claude") };
    const raw = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "test", "fixtures", "statusline", "subscriber.json"), "utf8")) as Record<string, unknown>;
    const now = Math.floor(Date.now() / 1000);
    const input = JSON.stringify({ ...raw, transcript_path: path.join(home, ".claude", "projects", "-app", "s.jsonl"), rate_limits: { five_hour: { used_percentage: 42.5, resets_at: now + 3600 }, seven_day: { used_percentage: 18, resets_at: now + 3 * 86400 } } });
    let ccusage: string | null = null;
    const context: string[] = [];
    try {
      const found = locateCcusage();
      ccusage = found.bin;
      context.push(`ccusage ${found.version} (${path.relative(REPO_ROOT, found.bin)}) statusline on the same input`);
    } catch (err) {
      if (!(err instanceof CcusageUnavailable)) throw err;
      context.push(`ccusage unavailable: ${err.message}`);
    }
    // With a daemon: the usual case (the reading goes over the control socket, today's cost comes back).
    const started = spawnSync(process.execPath, [CTL, "start"], { env: { ...env, INSIGHTS_PORT: String(await freePort()) }, encoding: "utf8" });
    const daemon = started.status === 0;
    if (!daemon) context.push(`no daemon could be started for the with-daemon row: ${started.stderr.trim().split("\n")[0] ?? ""}`);
    const reps = o.quick ? 5 : 30;
    context.push(`median of ${reps} calls each, alternating; input ${input.length} bytes`);
    return {
      context,
      async run(): Promise<Row[]> {
        const t: Record<string, number[]> = { node: [], noDaemon: [], withDaemon: [], usage: [], ccusage: [] };
        const noDaemonEnv = { ...env, XDG_RUNTIME_DIR: path.join(dir, "run-none") };
        for (let i = 0; i < reps + 2; i++) {
          const warm = i < 2;
          const push = (k: string, ms: number): void => void (!warm && t[k]?.push(ms));
          push("node", await timeOnce(process.execPath, ["-e", ""], input, env));
          push("noDaemon", await timeOnce(process.execPath, [CTL, "statusline"], input, noDaemonEnv));
          if (daemon) push("withDaemon", await timeOnce(process.execPath, [CTL, "statusline"], input, env));
          if (daemon) push("usage", await timeOnce(process.execPath, [CTL, "usage", "daily", "--json"], "", env));
          if (ccusage) push("ccusage", await timeOnce(ccusage, ["statusline", "--offline"], input, env));
        }
        const node = median(t.node as number[]);
        const rows: Row[] = [{ metric: 'bare node -e ""', value: node, unit: "ms" }];
        for (const [k, label] of [
          ["withDaemon", "insightsctl statusline, daemon running"],
          ["noDaemon", "insightsctl statusline, no daemon (spool)"],
          ["usage", "insightsctl usage daily --json, warm daemon"],
        ] as const) {
          const xs = t[k] as number[];
          if (!xs.length) continue;
          const m = median(xs);
          rows.push({ metric: label, value: m, unit: "ms" });
          rows.push({ metric: `${label} / bare node`, value: Math.round((m / node) * 100) / 100, unit: "x", aim: { op: "<=", limit: 1.5 } });
        }
        if (t.ccusage?.length) rows.push({ metric: "ccusage statusline", value: median(t.ccusage), unit: "ms", note: "the same input, its native binary" });
        return rows;
      },
      async teardown(): Promise<void> {
        if (daemon) spawnSync(process.execPath, [CTL, "stop"], { env });
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};
