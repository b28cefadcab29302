// What the Gemini CLI demo works on: the same made-up product as the other demos (Acme Cloud). The
// bundle's sessions are written by test/tools/demo/build-gemini-cli-demo.ts; the live writer
// (writer.ts) keeps working in the mobile app's repository with the turns below. Plainly a demo:
// the first prompt of each session starts with "Demo:".

/** The project the live writer works in. */
export const WRITER_CWD = "/home/op/code/acme-mobile";
export const WRITER_MODEL = "gemini-2.5-pro";
export const GEMINI_CLI_VERSION = "0.61.0";
/** Gemini CLI's fixed id of the `<session_context>` message (gemini-cli-format.md §4). */
export const CONTEXT_MESSAGE_ID = "d04923d38bb0f6017037e74183378ef4";

/** The first prompt of a session the writer starts (after a rollover). */
export const NEW_SESSION_PROMPT = "Demo: keep the Acme Cloud mobile app's release checks green.";

/** One tool call of a turn, with what the tool printed. */
export interface GeminiCall {
  name: "run_shell_command" | "read_file" | "write_file" | "grep_search";
  args: Record<string, unknown>;
  output: string;
  /** The call failed (status "error"). */
  error?: boolean;
  /** The reply text beside the call ("" for a call-only reply). */
  text?: string;
}

export interface GeminiTurnContent {
  prompt: string;
  calls: GeminiCall[];
  answer: string;
  /** The thought's subject before the answer. */
  thought: string;
  /** Delegated to the generalist sub-agent, which runs these calls and reports this. */
  agent?: { task: string; calls: GeminiCall[]; report: string };
}

const DISPLAY: Record<GeminiCall["name"], string> = { run_shell_command: "Shell", read_file: "ReadFile", write_file: "WriteFile", grep_search: "SearchText" };

export function displayName(name: string): string {
  return DISPLAY[name as GeminiCall["name"]] ?? name;
}

export const GEMINI_TURNS: readonly GeminiTurnContent[] = [
  {
    prompt: "The Android build fails on the new splash screen. Find out why.",
    calls: [{ name: "run_shell_command", args: { command: "npx expo doctor", description: "Check the Expo project" }, output: "Output: ✖ expo-splash-screen 0.27 expects a 1284x2778 image, got 1242x2688\nExit Code: 1", error: false, text: "Checking the project first." }],
    answer: "The splash image is the old iPhone size; `expo-splash-screen` 0.27 wants 1284x2778. I resized `assets/splash.png` and the doctor check passes.",
    thought: "Reading the doctor's report",
  },
  {
    prompt: "Add a pull-to-refresh on the incidents list.",
    calls: [
      { name: "read_file", args: { file_path: "/home/op/code/acme-mobile/src/screens/Incidents.tsx" }, output: "export function Incidents() {\n  const { data } = useIncidents();\n  return <FlatList data={data} renderItem={IncidentRow} />;\n}" },
      { name: "write_file", args: { file_path: "/home/op/code/acme-mobile/src/screens/Incidents.tsx", content: "…" }, output: "Successfully overwrote file: /home/op/code/acme-mobile/src/screens/Incidents.tsx." },
    ],
    answer: "The list now has a `RefreshControl` bound to `refetch` from `useIncidents`; the spinner stops when the query settles.",
    thought: "Wiring the refresh control",
  },
  {
    prompt: "Why does the login screen flash white in dark mode?",
    calls: [{ name: "grep_search", args: { pattern: "backgroundColor: \"#fff\"", dir_path: "src" }, output: "src/screens/Login.tsx:41: backgroundColor: \"#fff\"," }],
    answer: "`Login.tsx` hard-codes a white background. It now uses the theme's `colors.background`, so dark mode stays dark from the first frame.",
    thought: "Looking for hard-coded colours",
  },
  {
    prompt: "Run the unit tests.",
    calls: [{ name: "run_shell_command", args: { command: "npm test -- --silent", description: "Run the unit tests" }, output: "Output: Tests: 128 passed, 128 total\nExit Code: 0" }],
    answer: "All 128 tests pass.",
    thought: "Reporting the result",
  },
  {
    prompt: "What does the push notification payload look like?",
    calls: [],
    answer: "`{ incidentId, region, severity, title }`, sent by the status service's `notify` job; the app opens the incident on tap.",
    thought: "Answering from the code I read",
  },
  {
    prompt: "Bump the app version for the store release.",
    calls: [{ name: "run_shell_command", args: { command: "npm version minor --no-git-tag-version", description: "Bump the minor version" }, output: "Output: v2.8.0\nExit Code: 0" }],
    answer: "The app is now 2.8.0 (`package.json` and `app.json`). The build number goes up in CI.",
    thought: "Checking both version fields",
  },
  {
    prompt: "Check every screen for strings that are not translated yet.",
    calls: [],
    answer: "The sub-agent found 6 untranslated strings, all on the settings screen; I moved them to `locales/en.json` with German and French entries.",
    thought: "Summarising the sub-agent's report",
    agent: {
      task: "List user-visible strings in src/screens that do not go through t().",
      calls: [{ name: "grep_search", args: { pattern: ">[A-Z][a-z]+ [a-z]+<", dir_path: "src/screens" }, output: "src/screens/Settings.tsx: 6 matches" }],
      report: "6 hard-coded strings, all in src/screens/Settings.tsx (lines 22-61).",
    },
  },
  {
    prompt: "The offline banner stays after the network is back. Look into it.",
    calls: [{ name: "read_file", args: { file_path: "/home/op/code/acme-mobile/src/hooks/useOnline.ts" }, output: "NetInfo.addEventListener((s) => setOnline(s.isConnected));" }],
    answer: "`isConnected` is true as soon as Wi-Fi joins, before the internet is reachable, and never fires again. The hook now uses `isInternetReachable` and the banner clears.",
    thought: "Reading the connectivity hook",
  },
  {
    prompt: "Lint the project.",
    calls: [{ name: "run_shell_command", args: { command: "npx eslint src", description: "Lint the sources" }, output: "Output: src/api/client.ts\n  12:7  error  'retries' is assigned a value but never used\nExit Code: 1", error: true }],
    answer: "One lint error: an unused `retries` variable in `src/api/client.ts`. I removed it; the linter is clean now.",
    thought: "Fixing the lint error",
  },
];
