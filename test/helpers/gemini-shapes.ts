// The record shapes the real Gemini CLI 0.61.0 wrote (the fixture's session files): per kind of
// record (header, `$set` patch, prompt, tool result, reply, reply with toolCalls, tool call by
// name), the sets of keys seen. Demo data (the demo writer, the bundled demo) must use only those
// shapes, so a reader tested on it is tested on what Gemini CLI writes.
import fs from "node:fs";
import path from "node:path";

type Rec = Record<string, unknown>;

const keys = (o: Rec): string => Object.keys(o).sort().join(",");

/** The kind of a session-file line and, for a reply with calls, of each call. */
export function shapesOf(l: Rec): string[] {
  if (l.$set && typeof l.$set === "object") return [`$set:${keys(l.$set as Rec)}`];
  if ("startTime" in l) return [`header:${keys(l)}`];
  if (l.type === "user") {
    const parts = Array.isArray(l.content) ? (l.content as Rec[]) : [];
    return [`user-${parts.some((p) => p.functionResponse) ? "result" : "text"}:${keys(l)}`];
  }
  const out = [`${String(l.type)}:${keys(l)}`];
  for (const c of Array.isArray(l.toolCalls) ? (l.toolCalls as Rec[]) : []) out.push(`call-${c.name === "invoke_agent" ? "invoke_agent" : "other"}:${keys(c)}`);
  return out;
}

function sessionLines(geminiDir: string): Rec[] {
  const out: Rec[] = [];
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(".jsonl")) for (const line of fs.readFileSync(p, "utf8").split("\n")) if (line.trim()) out.push(JSON.parse(line) as Rec);
    }
  };
  walk(path.join(geminiDir, "tmp"));
  return out;
}

/** Every shape in the session files under `geminiDir`. */
export function shapesIn(geminiDir: string): Set<string> {
  return new Set(sessionLines(geminiDir).flatMap(shapesOf));
}

/** The shapes under `geminiDir` that the real CLI never wrote in `fixtureGeminiDir` (empty when all are real). */
export function foreignShapes(geminiDir: string, fixtureGeminiDir: string): string[] {
  const real = shapesIn(fixtureGeminiDir);
  return [...shapesIn(geminiDir)].filter((s) => !real.has(s)).sort();
}
