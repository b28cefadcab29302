// Builds shared/demo/claude-code-home/.claude/ (the Claude Code part of the bundled demo) from the
// real Claude Code 2.1.330 recording in the reference fixtures, and records its window in
// shared/demo/demo-state.json. Run by hand when the recording or the demo content changes, never
// at start:
//
//   node --import tsx test/tools/demo/build-claude-code-demo.ts [--fixtures DIR] [--out DIR]
//
// Every demo session is a recorded transcript used as a template: its lines keep their types,
// fields and order (queue operations, prompts, context attachments, request bookkeeping, one
// assistant line per content block, tool results, cost-state, ...). What the fake model and the
// test prompts put in them (`@@BASH@@`, "Fake reply #4", "fixture-bash-ok") becomes a short demo
// about a made-up product (Acme Cloud); ids are drawn anew (a template may serve twice, and no two
// responses may share a de-dup key); times are laid out over a working day; token counts are made
// realistic and consistent (every line of a response carries the same usage, cost-state sums them
// at the list prices, the sub-agent's hand-back reports its own usage). The 30-110 KB context
// lines stay whole in one session (so a reader's skipping of them is exercised) and are shortened
// elsewhere to keep the package small. The script ends by failing if any text of the fake
// recording is left. Its choices come from a fixed seed, so a rerun gives the same demo.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { RecordedManifest as DemoManifest } from "../../helpers/demo-bundle.js";
import { between, seededRandom, type Random } from "../../../shared/base/random.js";
import { WRITER_CWD } from "../../../shared/providers/claude-code/demo/content.js";
import { CcCostState, CcPromptCache, tokensOf, usageObject, type CcTokens } from "../../../shared/providers/claude-code/demo/usage.js";
import { arg, assertNoMarkers, defaultFixtures, IdMap, iso, readJsonl, repoRoot, replaceAll, sameShape, toJsonl, treeBytes, trimDeep, type Json } from "./jsonl-template.js";

const SEED = 20261123;
const RECORDING = "claude-code-2.1.330";
/** The recording's end in the bundle ("now" once installed). */
const END = Date.parse("2026-11-23T21:30:00.000Z");
const MIN = 60_000;

interface Project {
  cwd: string;
  /** The template's cwd, replaced by `cwd` everywhere (the slug too). */
  templateCwd: string;
  /** The git log line of the template's session context, and this project's. */
  commit: [string, string];
}

interface SessionPlan {
  /** The template transcript, relative to `.claude/projects/`. */
  template: string;
  project: Project;
  /** When each of the template's turns starts, in minutes before the end; a shorter list drops the later turns. */
  turnsAt: number[];
  /** Template text -> demo text, in every string of every line. */
  text: Array<[string, string]>;
  /** Keep the big context lines whole. */
  full?: boolean;
  /** Recorded pace times this (the fake model answered in a blink); 1 keeps retry back-offs as recorded. */
  stretch?: number;
}

const API: Project = { cwd: "/home/op/code/acme-api", templateCwd: "/home/op/code/api-server", commit: ["5d809a8 init", "9c41e07 Add invoice PDF endpoint"] };
const WEB: Project = { cwd: "/home/op/code/acme-web", templateCwd: "/home/op/code/web-ui", commit: ["5d809a8 init", "5d809a8 init"] };
/** The project the live writer keeps working in (shared/providers/claude-code/demo/writer.ts). */
const BILLING: Project = { cwd: WRITER_CWD, templateCwd: "/home/op/code/api-server", commit: ["5d809a8 init", "e02b7d4 Round invoice lines to cents"] };

const A1 = "-home-op-code-api-server/2e9c2371-da3e-47f6-90cb-2bbf8fb5defc.jsonl";
const A2 = "-home-op-code-api-server/5108af6e-f189-45e9-bdc7-b8ebdcc5714b.jsonl";
const A3 = "-home-op-code-api-server/ae24cb29-2728-49b1-a664-ab5bcd4d2ced.jsonl";
const W1 = "-home-op-code-web-ui/a192c37f-e620-463e-a774-51cf503a8cc7.jsonl";
const W2 = "-home-op-code-web-ui/099ba3cc-161b-48e0-aab9-43167bb42fd3.jsonl";

const BASH_MARKER = "echo fixture-bash-ok && ls -1 | head -5";
const BASH_MARKER_DESC = "Echo a marker and list files";
const BASH_OUT = "fixture-bash-ok\nREADME.md\nsrc";
const BASH_DONE = "Done. The tool returned: fixture-bash-ok README.md src";

