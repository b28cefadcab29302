// The session entry (`session_nodes.entry_json` / a `sessions.json` value) of a synthetic session:
// the fixture's real entry with its per-session fields renewed. The big blobs (skillsSnapshot,
// systemPromptReport: ~14 KB) stay as they are, since every real entry carries them too.
import type { GeneratedWindow } from "./events.js";
import type { SessionPlan } from "./plan.js";
import type { Json } from "./templates.js";

export interface SessionTimes {
  createdAt: number;
  lastMs: number;
  status: "done" | "failed";
}

export function sessionTimes(windows: readonly GeneratedWindow[]): SessionTimes {
  const first = windows[0];
  const last = windows[windows.length - 1];
  if (!first || !last) throw new Error("a session needs at least one window");
  return { createdAt: first.firstMs, lastMs: last.lastMs, status: last.lastRun?.failed ? "failed" : "done" };
}

export function sessionEntry(template: Json, s: SessionPlan, windows: readonly GeneratedWindow[], extra: Json = {}): Json {
  const e: Json = { ...template };
  const last = windows[windows.length - 1] as GeneratedWindow;
  const run = last.lastRun;
  const times = sessionTimes(windows);
  // Only fields the real entry has are renewed: the shape stays the fixture's.
  const set = (k: string, v: unknown): void => {
    if (k in e) e[k] = v;
  };
  set("sessionId", last.plan.sessionId);
  set("updatedAt", times.lastMs);
  set("sessionStartedAt", last.firstMs);
  set("lastInteractionAt", run?.startedAt ?? last.lastMs);
  set("createdAt", times.createdAt);
  set("createdVia", s.createdVia);
  set("activeWriterRunId", run?.runId ?? null);
  set("lastRunId", run?.runId ?? null);
  set("status", times.status);
  set("startedAt", run?.startedAt ?? last.firstMs);
  set("endedAt", run?.endedAt ?? last.lastMs);
  set("runtimeMs", run ? run.endedAt - run.startedAt : 0);
  set("model", s.model.id);
  set("modelProvider", s.model.provider);
  set("lastActivityAt", times.lastMs);
  set("contextTokens", s.model.contextWindow);
  set("inputTokens", run?.input ?? 0);
  set("outputTokens", run?.output ?? 0);
  set("cacheRead", run?.cacheRead ?? 0);
  set("cacheWrite", run?.cacheWrite ?? 0);
  set("estimatedCostUsd", run?.costUsd ?? 0);
  set("totalTokens", run?.promptTokens ?? 0);
  set("label", s.label);
  if (s.label && !("label" in e)) e.label = s.label;
  if (s.parentKey) Object.assign(e, { spawnedBy: s.parentKey, parentSessionKey: s.parentKey });
  if (s.channel) Object.assign(e, { chatType: s.chatType, lastChannel: s.channel });
  return Object.assign(e, extra);
}
