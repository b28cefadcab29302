// Builds shared/demo/codex-home/.codex/ (the Codex part of the bundled demo) from the real Codex
// 0.169.0 recording in the reference fixtures, and records its window in
// shared/demo/demo-state.json. Run by hand when the recording or the demo content changes, never
// at start:
//
//   node --import tsx test/tools/demo/build-codex-demo.ts [--fixtures DIR] [--out DIR]
//
// Every demo thread is a recorded rollout used as a template: its lines keep their types, fields
// and order (session_meta, task_started, turn_context, response items, token_usage_record,
// token_count, item_completed, task_complete, ...). What the fake model and the test prompts put
// in them (`[[SHELL: ls -la]]`, "I ran 2 command(s)", the fake provider's name) becomes a short
// demo about a made-up product (Acme Cloud); ids are drawn anew (time-ordered UUIDs, as Codex's);
// times are laid out over a working day; token counts are realistic and consistent (each
// token_usage_record's usage, its turn and thread sums, and every token_count's cumulative total
// agree); the plan's rate limits rise with use, hit the limit once (a 429 turn), reset with the
// 5-hour window and rise again. Rollout names and date folders are in UTC here; the install moves
// them to the local time, as Codex names them. The script ends by failing if any text of the
// fake recording is left. Its choices come from a fixed seed, so a rerun gives the same demo.
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { RecordedManifest as DemoManifest } from "../../helpers/demo-bundle.js";
import { hex, seededRandom, type Random } from "../../../shared/base/random.js";
import { CONTEXT_WINDOW, WRITER_CWD, type CodexTurnContent } from "../../../shared/providers/codex/demo/content.js";
import { addUsage, CodexPrompt, nextWindow, PRIMARY_MINUTES, rateLimitsObject, SECONDARY_MINUTES, tokensOf, ZERO_USAGE, type CodexUsage, type RateWindow } from "../../../shared/providers/codex/demo/usage.js";
import { arg, assertNoMarkers, defaultFixtures, IdMap, iso, readJsonl, repoRoot, replaceAll, sameShape, toJsonl, treeBytes, trimStrings, uuidV7, type Json } from "./jsonl-template.js";

const SEED = 20261124;
const RECORDING = "codex-0.169.0";
const END = Date.parse("2026-11-23T21:30:00.000Z");
const MIN = 60_000;

/** The recorded projects' dirs. */
const TEMPLATE_CWDS = ["/home/op/projects/webshop", "/home/op/projects/infra-scripts"];

interface Project {
  cwd: string;
  /** The git facts of session_meta: a repository with its branch, or none. */
  git: { commit: string; branch: string; url: string } | null;
}

const SHOP: Project = { cwd: "/home/op/projects/acme-shop", git: { commit: "", branch: "main", url: "https://git.acme.example/acme/shop.git" } };
const INFRA: Project = { cwd: "/home/op/projects/acme-infra", git: null };
const STATUS: Project = { cwd: WRITER_CWD, git: { commit: "", branch: "main", url: "https://git.acme.example/acme/status.git" } };

interface TurnPlan extends CodexTurnContent {
  /** Minutes before the end. */
  at: number;
  /** The turn fails: the recorded 500s, or the plan's usage limit (a 429). */
  fail?: "server" | "usage-limit";
}

interface ThreadPlan {
  template: string;
  project: Project;
  turns: TurnPlan[];
  stretch?: number;
  /** Keep the 20 KB instructions and the context messages whole (else shortened, to keep the package small). */
  full?: boolean;
}

const S1 = "rollout-2026-11-23T21-28-34-01a20a4f-8ada-7c40-a2c4-78459390a270.jsonl";
const S2 = "rollout-2026-11-23T21-28-44-01a20a4f-b29a-7013-ab8a-2e5f4eacdbbb.jsonl";
const S3 = "rollout-2026-11-23T21-28-48-01a20a4f-c0a7-70c0-9b38-1aa052ca57cc.jsonl";
const S4 = "rollout-2026-11-23T21-28-52-01a20a4f-ce31-70b1-9d3d-de24c7722363.jsonl";
const S5 = "rollout-2026-11-23T21-29-04-01a20a4f-fdf8-7f63-ac60-18abdb48f090.jsonl";

