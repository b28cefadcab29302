// What the Codex demo works on: the same made-up product as the other demos (Acme Cloud), in
// three repositories. The bundle's sessions are written by test/tools/demo/build-codex-demo.ts; the live
// writer (writer.ts) keeps resuming a thread in the status-page repository with the turns below.
// Plainly a demo: the first prompt of each thread starts with "Demo:".

/** The project the live writer works in. */
export const WRITER_CWD = "/home/op/projects/acme-status";
export const WRITER_MODEL = "gpt-5-codex";
export const CODEX_VERSION = "0.169.0";
/** The context window Codex reports for the GPT-5 models. */
export const CONTEXT_WINDOW = 272_000;

/** The first prompt of a thread the writer starts (after a rollover). */
export const NEW_THREAD_PROMPT = "Demo: keep the Acme Cloud status page checks green.";

interface CodexCall {
  cmd: string;
  output: string;
  exit?: number;
  /** The reasoning summary before the call. */
  why: string;
}

export interface CodexTurnContent {
  prompt: string;
  calls: CodexCall[];
  answer: string;
  /** The reasoning summary before the answer. */
  answerWhy: string;
}

export const CODEX_TURNS: readonly CodexTurnContent[] = [
  {
    prompt: "The eu-west latency check flaps. Make it retry once before alerting.",
    calls: [{ cmd: "rg -n \"latency\" checks/", output: "checks/latency.ts:14:export async function checkLatency(region: string) {\nchecks/latency.ts:31:  if (ms > LIMIT_MS) return alert(region, ms);", why: "**Finding the latency check**\n\nI'll look at how the check raises an alert." }],
    answer: "`checkLatency` now measures twice, 5 s apart, and alerts only when both exceed the limit. Added a test for one slow sample followed by a fast one.",
    answerWhy: "**Summarising the change**",
  },
  {
    prompt: "Add the new ap-south region to the status page.",
    calls: [{ cmd: "cat config/regions.json", output: '["us-east","us-west","eu-west","eu-central"]', why: "**Reading the region list**\n\nThe status page builds its rows from the region config." }],
    answer: "Added `ap-south` to `config/regions.json`; the page and the checks pick it up from there. Its checks start reporting on the next run.",
    answerWhy: "**Summarising the change**",
  },
  {
    prompt: "Why did the SSL expiry check not warn about the api certificate?",
    calls: [
      { cmd: "rg -n \"daysLeft\" checks/ssl.ts", output: "checks/ssl.ts:22:  const daysLeft = Math.floor((cert.validTo - Date.now()) / DAY);\nchecks/ssl.ts:23:  if (daysLeft < 7) return warn(host, daysLeft);", why: "**Checking the threshold**\n\nI'll read how the expiry is compared." },
      { cmd: "cat config/ssl-hosts.json", output: '["status.acme.example","app.acme.example"]', why: "**Listing the checked hosts**" },
    ],
    answer: "The api host was never checked: `config/ssl-hosts.json` lists only the status and app hosts. I added `api.acme.example` and raised the warning threshold from 7 to 14 days.",
    answerWhy: "**Explaining the gap**",
  },
  {
    prompt: "Run the checks' tests.",
    calls: [{ cmd: "npm test --silent", output: "# tests 46\n# pass 46\n# fail 0", why: "**Running the tests**" }],
    answer: "All 46 tests pass.",
    answerWhy: "**Reporting the result**",
  },
  {
    prompt: "Show the incident banner text when a region is degraded, not just a yellow dot.",
    calls: [{ cmd: "rg -n \"degraded\" src/page", output: "src/page/region-row.tsx:18:  {status === \"degraded\" && <Dot color=\"yellow\" />}", why: "**Locating the region row**" }],
    answer: "A degraded region now shows the open incident's title next to the dot, linking to the incident. Regions without an incident keep the dot alone.",
    answerWhy: "**Summarising the change**",
  },
  {
    prompt: "How often does the uptime job run?",
    calls: [],
    answer: "Every minute: `jobs/uptime.ts` is scheduled with `*/1 * * * *` and checks each region's health endpoint with a 10 s timeout.",
    answerWhy: "**Answering briefly**",
  },
  {
    prompt: "Bump the checker's HTTP timeout to 15 seconds for the eu regions only.",
    calls: [{ cmd: "rg -n \"timeoutMs\" checks/http.ts", output: "checks/http.ts:9:const timeoutMs = 10_000;", why: "**Finding the timeout**" }],
    answer: "The timeout is now per region: 15 s for `eu-west` and `eu-central`, 10 s elsewhere (`checks/http.ts`).",
    answerWhy: "**Summarising the change**",
  },
  {
    prompt: "Is the status page's cache header right?",
    calls: [{ cmd: "rg -n \"Cache-Control\" src/server.ts", output: "src/server.ts:27:  res.setHeader(\"Cache-Control\", \"public, max-age=300\");", why: "**Reading the response headers**" }],
    answer: "Five minutes is too long during an incident. I set `max-age=30, stale-while-revalidate=60` so updates show within half a minute.",
    answerWhy: "**Summarising the change**",
  },
];