const PLANS: SessionPlan[] = [
  {
    template: A1,
    project: API,
    turnsAt: [-540, -165],
    full: true,
    text: [
      ["Summarize the repository layout of api-server. @@BASH@@", "Demo: summarize the repository layout of the Acme Cloud API."],
      ["Running a quick shell command.", "I'll list the top level of the repository first."],
      [BASH_MARKER, "ls -1"],
      [BASH_MARKER_DESC, "List the repository's top level"],
      [BASH_OUT, "README.md\ndocs\nmigrations\npackage.json\nsrc\ntest\ntsconfig.json"],
      [
        BASH_DONE,
        "The Acme Cloud API is a TypeScript service:\n\n- `src/`: the HTTP server (routes, handlers, the billing client)\n- `migrations/`: SQL migrations, applied at start\n- `test/`: unit and integration tests\n- `docs/`: the OpenAPI spec and the runbooks\n\n`package.json` defines `npm start`, `npm test` and `npm run migrate`.",
      ],
      ["Now write short release notes for v0.2. @@WRITE@@", "Now write short release notes for v0.2 of the Acme Cloud API."],
      ["/home/op/code/api-server/notes-9.md", "/home/op/code/acme-api/RELEASE_NOTES.md"],
      [
        "# Notes 9\n\nWritten by the fake model through the Write tool.\n",
        "# Acme Cloud API v0.2\n\n- New `GET /v1/invoices/{id}/pdf` endpoint\n- Rate limits are returned in `RateLimit-*` headers\n- Fixed: pagination skipped the last page when `limit` divided the total\n",
      ],
      [
        "Done. The tool returned: File created successfully at: /home/op/code/api-server/notes-9.md (fi...",
        "I wrote `RELEASE_NOTES.md` with the three changes since v0.1: the invoice PDF endpoint, the rate-limit headers and the pagination fix.",
      ],
    ],
  },
  {
    template: A2,
    project: API,
    turnsAt: [-480],
    text: [
      [
        'Fake reply #4: you said "Quick question: what is a monorepo, in one sentence?". All good.',
        "A monorepo is one repository that holds several related projects (say the Acme Cloud API, dashboard and billing service), so they share tooling and change together in one commit.",
      ],
      ["Quick question: what is a monorepo, in one sentence?", "Demo: what is a monorepo, in one sentence?"],
    ],
  },
  {
    template: A3,
    project: API,
    turnsAt: [-395],
    text: [
      ["Audit the src folder for obvious bugs. @@TASK@@", "Demo: audit src/ of the Acme Cloud API for obvious bugs."],
      ["I'll delegate this to a sub-agent.", "I'll have a sub-agent go through the request handlers."],
      ["Inspect workspace files", "Audit the request handlers"],
      [
        "Sub-agent job: @@BASH@@ list the files in the working directory and report how many there are.",
        "Look through src/handlers for unguarded JSON parsing and missing input validation. Report the file and line of each finding.",
      ],
      ["Running a quick shell command.", "Searching the handlers for JSON parsing first."],
      [BASH_MARKER, 'rg -n "JSON.parse" src/handlers'],
      [BASH_MARKER_DESC, "Find JSON parsing in the handlers"],
      [BASH_OUT, "src/handlers/invoices.ts:41:  const body = JSON.parse(raw);\nsrc/handlers/webhooks.ts:18:  const event = JSON.parse(req.body);"],
      [
        BASH_DONE,
        "Two findings: src/handlers/invoices.ts:41 parses the request body without a try/catch (a malformed body answers 500 instead of 400), and src/handlers/webhooks.ts:18 parses the webhook before checking its signature.",
      ],
      [
        "Done. The tool returned: Bash [Subagent hand-back] The text below is the final report of a subagent this ...",
        "The sub-agent found two issues:\n\n1. `src/handlers/invoices.ts:41`: a malformed JSON body throws and the client gets a 500; it should be a 400.\n2. `src/handlers/webhooks.ts:18`: the webhook is parsed before its signature is verified.\n\nShall I fix both?",
      ],
    ],
  },
  {
    template: W1,
    project: WEB,
    turnsAt: [-300],
    text: [
      ["Check the dev server config in the README. @@READ@@", "Demo: check the dev server config in the Acme Cloud dashboard README."],
      ["1\t# web-ui\n2\t\n3\tFrontend config: port=5173\n4", "1\t# Acme Cloud dashboard\n2\t\n3\tDev server: `npm run dev` on port 5173, proxying /api to http://localhost:8080.\n4"],
      ["# web-ui\n\nFrontend config: port=5173\n", "# Acme Cloud dashboard\n\nDev server: `npm run dev` on port 5173, proxying /api to http://localhost:8080.\n"],
      [
        "Done. The tool returned: 1 # web-ui 2 3 Frontend config: port=5173 4",
        "The README says the dev server runs with `npm run dev` on port 5173 and proxies `/api` to the API on port 8080, which matches `vite.config.ts`. Nothing to change.",
      ],
    ],
  },
  {
    template: W2,
    project: WEB,
    turnsAt: [-262],
    stretch: 1,
    text: [
      ["Deploy a preview build. @@FAIL@@", "Demo: deploy a preview build of the Acme Cloud dashboard."],
      [
        "API Error: 500 Internal server error (fake). This is a server-side issue, usually temporary — try again in a moment. If it persists, check your inference gateway (127.0.0.1:18991).",
        "API Error: 500 Internal server error. This is a server-side issue, usually temporary — try again in a moment. If it persists, check status.claude.com.",
      ],
      ["Internal server error (fake)", "Internal server error"],
    ],
  },
  {
    template: A1,
    project: BILLING,
    turnsAt: [-35],
    text: [
      ["Summarize the repository layout of api-server. @@BASH@@", "Demo: find where invoice totals are rounded in the Acme Cloud billing service."],
      ["Running a quick shell command.", "Let me search for the rounding helper."],
      [BASH_MARKER, 'rg -n "roundCents" src'],
      [BASH_MARKER_DESC, "Find the rounding helper"],
      [
        BASH_OUT,
        "src/money.ts:12:export function roundCents(x: number): number {\nsrc/invoice/total.ts:27:  return roundCents(subtotal + tax);\nsrc/invoice/lines.ts:9:  amount: roundCents(qty * unitPrice),",
      ],
      [
        BASH_DONE,
        "Totals are rounded twice: each line in `src/invoice/lines.ts:9` and the total in `src/invoice/total.ts:27`, both with `roundCents` from `src/money.ts`. Rounding the lines first is why a total can be a cent off the sum of the unrounded amounts.",
      ],
    ],
  },
];

