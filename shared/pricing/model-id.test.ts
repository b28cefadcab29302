import { test } from "uvu";
import * as assert from "uvu/assert";
import { MAX_MODEL_ID_LENGTH, modelIdCandidates } from "./model-id.js";

/** The last candidate is the most normalized form. */
const last = (id: string): string | undefined => modelIdCandidates(id).at(-1);

test("the id itself comes first, lower-cased and trimmed", () => {
  assert.is(modelIdCandidates(" Claude-Sonnet-4-5-20250929 ")[0], "claude-sonnet-4-5-20250929");
  assert.equal(modelIdCandidates("gpt-5-codex"), ["gpt-5-codex"]);
});

test("date suffixes are stripped (Anthropic and OpenAI forms)", () => {
  assert.equal(modelIdCandidates("claude-sonnet-4-5-20250929"), ["claude-sonnet-4-5-20250929", "claude-sonnet-4-5"]);
  assert.is(last("gpt-5-mini-2025-08-07"), "gpt-5-mini");
});

test("router and vendor prefixes are stripped", () => {
  assert.ok(modelIdCandidates("anthropic/claude-sonnet-4-5").includes("claude-sonnet-4-5"));
  assert.ok(modelIdCandidates("openrouter/openai/gpt-5-mini").includes("gpt-5-mini"));
  assert.ok(modelIdCandidates("openai:gpt-5").includes("gpt-5"));
});

test("Bedrock ids, with region and ARN forms, lose their decorations", () => {
  assert.is(last("anthropic.claude-sonnet-4-5-20250929-v1:0"), "claude-sonnet-4-5");
  assert.is(last("us.anthropic.claude-opus-4-5-20251101-v1:0"), "claude-opus-4-5");
  assert.is(last("global.anthropic.claude-haiku-4-5-20251001-v1:0"), "claude-haiku-4-5");
  assert.is(last("arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-sonnet-4-20250514-v1:0"), "claude-sonnet-4");
  assert.is(last("anthropic.claude-v2:1"), "claude-v2");
});

test("a version inside an id is not taken for a Bedrock revision or prefix", () => {
  // `-v3` is part of the name here, and the dot in `gpt-5.1` is a version, not a vendor prefix.
  assert.ok(modelIdCandidates("deepseek-v3").every((id) => id === "deepseek-v3"));
  assert.equal(modelIdCandidates("gpt-5.1"), ["gpt-5.1"]);
});

test("Vertex @ versions are stripped", () => {
  assert.is(last("claude-sonnet-4-5@20250929"), "claude-sonnet-4-5");
  assert.is(last("claude-opus-4-1@latest"), "claude-opus-4-1");
});

test("Claude aliases: dotted versions and the bare family name", () => {
  assert.is(last("sonnet-4.5"), "claude-sonnet-4-5");
  assert.is(last("claude-haiku-4.5"), "claude-haiku-4-5");
  assert.is(last("opus-4-5"), "claude-opus-4-5");
  assert.is(last("claude-3-7-sonnet-latest"), "claude-3-7-sonnet");
});

test("nothing is stripped by prefix: a newer version keeps its own id", () => {
  assert.not.ok(modelIdCandidates("claude-sonnet-5-5").includes("claude-sonnet-5"));
  assert.not.ok(modelIdCandidates("claude-opus-5-5").includes("claude-opus-5"));
});

test("empty and over-long ids give no candidates", () => {
  assert.equal(modelIdCandidates(""), []);
  assert.equal(modelIdCandidates("   "), []);
  assert.equal(modelIdCandidates("a".repeat(MAX_MODEL_ID_LENGTH + 1)), []);
});

test.run();
