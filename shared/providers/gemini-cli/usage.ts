// A Gemini CLI response's `tokens` (gemini-cli-format.md §5) in the shared vocabulary (design §9),
// validated by the usage guard. The file's fields are the API's usageMetadata: `input` is the
// prompt and includes `cached`; `tool` (tool-use prompt tokens) is billed as input but is not part
// of `input`; `output` excludes `thoughts`, which are billed as output. So: input = input - cached
// + tool, cacheRead = cached, output = output + thoughts, reasoning = thoughts. The prompt the
// price tier looks at (input + cacheRead) is then `input + tool`, as Google bills it.
import { badUsageField, checkTokenCount } from "../../base/usage-guard.js";
import type { TokenUsage } from "../contract.js";
import type { SourceWarning } from "../result.js";
import { asObject } from "../jsonl/shape.js";

const FIELDS = ["input", "output", "cached", "thoughts", "tool"] as const;

/** null: no usage (absent or null), or usage refused (then a warning says why). */
export function toTokenUsage(raw: unknown, where: string, warnings: SourceWarning[]): TokenUsage | null {
  if (raw === undefined || raw === null) return null;
  const o = asObject(raw);
  if (!o) {
    warnings.push(badUsageField("tokens", "is not an object", where));
    return null;
  }
  const v: Record<(typeof FIELDS)[number], number> = { input: 0, output: 0, cached: 0, thoughts: 0, tool: 0 };
  for (const f of FIELDS) {
    const c = checkTokenCount(o[f]);
    if (c.problem !== null) {
      // One refused field drops the whole response's usage: half a usage would skew totals silently.
      warnings.push(badUsageField(`tokens.${f}`, c.problem, where));
      return null;
    }
    v[f] = c.value;
  }
  if (v.cached > v.input) {
    warnings.push(badUsageField("tokens.cached", `${v.cached} exceeds tokens.input (${v.input})`, where));
    return null;
  }
  return { input: v.input - v.cached + v.tool, cacheRead: v.cached, cacheWrite: 0, cacheWrite1h: 0, output: v.output + v.thoughts, reasoning: v.thoughts };
}
