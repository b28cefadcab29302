// Gemini CLI's demo, as its module declares it (shared/providers/demo-contract.ts): the recorded
// home shared/demo/gemini-home (`.gemini` in it), moved to now, each session file renamed to its
// moved start minute as Gemini CLI names it, and its writer.
import { homeDemo } from "../../demo-kit/home-demo.js";
import { renameSessionsToStart } from "./layout.js";
import { GeminiCliDemoWriter } from "./writer.js";

export const geminiCliDemo = homeDemo({
  manifestKey: "geminiCli",
  folder: "gemini-home",
  configDir: ".gemini",
  seconds: false,
  rename: (geminiDir) => renameSessionsToStart(geminiDir),
  writer: (geminiDir, random) => new GeminiCliDemoWriter({ geminiDir, random }),
});