function slug(cwd: string): string {
  return cwd.replace(/[/.]/g, "-");
}

/** Strings of a response's lines, to size its answer. */
function responseText(line: Json): string {
  const content = ((line.message as Json | undefined)?.content ?? []) as Json[];
  return content.map((c) => (c.type === "text" ? String(c.text) : c.type === "tool_use" ? JSON.stringify(c.input) : "")).join("");
}

/** What a user line adds to the conversation: a prompt's text or the tool results. */
function userText(line: Json): string {
  const c = (line.message as Json | undefined)?.content;
  if (typeof c === "string") return c;
  if (!Array.isArray(c)) return "";
  return (c as Json[]).map((x) => (typeof x.content === "string" ? x.content : JSON.stringify(x.content ?? x.text ?? ""))).join("");
}

const isResponse = (l: Json): boolean => l.type === "assistant" && (l.message as Json | undefined)?.model !== "<synthetic>";
const keyOf = (l: Json): string => `${String((l.message as Json).id)}|${String(l.requestId)}`;

interface Timed {
  /** Template ms -> demo ms. */
  map(ms: number): number;
}

/** The turns of a template (a turn starts at each `queue-operation` enqueue) and where each is placed. */
function turnTimes(lines: Json[], plan: SessionPlan): { turnOf: number[]; keep: number; timed: Timed } {
  const starts: number[] = [];
  const turnOf: number[] = [];
  for (const l of lines) {
    if (l.type === "queue-operation" && l.operation === "enqueue") starts.push(Date.parse(String(l.timestamp)));
    turnOf.push(starts.length - 1);
  }
  if (plan.turnsAt.length > starts.length) throw new Error(`${plan.template} has ${starts.length} turns, the plan places ${plan.turnsAt.length}`);
  const keep = turnOf.findIndex((t) => t >= plan.turnsAt.length);
  const stretch = plan.stretch ?? 6;
  return {
    turnOf,
    keep: keep === -1 ? lines.length : keep,
    timed: {
      map: (ms) => {
        let k = 0;
        for (let i = 0; i < plan.turnsAt.length; i++) if ((starts[i] as number) <= ms) k = i;
        return END + (plan.turnsAt[k] as number) * MIN + (ms - (starts[k] as number)) * stretch;
      },
    },
  };
}