const PLANS: ThreadPlan[] = [
  {
    template: S1,
    project: SHOP,
    full: true,
    turns: [
      {
        at: -570,
        prompt: "Demo: add a /health endpoint to the Acme Cloud shop server. Look around first.",
        calls: [
          { cmd: "ls", output: "README.md\npackage.json\nscripts\nsrc\ntest\n", why: "**Looking around**\n\nI'll list the repository to see how the server is laid out." },
          {
            cmd: "cat package.json src/server.js",
            output: '{"name":"acme-shop","version":"1.4.2","scripts":{"start":"node src/server.js","test":"node --test"}}\nconst express = require("express");\nconst app = express();\napp.use("/api", require("./routes"));\napp.listen(process.env.PORT || 8080);\n',
            why: "**Reading the server**\n\nThe entry point is `src/server.js`; I'll read it with the package scripts.",
          },
        ],
        answer:
          "Added `GET /health` to `src/server.js`: it answers `200 {\"status\":\"ok\",\"version\":\"1.4.2\"}` without touching the database, so the load balancer can call it cheaply. It is mounted before the `/api` routes, so auth does not apply.",
        answerWhy: "**Adding the endpoint**",
      },
      {
        at: -548,
        prompt: "Now add a test for /health.",
        calls: [{ cmd: "grep -n listen src/server.js", output: "5:app.listen(process.env.PORT || 8080);\n", why: "**Checking how the app starts**\n\nA test needs the app without the listen call." }],
        answer: "Split `src/app.js` (the app) from `src/server.js` (listen), and added `test/health.test.js`: it starts the app on a free port and expects 200 with `status: ok`. `npm test` passes.",
        answerWhy: "**Writing the test**",
      },
    ],
  },
  {
    template: S2,
    project: SHOP,
    turns: [
      {
        at: -500,
        prompt: "Demo: summarise the Acme shop README for a newcomer in two sentences.",
        calls: [],
        answer: "The Acme shop is the storefront API for Acme Cloud add-ons: an Express server with product, cart and checkout routes backed by Postgres. Run `npm start` for the server on port 8080 and `npm test` for the tests.",
        answerWhy: "**Answering briefly**",
      },
    ],
  },
  {
    template: S3,
    project: INFRA,
    turns: [
      {
        at: -440,
        prompt: "Demo: check that the Acme infra disk usage script works.",
        calls: [{ cmd: "sh scripts/disk.sh", output: "/dev/vda        252G   29G   74G  28% /\n", why: "**Running the script**\n\nI'll run it as the cron job does." }],
        answer: "It works: it prints the root filesystem's usage (28 % of 252G used). It only checks `/`, so the data volume the backups use is not covered.",
        answerWhy: "**Summarising the output**",
      },
    ],
  },
  {
    template: S4,
    project: INFRA,
    turns: [{ at: -425, prompt: "Demo: deploy the Acme inventory service to staging.", calls: [], answer: "", answerWhy: "", fail: "server" }],
    stretch: 1,
  },
  {
    template: S4,
    project: SHOP,
    turns: [{ at: -392, prompt: "Demo: regenerate the Acme shop's product thumbnails script for the new sizes.", calls: [], answer: "", answerWhy: "", fail: "usage-limit" }],
    stretch: 1,
  },
  {
    template: S5,
    project: SHOP,
    full: true,
    turns: [
      {
        at: -180,
        prompt: "Demo: explain what src/server.js does in the Acme shop.",
        calls: [{ cmd: "cat src/server.js", output: 'const app = require("./app");\napp.listen(process.env.PORT || 8080);\n', why: "**Reading the entry point**" }],
        answer: "`src/server.js` only starts the app: it loads the Express app from `src/app.js` (routes, `/health`, middleware) and listens on `$PORT`, 8080 by default. Keeping them apart lets the tests start the app on a free port.",
        answerWhy: "**Explaining the file**",
      },
      { at: -172, prompt: "Thanks, that is all for now.", calls: [], answer: "You're welcome. The server and app split is ready for review whenever you are.", answerWhy: "**Answering briefly**" },
    ],
  },
  {
    template: S1,
    project: STATUS,
    turns: [
      {
        at: -40,
        prompt: "Demo: keep the Acme Cloud status page checks green. Start with what runs.",
        calls: [
          { cmd: "ls checks", output: "http.ts\nlatency.ts\nssl.ts\nuptime.ts\n", why: "**Listing the checks**" },
          { cmd: "cat jobs/schedule.json", output: '{"uptime":"*/1 * * * *","latency":"*/5 * * * *","ssl":"0 6 * * *"}\n', why: "**Reading the schedule**\n\nEach check runs from a cron entry." },
        ],
        answer: "Four checks run: uptime every minute, latency every 5 minutes, SSL expiry daily at 06:00, and the HTTP probe the others use. All passed on their last run.",
        answerWhy: "**Summarising the checks**",
      },
    ],
  },
];

