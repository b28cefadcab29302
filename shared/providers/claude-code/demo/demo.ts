// Claude Code's demo, as its module declares it (shared/providers/demo-contract.ts): the recorded
// home shared/demo/claude-code-home (its config dir `.claude`), moved to now, and its writer.
import { homeDemo } from "../../demo-kit/home-demo.js";
import { ClaudeCodeDemoWriter } from "./writer.js";

export const claudeCodeDemo = homeDemo({
  manifestKey: "claudeCode",
  folder: "claude-code-home",
  configDir: ".claude",
  seconds: false,
  writer: (configDir, random) => new ClaudeCodeDemoWriter({ configDir, random }),
});
