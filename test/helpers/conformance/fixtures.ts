// Every registered provider's conformance fixture (kit.ts), typed by the registry: a new provider
// does not compile until it has one.
import type { ProviderName } from "../../../shared/providers/registry.js";
import { claudeCodeFixture } from "./claude-code.js";
import { codexFixture } from "./codex.js";
import { geminiCliFixture } from "./gemini-cli.js";
import type { ProviderFixture } from "./kit.js";
import { openclawFixture } from "./openclaw.js";

export const CONFORMANCE_FIXTURES: Record<ProviderName, ProviderFixture> = {
  openclaw: openclawFixture,
  "claude-code": claudeCodeFixture,
  codex: codexFixture,
  "gemini-cli": geminiCliFixture,
};