/** The rate-limit story: the morning's 5-hour window fills up to the limit; after its reset the afternoon starts low. */
const MORNING = { minutes: PRIMARY_MINUTES, perToken: 0.5 / 1000, ceiling: 200, start: 45 };
const AFTERNOON = { minutes: PRIMARY_MINUTES, perToken: 0.3 / 1000, ceiling: 72, start: 2 };
const WEEK = { minutes: SECONDARY_MINUTES, perToken: 0.05 / 1000, ceiling: 80, start: 41 };
const WEEK_RESETS = END + 3 * 86_400_000 + 7 * 3_600_000;

function chunkOutput(random: Random, exit: number, output: string): string {
  return `Chunk ID: ${hex(random, 6)}\nWall time: 0.0000 seconds\nProcess exited with code ${exit}\nOriginal token count: ${tokensOf(output)}\nOutput:\n${output}`;
}

interface Context {
  random: Random;
  primary: RateWindow | null;
  secondary: RateWindow | null;
  /** The TUI's prompts, for history.jsonl. */
  history: Array<{ sessionId: string; ts: number; text: string }>;
}

/** Turn index of each line: a turn starts at its task_started, or at the thread_settings_applied just before it. */
function turnsOf(lines: Json[]): number[] {
  const starts: number[] = [];
  lines.forEach((l, i) => {
    if (l.type === "event_msg" && (l.payload as Json).type === "task_started") {
      const prev = lines[i - 1];
      starts.push(prev && prev.type === "event_msg" && (prev.payload as Json).type === "thread_settings_applied" && starts.length > 0 ? i - 1 : starts.length === 0 ? 0 : i);
    }
  });
  return lines.map((_, i) => {
    let k = 0;
    starts.forEach((s, j) => {
      if (s <= i) k = j;
    });
    return k;
  });
}