/** Times, branch, trimming and texts of one line (ids and usage come after). */
function rewriteLine(line: Json, plan: SessionPlan, timed: Timed, pairs: Array<[string, string]>): Json {
  let out = { ...line };
  const stretch = plan.stretch ?? 6;
  if (typeof out.timestamp === "string") out.timestamp = iso(timed.map(Date.parse(out.timestamp)));
  if (out.type === "cost-state") {
    if (typeof out.startTime === "number") out.startTime = timed.map(out.startTime);
    for (const k of ["totalAPIDuration", "totalAPIDurationWithoutRetries", "totalToolDuration", "totalDuration"]) if (typeof out[k] === "number") out[k] = Math.round((out[k] as number) * stretch);
  }
  const tur = out.toolUseResult as Json | undefined;
  if (tur && typeof tur.totalDurationMs === "number") out.toolUseResult = { ...tur, totalDurationMs: Math.round(tur.totalDurationMs * stretch) };
  const big = (out.type === "attachment" && ["prompt_snapshot", "skill_listing", "agent_listing_delta"].includes(String((out.attachment as Json).type))) || out.type === "api-request-shape" || out.type === "api-request-blob";
  if (big && !plan.full) out = trimDeep(out, 300, 3) as Json;
  return replaceAll(out, pairs) as Json;
}

/** Usage for every response, in file order, through one simulated prompt cache per transcript. */
function assignUsage(lines: Json[], random: Random): Map<string, { model: string; tokens: CcTokens; index: number }> {
  const cache = new CcPromptCache(random);
  const output = new Map<string, number>();
  for (const l of lines) if (isResponse(l)) output.set(keyOf(l), (output.get(keyOf(l)) ?? 0) + tokensOf(responseText(l)));
  const usage = new Map<string, { model: string; tokens: CcTokens; index: number }>();
  let added = 0;
  lines.forEach((l, index) => {
    if (l.type === "user") added += tokensOf(userText(l)) + 12;
    else if (l.type === "attachment") added += 40;
    if (!isResponse(l) || usage.has(keyOf(l))) return;
    const out = (output.get(keyOf(l)) ?? 0) + between(random, 24, 90);
    const tokens = cache.request(Date.parse(String(l.timestamp)), added, out);
    usage.set(keyOf(l), { model: String((l.message as Json).model), tokens, index });
    added = out;
  });
  for (const l of lines) {
    if (!isResponse(l)) continue;
    const u = usage.get(keyOf(l)) as { tokens: CcTokens };
    l.message = { ...(l.message as Json), usage: usageObject(u.tokens) };
  }
  return usage;
}

interface Built {
  files: Map<string, string>;
  first: number;
  last: number;
}

