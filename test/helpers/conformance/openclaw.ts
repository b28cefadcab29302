// OpenClaw's fixture for the conformance suite (kit.ts): the 2026.7.1 state dir (file era: one
// agent `main`, sessions.json and one JSONL transcript per session window) changed the way the
// gateway changes it. agent:main:main (d8df227b) is one turn: a header, then its prompt and reply;
// the cron session (4d7eee47) is deleted. Figures by openclaw-formats.md: a prompt per user message,
// a response per assistant message with its recorded usage and cost, a tool call per `toolCall`
// block, an error per `stopReason: "error"`. OpenClaw's responses carry no id to de-duplicate by,
// and its transcripts write nothing for the event log (the gateway's log does).
import * as fs from "node:fs";
import * as path from "node:path";
import { OpenClawProvider } from "../../../shared/providers/openclaw/provider.js";
import { openclawReader } from "../../../shared/providers/openclaw/reader.js";
import { openAgentData } from "../../../shared/providers/openclaw/agent-data.js";
import { fixtureTranscripts, type FixtureTranscript } from "../fixture-expectations.js";
import { copyFixture, FILES_FIXTURE, type RawLine } from "../openclaw-fixtures.js";
import { cutAt, zeroFigures, type Figures, type FixtureCopy, type Oracle } from "./kit.js";

const MAIN = "d8df227b-0372-4cd5-8fa4-e413554a2d69";
const CRON = "4d7eee47-dc3e-4269-8d1c-bb0990fbc547";

const jsonl = (lines: readonly unknown[]): string => lines.map((l) => `${JSON.stringify(l)}\n`).join("");

function add(into: Figures, t: FixtureTranscript): Figures {
  for (const e of t.events as RawLine[]) {
    const m = e.type === "message" ? e.message : null;
    if (m?.role === "user") into.prompts++;
    if (m?.role !== "assistant") continue;
    const u = m.usage ?? {};
    // Every reply of the fixture records its cost: nothing for the core to price, nothing unpriced.
    if (typeof u.cost?.total !== "number") throw new Error(`${t.sessionId}: a reply without a recorded cost; the oracle does not price`);
    into.responses++;
    into.input += u.input ?? 0;
    into.output += u.output ?? 0;
    into.cacheRead += u.cacheRead ?? 0;
    into.cacheWrite += u.cacheWrite ?? 0;
    into.cost += u.cost.total;
    into.toolCalls += (Array.isArray(m.content) ? m.content : []).filter((b: RawLine) => b.type === "toolCall").length;
    if (m.stopReason === "error") into.errors++;
  }
  return into;
}

export function openclawFixture(): FixtureCopy {
  const stateDir = copyFixture(FILES_FIXTURE);
  const sessionsDir = path.join(stateDir, "agents", "main", "sessions");
  const file = (id: string): string => path.join(sessionsDir, `${id}.jsonl`);
  const lines = (id: string): RawLine[] => (fixtureTranscripts(stateDir).find((t) => t.sessionId === id) as FixtureTranscript).events as RawLine[];
  const keyOf = (id: string): string => fixtureTranscripts(stateDir).find((t) => t.sessionId === id)?.sessionKey as string;
  /** The main transcript's header lines, before its prompt. */
  const promptAt = (): number => lines(MAIN).findIndex((l) => l.type === "message" && l.message?.role === "user");
  return {
    sourceId: "agent:main",
    provider: () => new OpenClawProvider({ stateDir, env: {} }),
    expected: (): Oracle => {
      const all = fixtureTranscripts(stateDir);
      const bySession = new Map<string, Figures>();
      const total = zeroFigures();
      for (const t of all) {
        add(total, t);
        if (t.sessionKey) bySession.set(t.sessionKey, add(bySession.get(t.sessionKey) ?? zeroFigures(), t));
      }
      return { bySession, total, files: all.length, incidents: { error: 0, warning: 0 } };
    },
    resumable: () => ({ key: keyOf(MAIN), file: file(MAIN), ...cutAt(file(MAIN), promptAt()) }),
    newTurn: () => {
      // The main session's prompt and reply again, an hour later, under ids of their own.
      const all = lines(MAIN);
      const prompt = all[promptAt()] as RawLine;
      const reply = all.find((l) => l.type === "message" && l.message?.role === "assistant") as RawLine;
      const usage = { ...reply.message.usage, input: 7, output: 11, cacheRead: 13, cacheWrite: 17, totalTokens: 48, cost: { ...reply.message.usage.cost, total: 0.000123 } };
      const turn = [
        { ...prompt, id: "a0000001", parentId: all[all.length - 1]?.id ?? null, timestamp: "2026-11-22T00:17:48.871Z", message: { ...prompt.message, content: "one more question" } },
        { ...reply, id: "a0000002", parentId: "a0000001", timestamp: "2026-11-22T00:17:49.026Z", message: { ...reply.message, responseId: "chatcmpl-again", usage } },
      ];
      return { key: keyOf(MAIN), file: file(MAIN), head: "", tail: jsonl(turn) };
    },
    copyResponse: null,
    truncate: () => ({ key: keyOf(MAIN), file: file(MAIN), bytes: Buffer.byteLength(cutAt(file(MAIN), promptAt()).head) }),
    replaced: () => [file(MAIN), file(CRON)],
    removable: () => [{ key: keyOf(CRON), file: file(CRON) }],
    live: () => {
      // The gateway marks a session running in its index (sessions.json `status`) while a run is on.
      const index = path.join(sessionsDir, "sessions.json");
      const key = keyOf(MAIN);
      return {
        key,
        show: () => {
          const all = JSON.parse(fs.readFileSync(index, "utf8")) as Record<string, RawLine>;
          all[key] = { ...all[key], status: "running" };
          fs.writeFileSync(`${index}.tmp`, JSON.stringify(all));
          fs.renameSync(`${index}.tmp`, index);
        },
        running: () => {
          const data = openAgentData(stateDir, "main");
          if (!data.ok) throw data.error;
          const reader = openclawReader(data.value);
          try {
            const sessions = reader.listSessions?.();
            if (!sessions?.ok) throw new Error("no session index");
            return sessions.value.filter((s) => s.status === "running").map((s) => s.key);
          } finally {
            reader.close();
          }
        },
      };
    },
  };
}
