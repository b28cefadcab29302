// Codex's demo, as its module declares it (shared/providers/demo-contract.ts): the recorded home
// shared/demo/codex-home (CODEX_HOME is `.codex` in it), moved to now with its unix-second fields,
// its rollouts renamed into this machine's local time, and its writer.
import { homeDemo } from "../../demo-kit/home-demo.js";
import { renameRolloutsToLocal } from "./rollout-name.js";
import { CodexDemoWriter } from "./writer.js";

export const codexDemo = homeDemo({
  manifestKey: "codex",
  folder: "codex-home",
  configDir: ".codex",
  seconds: true,
  rename: renameRolloutsToLocal,
  writer: (codexHome, random) => new CodexDemoWriter({ codexHome, random }),
});