function buildSession(projects: string, plan: SessionPlan, random: Random): Built {
  const templateFile = join(projects, plan.template);
  const lines = readJsonl(templateFile);
  const { keep, timed } = turnTimes(lines, plan);
  const main = lines.slice(0, keep);
  const sessionId = String(main[0]?.sessionId);
  const subDir = join(projects, plan.template.replace(/\.jsonl$/, ""), "subagents");
  const agentIds = existsSync(subDir) ? readdirSync(subDir).flatMap((n) => /^agent-([0-9a-f]+)\.jsonl$/.exec(n)?.[1] ?? []) : [];

  const pairs: Array<[string, string]> = [...plan.text, [plan.project.templateCwd, plan.project.cwd], [slug(plan.project.templateCwd), slug(plan.project.cwd)], plan.project.commit];
  const ids = new IdMap(random, [
    { re: /msg_01[A-Za-z0-9]{20,}/g, make: sameShape("msg_01") },
    { re: /req_011C[A-Za-z0-9]+/g, make: sameShape("req_011C") },
    { re: /toolu_01[A-Za-z0-9]+/g, make: sameShape("toolu_01") },
    ...agentIds.map((a) => ({ re: new RegExp(a, "g"), make: () => `a${Array.from({ length: 16 }, () => Math.floor(random() * 16).toString(16)).join("")}` })),
  ]);
  const files = new Map<string, string>();
  let first = Infinity;
  let last = -Infinity;
  const note = (ls: Json[]): void => {
    for (const l of ls) {
      if (typeof l.timestamp !== "string") continue;
      const t = Date.parse(l.timestamp);
      first = Math.min(first, t);
      last = Math.max(last, t);
    }
  };
  const newSlug = slug(plan.project.cwd);

  // Sub-agents first: the parent's hand-back and cost-state report their usage.
  const subUsage: Array<{ model: string; tokens: CcTokens }> = [];
  let lastSub: CcTokens | null = null;
  for (const agentId of agentIds) {
    const sub = readJsonl(join(subDir, `agent-${agentId}.jsonl`)).map((l) => rewriteLine(l, plan, timed, pairs));
    const usage = assignUsage(sub, random);
    for (const u of [...usage.values()].sort((a, b) => a.index - b.index)) {
      subUsage.push({ model: u.model, tokens: u.tokens });
      lastSub = u.tokens;
    }
    note(sub);
    const meta = replaceAll(JSON.parse(readFileSync(join(subDir, `agent-${agentId}.meta.json`), "utf8")), pairs);
    const rel = `${newSlug}/${sessionId}/subagents/agent-${agentId}`;
    files.set(ids.apply(`${rel}.jsonl`), ids.apply(toJsonl(sub)));
    files.set(ids.apply(`${rel}.meta.json`), ids.apply(JSON.stringify(meta)));
  }

  const out = main.map((l) => rewriteLine(l, plan, timed, pairs));
  const usage = assignUsage(out, random);
  // cost-state: cumulative over the file's responses so far, sub-agents included (they ran inside the turn).
  const cost = new CcCostState();
  let subAdded = false;
  const seen = new Set<string>();
  for (const l of out) {
    if (isResponse(l) && !seen.has(keyOf(l))) {
      seen.add(keyOf(l));
      const u = usage.get(keyOf(l)) as { model: string; tokens: CcTokens };
      cost.add(u.model, u.tokens);
    }
    const tur = l.toolUseResult as Json | undefined;
    if (tur && typeof tur.agentId === "string" && lastSub) {
      // The Agent tool's result reports the sub-agent's final response, as recorded.
      const total = lastSub.input + lastSub.output + lastSub.cacheRead + lastSub.cacheWrite;
      l.toolUseResult = { ...tur, totalTokens: total, usage: { ...(tur.usage as Json), ...pick(usageObject(lastSub), ["input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens", "output_tokens", "cache_creation"]) } };
      if (!subAdded) for (const s of subUsage) cost.add(s.model, s.tokens);
      subAdded = true;
    }
    if (l.type === "cost-state") {
      l.totalCostUSD = cost.totalCost();
      l.modelUsage = cost.modelUsage();
    }
  }
  note(out);
  files.set(ids.apply(`${newSlug}/${sessionId}.jsonl`), ids.apply(toJsonl(out)));
  return { files, first, last };
}

function pick(o: Json, keys: string[]): Json {
  const out: Json = {};
  for (const k of keys) out[k] = o[k];
  return out;
}

function main(): void {
  const fixtures = arg("--fixtures") ?? defaultFixtures(RECORDING);
  const out = resolve(arg("--out") ?? join(repoRoot, "shared", "demo"));
  const projects = join(fixtures, RECORDING, ".claude", "projects");
  const work = mkdtempSync(join(tmpdir(), "gi-demo-cc-"));
  try {
    const home = join(work, "claude-code-home");
    const random = seededRandom(SEED);
    let first = Infinity;
    let last = -Infinity;
    for (const plan of PLANS) {
      const built = buildSession(projects, plan, random);
      first = Math.min(first, built.first);
      last = Math.max(last, built.last);
      for (const [rel, text] of built.files) {
        const file = join(home, ".claude", "projects", rel);
        mkdirSync(resolve(file, ".."), { recursive: true });
        writeFileSync(file, text);
      }
    }
    if (last > END) throw new Error(`the demo runs past its end: ${iso(last)}`);
    assertNoMarkers(home, [/api-server/, /web-ui/]);

    const manifestFile = join(out, "demo-state.json");
    const manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as DemoManifest;
    manifest.claudeCode = { home: "claude-code-home", configDir: ".claude", recordedFrom: first, recordedUntil: END };
    rmSync(join(out, "claude-code-home"), { recursive: true, force: true });
    renameSync(home, join(out, "claude-code-home"));
    writeFileSync(manifestFile, JSON.stringify(manifest, null, 2) + "\n");
    process.stdout.write(`Claude Code demo written to ${join(out, "claude-code-home")} (${PLANS.length} sessions, ${treeBytes(join(out, "claude-code-home"))} bytes, ${iso(first)} .. ${iso(END)})\n`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main();
