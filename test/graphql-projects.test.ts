// What the dashboard asks that the provider-neutral core did not answer before: the providers read
// (DashboardNamespace.providers) and the per-project breakdown (AgentNamespace.projects), over a
// daemon reading all three recorded fixtures. Expected figures come from the fixture files.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { removeTempDirs } from "./helpers/openclaw-fixtures.js";
import { claudeProjects, codexProjects, startAllProviders, type ProjectTokens } from "./helpers/all-providers.js";
import { gqlData } from "./helpers/daemon.js";
import { pollUntil } from "../shared/base/clock.js";

test.after(removeTempDirs);

interface Project {
  project: string | null;
  sessions: number;
  totalTokens: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  costUsd: number;
  turns: number;
}

const FIELDS = "project sessions totalTokens inputTokens outputTokens cacheReadTokens cacheWriteTokens costUsd turns";

const projectsOf = (source: string, range: string | null): string =>
  `{ source(selector: { id: "${source}" }) { ... on AgentNamespace {
      projects${range ? `(range: ${range})` : ""} { ${FIELDS} }
      metrics(range: ${range ?? "TWENTY_FOUR_HOUR"}) { costUsd totalTurns buckets { tokens } }
      lifetimeStats { totalTokens totalCostUsd totalUserMessages isReady }
      sessions(filter: { grouped: false, limit: 1000 }) { key project costUsd }
  } } }`;

interface Answer {
  source: {
    projects: Project[];
    metrics: { costUsd: number; totalTurns: number; buckets: Array<{ tokens: number }> };
    lifetimeStats: { totalTokens: number; totalCostUsd: number; totalUserMessages: number; isReady: boolean };
    sessions: Array<{ key: string; project: string | null; costUsd: number }>;
  };
}

const near = (a: number, b: number, what: string): void => assert.ok(Math.abs(a - b) < 1e-6, `${what}: ${a} != ${b}`);

function expectProjects(got: Project[], want: Map<string, ProjectTokens>, what: string): void {
  assert.equal(got.map((p) => p.project).sort(), [...want.keys()].sort(), `${what}: one row per working directory`);
  for (const p of got) {
    const w = want.get(p.project as string) as ProjectTokens;
    assert.is(p.sessions, w.sessions, `${what} ${p.project}: sessions`);
    assert.is(p.inputTokens, w.input, `${what} ${p.project}: input`);
    assert.is(p.outputTokens, w.output, `${what} ${p.project}: output`);
    assert.is(p.cacheReadTokens, w.cacheRead, `${what} ${p.project}: cache read`);
    assert.is(p.cacheWriteTokens, w.cacheWrite, `${what} ${p.project}: cache write`);
    assert.is(p.totalTokens, w.input + w.output + w.cacheRead + w.cacheWrite, `${what} ${p.project}: total`);
  }
  const totals = got.map((p) => p.totalTokens);
  assert.equal(totals, [...totals].sort((a, b) => b - a), `${what}: most tokens first`);
}

test("DashboardNamespace.providers lists the providers read, in A, B, C order", async () => {
  const d = await startAllProviders();
  try {
    const data = await gqlData<{ source: { providers: string[]; openclawDir: string | null } }>(d, `{ source(selector: { id: "dashboard:self" }) { ... on DashboardNamespace { providers openclawDir } } }`);
    assert.equal(data.source.providers, ["PROVIDER_A", "PROVIDER_B", "PROVIDER_C"]);
    assert.is(data.source.openclawDir, d.openclawDir);
  } finally {
    await d.stop();
  }
});

test("projects: tokens and sessions per working directory, all time and over a range, agreeing with metrics and lifetime", async () => {
  const d = await startAllProviders();
  try {
    for (const [source, want] of [
      [d.claudeSource, claudeProjects(d.claudeDir)],
      [d.codexSource, codexProjects(d.codexDir)],
    ] as const) {
      assert.ok(want.size >= 2, `${source}: the fixture has two projects`);
      const all = await pollUntil(async () => {
        // The installs register while the first scan runs: NOT_FOUND until then.
        const a = await gqlData<Answer>(d, projectsOf(source, null)).catch(() => null);
        return a?.source.lifetimeStats.isReady ? a : null;
      }, { what: `${source} read` });
      expectProjects(all.source.projects, want, `${source} all time`);
      const life = all.source.lifetimeStats;
      near(all.source.projects.reduce((n, p) => n + p.costUsd, 0), life.totalCostUsd, `${source}: project costs add up to the lifetime cost`);
      assert.is(all.source.projects.reduce((n, p) => n + p.turns, 0), life.totalUserMessages, `${source}: turns add up`);
      // Each project's cost is the cost of its sessions.
      for (const p of all.source.projects) near(p.costUsd, all.source.sessions.filter((s) => s.project === p.project).reduce((n, s) => n + s.costUsd, 0), `${source} ${p.project}: cost`);

      // The fixture's usage lies inside the last 6 hours: the range gives the same rows, and the same sums as metrics.
      const ranged = await gqlData<Answer>(d, projectsOf(source, "SIX_HOUR"));
      expectProjects(ranged.source.projects, want, `${source} 6 h`);
      assert.is(ranged.source.projects.reduce((n, p) => n + p.totalTokens, 0), ranged.source.metrics.buckets.reduce((n, b) => n + b.tokens, 0), `${source}: range tokens = metrics`);
      near(ranged.source.projects.reduce((n, p) => n + p.costUsd, 0), ranged.source.metrics.costUsd, `${source}: range cost = metrics`);
      assert.is(ranged.source.projects.reduce((n, p) => n + p.turns, 0), ranged.source.metrics.totalTurns, `${source}: range turns = metrics`);
      // Thirty minutes back from the clock (21:50) holds no Claude Code turn (21:19) and only part of Codex's (21:28-21:29): never more than all time.
      const short = await gqlData<Answer>(d, projectsOf(source, "THIRTY_MIN"));
      assert.is(short.source.projects.reduce((n, p) => n + p.totalTokens, 0), short.source.metrics.buckets.reduce((n, b) => n + b.tokens, 0), `${source}: 30 min tokens = metrics`);
    }
    // OpenClaw's sessions have no working directory: one row, project null, with every token.
    const oc = await gqlData<Answer>(d, projectsOf("agent:main", null));
    assert.equal(oc.source.projects.map((p) => p.project), [null]);
    assert.is(oc.source.projects[0]?.totalTokens, oc.source.lifetimeStats.totalTokens);
    // Bad input is refused with the documented code.
    const bad = await fetch(`${d.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${d.token}` },
      body: JSON.stringify({ query: `{ source(selector: { id: "${d.codexSource}" }) { ... on AgentNamespace { projects(range: FOREVER) { project } } } }` }),
    });
    const body = (await bad.json()) as { errors?: Array<{ extensions?: { code?: string } }> };
    assert.ok(body.errors?.length, "an unknown range is an error");
    const limited = await gqlData<{ source: { projects: Project[] } }>(d, `{ source(selector: { id: "${d.codexSource}" }) { ... on AgentNamespace { projects(limit: -5) { project } } } }`);
    assert.is(limited.source.projects.length, 1, "a limit below 1 gives one row");
  } finally {
    await d.stop();
  }
});

test.run();