function buildThread(sessionsDir: string, plan: ThreadPlan, ctx: Context): { rel: string; text: string; first: number; last: number } {
  const { random } = ctx;
  const template = readJsonl(join(sessionsDir, plan.template));
  const turnOf = turnsOf(template);
  const keepUntil = turnOf.findIndex((t) => t >= plan.turns.length);
  const lines = template.slice(0, keepUntil === -1 ? template.length : keepUntil);
  const stretch = plan.stretch ?? 6;
  const starts = plan.turns.map((_, k) => Date.parse(String(lines[turnOf.indexOf(k)]?.timestamp)));
  const map = (ms: number, k: number): number => END + (plan.turns[k] as TurnPlan).at * MIN + (ms - (starts[k] as number)) * stretch;
  /** A template time with no turn of its own (seconds fields): the turn it falls in. */
  const mapAny = (ms: number): number => {
    let k = 0;
    starts.forEach((s, j) => {
      if (s <= ms + 1000) k = j;
    });
    return map(ms, k);
  };

  let lineTime = 0;
  const ids = new IdMap(random, [
    { re: /\b(rs|fc|msg|resp)_[0-9a-f]{24}\b/g, make: (old, r) => `${old.split("_")[0]}_${hex(r, 24)}` },
    { re: /\bcall_[0-9a-f]{20}\b/g, make: sameShape("call_") },
  ], () => uuidV7(random, lineTime));
  const git = plan.project.git ? { ...plan.project.git, commit: hex(random, 40) } : null;
  // Either recorded project may serve as any demo project's template.
  const pairs: Array<[string, string]> = [...TEMPLATE_CWDS.map((c): [string, string] => [c, plan.project.cwd]), ["fakeopenai", "openai"]];
  const prompt = new CodexPrompt(random);
  let thread: CodexUsage = { ...ZERO_USAGE };
  let turnUsage: CodexUsage = { ...ZERO_USAGE };
  let added = 0;
  const out: Json[] = [];
  const tui = (template[0]?.payload as Json | undefined)?.source === "vscode";
  const reasoningIndex = new Map<string, number>();
  let reasoningCount = 0;
  let callIndex = 0;
  let turnK = -1;
  let lastUsage: CodexUsage | null = null;
  /** Tokens the model wrote for the response the next token_usage_record counts (a call's arguments, or the answer). */
  let visible = 0;

  lines.forEach((src, i) => {
    const k = turnOf[i] as number;
    const turn = plan.turns[k] as TurnPlan;
    if (k !== turnK) {
      turnK = k;
      turnUsage = { ...ZERO_USAGE };
      reasoningIndex.clear();
      reasoningCount = 0;
      callIndex = 0;
      added = tokensOf(turn.prompt) + 20;
    }
    let l = JSON.parse(JSON.stringify(src)) as Json;
    const bulky = l.type === "session_meta" || l.type === "world_state" || (l.type === "response_item" && (l.payload as Json).type === "message" && (l.payload as Json).role === "developer");
    if (bulky && !plan.full) l = trimStrings(l, 400) as Json;
    const ts = map(Date.parse(String(l.timestamp)), k);
    l.timestamp = iso(ts);
    lineTime = ts;
    const p = l.payload as Json;
    const answer = turn.answer;
    switch (l.type) {
      case "session_meta":
        p.timestamp = iso(mapAny(Date.parse(String(p.timestamp))));
        if (git) p.git = { commit_hash: git.commit, branch: git.branch, repository_url: git.url };
        else p.git = {};
        break;
      case "token_usage_record": {
        const u = prompt.respond(ts, added, visible);
        added = 0;
        turnUsage = addUsage(turnUsage, u);
        thread = addUsage(thread, u);
        lastUsage = u;
        Object.assign(p, { usage: u, turn_token_usage: turnUsage, thread_token_usage: thread });
        break;
      }
      case "response_item":
        if (p.type === "message" && p.role === "user" && JSON.stringify(p).includes('"user.text"')) (p.content as Json[])[0] = { ...(p.content as Json[])[0], text: turn.prompt };
        else if (p.type === "message" && p.role === "assistant") {
          (p.content as Json[])[0] = { ...(p.content as Json[])[0], text: answer };
          visible = tokensOf(answer) + 8;
        }
        else if (p.type === "reasoning") (p.summary as Json[])[0] = { type: "summary_text", text: reasoningText(turn, reasoningIndex.get(String(p.id)) ?? 0) };
        else if (p.type === "function_call") {
          const call = turn.calls[callIndex];
          if (!call) throw new Error(`${plan.template}: the template has more calls than the plan`);
          p.arguments = JSON.stringify({ cmd: call.cmd, yield_time_ms: 10000 });
          visible = tokensOf(String(p.arguments)) + 12;
          callIndex++;
        } else if (p.type === "function_call_output") {
          const call = turn.calls[callIndex - 1] as TurnPlan["calls"][number];
          p.output = chunkOutput(random, call.exit ?? 0, call.output);
          added += tokensOf(String(p.output)) + 16;
        }
        if (p.internal_chat_message_metadata_passthrough && typeof (p.internal_chat_message_metadata_passthrough as Json).create_time === "number") {
          const meta = p.internal_chat_message_metadata_passthrough as Json;
          meta.create_time = Math.round(mapAny((meta.create_time as number) * 1000)) / 1000;
        }
        break;
      case "event_msg":
        switch (p.type) {
          case "task_started":
            p.started_at = Math.floor(ts / 1000);
            p.model_context_window = CONTEXT_WINDOW;
            break;
          case "task_complete": {
            const startedAt = Math.floor(map(starts[k] as number, k) / 1000);
            p.started_at = startedAt;
            p.completed_at = Math.floor(ts / 1000);
            if (typeof p.duration_ms === "number") p.duration_ms = Math.round(p.duration_ms * stretch);
            if (typeof p.time_to_first_token_ms === "number") p.time_to_first_token_ms = Math.round(p.time_to_first_token_ms * stretch);
            if ("last_agent_message" in p) p.last_agent_message = answer;
            break;
          }
          case "token_count": {
            const info = p.info as Json | null;
            if (info && lastUsage) {
              info.total_token_usage = thread;
              info.last_token_usage = lastUsage;
              info.model_context_window = CONTEXT_WINDOW;
            }
            p.rate_limits = rateLimits(ctx, ts, lastUsage?.total_tokens ?? 0);
            break;
          }
          case "item_completed": {
            const item = p.item as Json;
            if (item.type === "UserMessage") (item.content as Json[])[0] = { ...(item.content as Json[])[0], text: turn.prompt };
            else if (item.type === "AgentMessage") (item.content as Json[])[0] = { ...(item.content as Json[])[0], text: answer };
            else if (item.type === "Reasoning") {
              const n = reasoningCount++;
              reasoningIndex.set(String(item.id), n);
              item.summary_text = [reasoningText(turn, n)];
            } else if (item.type === "CommandExecution") {
              const call = turn.calls[callIndex - 1] as TurnPlan["calls"][number];
              item.command = ["/bin/bash", "-lc", call.cmd];
              item.parsed_cmd = [{ type: "unknown", cmd: call.cmd }];
              item.aggregated_output = call.output;
              item.exit_code = call.exit ?? 0;
            }
            for (const f of ["started_at_ms", "completed_at_ms"]) if (typeof p[f] === "number") p[f] = Math.round(mapAny(p[f] as number));
            break;
          }
          default:
            break;
        }
        break;
      default:
        break;
    }
    if (l.type === "event_msg" && p.type === "task_complete" && turn.fail === "usage-limit") {
      // Codex records a 429 as a token_count with no usage (`info: null`) and the plan at its limit, then the failed turn.
      const rl = rateLimits(ctx, ts - 120, 0);
      (rl.primary as RateWindow).used_percent = 100;
      rl.rate_limit_reached_type = "primary";
      const resetsIn = Math.max(1, Math.round(((rl.primary as RateWindow).resets_at * 1000 - ts) / 60_000));
      out.push({ timestamp: iso(ts - 120), ordinal: 0, type: "event_msg", payload: { type: "token_count", info: null, rate_limits: rl } });
      p.error = { message: `You've hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro) or try again in ${Math.floor(resetsIn / 60)} hours ${resetsIn % 60} minutes.`, codex_error_info: "usage_limit_exceeded" };
      p.duration_ms = 156;
    }
    out.push(l);
    // Only the TUI writes history.jsonl: one line per submitted prompt, at the turn's start.
    if (l.type === "event_msg" && p.type === "task_started" && tui) ctx.history.push({ sessionId: "", ts: p.started_at as number, text: turn.prompt });
  });
  out.forEach((l, i) => (l.ordinal = i));

  const replaced = replaceAll(out, pairs) as Json[];
  const meta = replaced[0]?.payload as Json;
  const created = Date.parse(String(meta.timestamp));
  const sessionId = ids.apply(String(meta.id));
  const text = ids.apply(toJsonl(replaced));
  for (const h of ctx.history) if (h.sessionId === "") h.sessionId = sessionId;
  const stamp = iso(created).slice(0, 19).replace(/:/g, "-");
  const day = iso(created).slice(0, 10).split("-").join("/");
  const times = replaced.map((l) => Date.parse(String(l.timestamp)));
  return { rel: `sessions/${day}/rollout-${stamp}-${sessionId}.jsonl`, text, first: Math.min(...times), last: Math.max(...times) };
}

