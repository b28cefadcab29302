// Model ids as they appear in provider files are not always the ids a price list uses: a date
// suffix, a router prefix (`anthropic/…`), a Bedrock or Vertex form, or a short alias. This turns
// one id into the ordered list of ids to look up, most literal first. It never guesses by prefix:
// `claude-sonnet-5-5` is not `claude-sonnet-5`, so an unknown version stays unknown (unpriced)
// instead of being priced as its neighbour.

/** Longer ids are refused outright: no model id is this long, and a hostile one costs nothing. */
export const MAX_MODEL_ID_LENGTH = 256;

const CLAUDE_FAMILIES = /^(sonnet|opus|haiku|fable|mythos)-\d/;

/**
 * The ids to try for `raw`, lower-cased, without duplicates, in this order:
 * the id itself; without a router prefix (`openrouter/anthropic/x` → `x`, `openai:x` → `x`);
 * without Bedrock/Vertex decorations (`us.anthropic.x-v1:0`, `x@20250929`); without a date
 * suffix (`-20250929`, `-2025-08-07`); without `-latest`; and for Claude, the dashed form of a
 * dotted version with the `claude-` prefix added (`sonnet-4.5` → `claude-sonnet-4-5`).
 */
export function modelIdCandidates(raw: string): string[] {
  const out: string[] = [];
  const add = (id: string): void => {
    if (id !== "" && !out.includes(id)) out.push(id);
  };
  let id = raw.trim().toLowerCase();
  if (id === "" || id.length > MAX_MODEL_ID_LENGTH) return [];
  add(id);

  // Router prefixes: everything up to the last "/" (also ends an ARN), then a `vendor:` prefix
  // (only when a letter follows, so Bedrock's `…-v1:0` is left for the next step).
  id = id.slice(id.lastIndexOf("/") + 1);
  id = id.replace(/^[a-z][a-z0-9-]*:(?=[a-z])/, "");
  add(id);

  // Bedrock: `[region.]vendor.model-v1:0` (region: us, eu, apac, global, …). Only letter-and-dash
  // segments count, so the dot in a version such as `gpt-5.1` is never taken for one.
  // The `-v1:0` revision is stripped only after a date: `claude-v2:1` and `deepseek-v3` are names.
  id = id.replace(/^(?:[a-z][a-z-]*\.){1,2}(?=[a-z])/, "");
  id = id.replace(/(-\d{8})-v\d+(?::\d+)?$/, "$1").replace(/:\d+$/, "");
  // Vertex: `model@20250929` or `model@latest`.
  id = id.replace(/@[^@]*$/, "");
  add(id);

  id = id.replace(/-\d{8}$/, "").replace(/-\d{4}-\d{2}-\d{2}$/, "");
  add(id);
  id = id.replace(/-latest$/, "");
  add(id);

  if (CLAUDE_FAMILIES.test(id)) id = `claude-${id}`;
  if (id.startsWith("claude")) id = id.replace(/(\d)\.(\d)/g, "$1-$2");
  add(id);
  return out;
}
