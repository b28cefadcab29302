// Claude Code's counts as the store keeps them, against the fixture's own lines: a background
// sub-agent's `<task-notification>` line in the parent transcript is no user turn (format doc §5),
// and the lifetime's createdAt is the earliest timestamped line of any type (the `queue-operation`
// enqueue before the first message), as OpenClaw's is its session header.
import * as fs from "node:fs";
import * as path from "node:path";
import { randomUUID } from "node:crypto";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { buildIndex } from "../../pricing/dataset.js";
import { Pricer } from "../../pricing/pricer.js";
import { queryLifetimeRow } from "../../queries/lifetime.js";
import { Store } from "../../store/store.js";
import { ClaudeCodeProvider } from "./provider.js";
import { coreReadModel, type ProviderModel } from "../../../test/helpers/provider-model.js";
import { copyClaudeHome, expectedPrompts, rawLines, removeTempDirs, transcriptFiles, type RawLine } from "../../../test/helpers/claude-code-fixture.js";

test.after(removeTempDirs);

/** The core after one collection of the copy's install (no prices: counts only); its store holds the counts. */
async function collect(home: string, claudeDir: string): Promise<ProviderModel> {
  const pricer = new Pricer({ dataset: buildIndex([], "empty") });
  return coreReadModel(() => new ClaudeCodeProvider({ env: {}, home, dirs: [claudeDir], pricer }), "claude-code:default", { now: Date.UTC(2026, 10, 24, 12, 0) });
}

/** User turns of the main transcript of a session (its session key is the session id; a sub-agent's has its own). */
const userMessages = (store: Store, sessionId: string): number =>
  (store.db.prepare("SELECT sum(user_messages) AS n FROM transcript_totals WHERE source_id = 'claude-code:default' AND session_key = ?").get(sessionId) as { n: number }).n;

test("a background sub-agent's <task-notification> line is not a user turn: one typed prompt, one turn", async () => {
  const { home, claudeDir } = copyClaudeHome();
  // The session that ran a sub-agent (it has a subagents/ folder), its main transcript.
  const main = transcriptFiles(claudeDir).find((rel) => !rel.includes("/subagents/") && transcriptFiles(claudeDir).some((r) => r.startsWith(rel.replace(/\.jsonl$/, "/subagents/"))));
  assert.ok(main, "the fixture has a session with a sub-agent");
  const file = path.join(claudeDir, main as string);
  const before = rawLines(file);
  const typed = expectedPrompts(before, false);
  assert.ok(typed >= 1);
  // The documented shape (format doc §5): a `user` line of the parent whose text begins
  // `<task-notification>`, written after the sub-agent finished. Built from the file's own prompt
  // line, so every other field is as Claude Code writes it; once as a string, once as text blocks.
  const prompt = before.find((l) => l.type === "user" && typeof l.message?.content === "string" && !l.isSidechain) as RawLine;
  const last = before.filter((l) => typeof l.timestamp === "string").at(-1) as RawLine;
  const at = (ms: number): string => new Date(Date.parse(last.timestamp as string) + ms).toISOString();
  const body = "<task-notification>\n<task-id>a166e0b902aacb7f6</task-id>\n<status>completed</status>\n<summary>Agent \"Explore\" completed</summary>\n</task-notification>";
  const notifications = [
    { ...prompt, uuid: randomUUID(), parentUuid: last.uuid ?? null, timestamp: at(1000), message: { role: "user", content: body } },
    { ...prompt, uuid: randomUUID(), parentUuid: null, timestamp: at(2000), message: { role: "user", content: [{ type: "text", text: body }] } },
  ];
  fs.appendFileSync(file, notifications.map((l) => `${JSON.stringify(l)}\n`).join(""));
  const pm = await collect(home, claudeDir);
  try {
    assert.is(userMessages(pm.store, path.basename(file, ".jsonl")), typed);
  } finally {
    await pm.close();
  }
});

test("lifetimeStats.createdAt: the earliest timestamped line of any type (the queue-operation before the first message)", async () => {
  const { home, claudeDir } = copyClaudeHome();
  const lines = transcriptFiles(claudeDir).flatMap((rel) => rawLines(path.join(claudeDir, rel)));
  const times = (pred: (l: RawLine) => boolean): number[] => lines.filter((l) => pred(l) && typeof l.timestamp === "string").map((l) => Date.parse(l.timestamp as string));
  const earliest = Math.min(...times(() => true));
  const firstMessage = Math.min(...times((l) => l.type === "user" || l.type === "assistant"));
  assert.ok(earliest < firstMessage, "the fixture has a line before its first message");
  const pm = await collect(home, claudeDir);
  try {
    assert.is(queryLifetimeRow(pm.store, pm.sourceId).first, earliest);
  } finally {
    await pm.close();
  }
});

test.run();