function reasoningText(turn: TurnPlan, n: number): string {
  return n < turn.calls.length ? (turn.calls[n] as TurnPlan["calls"][number]).why : turn.answerWhy;
}

/** The plan's figures after a response of `tokens` at `ts` (or on a 429). */
function rateLimits(ctx: Context, ts: number, tokens: number): Json {
  const afternoon = ctx.primary !== null && ctx.primary.resets_at <= Math.floor(ts / 1000);
  ctx.primary = nextWindow(ctx.primary, ts, tokens, afternoon || ts > END - 300 * MIN ? AFTERNOON : MORNING);
  ctx.secondary = ctx.secondary ?? { used_percent: WEEK.start, window_minutes: SECONDARY_MINUTES, resets_at: Math.floor(WEEK_RESETS / 1000) };
  ctx.secondary = nextWindow(ctx.secondary, ts, tokens, WEEK);
  return rateLimitsObject({ ...ctx.primary }, { ...ctx.secondary });
}

const CONFIG_TOML = `model = "gpt-5-codex"

[projects."/home/op/projects/acme-shop"]
trust_level = "trusted"

[tui]
screen_reader_detection_done = true
`;

function main(): void {
  const fixtures = arg("--fixtures") ?? defaultFixtures(RECORDING);
  const out = resolve(arg("--out") ?? join(repoRoot, "shared", "demo"));
  const sessionsDir = join(fixtures, RECORDING, ".codex", "sessions", "2026", "11", "23");
  const work = mkdtempSync(join(tmpdir(), "gi-demo-codex-"));
  try {
    const home = join(work, "codex-home");
    const codex = join(home, ".codex");
    const ctx: Context = { random: seededRandom(SEED), primary: null, secondary: null, history: [] };
    let first = Infinity;
    let last = -Infinity;
    // In time order, so the plan's rate limits rise as the day goes.
    const ordered = [...PLANS].sort((a, b) => (a.turns[0] as TurnPlan).at - (b.turns[0] as TurnPlan).at);
    for (const plan of ordered) {
      const t = buildThread(sessionsDir, plan, ctx);
      first = Math.min(first, t.first);
      last = Math.max(last, t.last);
      const file = join(codex, t.rel);
      mkdirSync(resolve(file, ".."), { recursive: true });
      writeFileSync(file, t.text);
    }
    if (last > END) throw new Error(`the demo runs past its end: ${iso(last)}`);
    writeFileSync(join(codex, "config.toml"), CONFIG_TOML);
    writeFileSync(join(codex, "history.jsonl"), ctx.history.map((h) => JSON.stringify({ session_id: h.sessionId, ts: h.ts, text: h.text })).join("\n") + "\n");
    assertNoMarkers(home, [/webshop/, /infra-scripts/]);

    const manifestFile = join(out, "demo-state.json");
    const manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as DemoManifest;
    manifest.codex = { home: "codex-home", configDir: ".codex", recordedFrom: first, recordedUntil: END };
    rmSync(join(out, "codex-home"), { recursive: true, force: true });
    renameSync(home, join(out, "codex-home"));
    writeFileSync(manifestFile, JSON.stringify(manifest, null, 2) + "\n");
    process.stdout.write(`Codex demo written to ${join(out, "codex-home")} (${PLANS.length} threads, ${treeBytes(join(out, "codex-home"))} bytes, ${iso(first)} .. ${iso(END)})\n`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main();
