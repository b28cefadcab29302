// Writes one agent of the file era (OpenClaw <= 2026.7.1): one `<sessionId>.jsonl` per window and
// `sessions.json` with one entry per key, cloned from the 2026.7.1 fixture entries. As in that
// fixture, earlier windows of a key (cron runs, resets) stay as plain `.jsonl` files that no entry
// points at.
import * as fs from "node:fs";
import * as path from "node:path";
import { sessionEntry } from "./entry.js";
import type { GeneratedWindow } from "./events.js";
import type { SessionPlan } from "./plan.js";
import type { FilesTemplates, Json } from "./templates.js";
import { emptyStats, type AgentStats } from "./write-sqlite.js";

export class FilesAgentWriter {
  readonly stats = emptyStats();
  private readonly entries: Record<string, Json> = {};

  constructor(
    private readonly sessionsDir: string,
    /** Where the dir will live once the build is done (the entries' `sessionFile` points there). */
    private readonly finalSessionsDir: string,
    private readonly t: FilesTemplates,
  ) {
    fs.mkdirSync(sessionsDir, { recursive: true });
  }

  addSession(s: SessionPlan, windows: GeneratedWindow[]): void {
    for (const w of windows) {
      const text = w.events.map((e) => e.json).join("\n") + "\n";
      fs.writeFileSync(path.join(this.sessionsDir, `${w.plan.sessionId}.jsonl`), text);
      this.stats.events += w.events.length;
      this.stats.eventBytes += w.bytes;
    }
    const last = windows[windows.length - 1] as GeneratedWindow;
    const tpl = s.kind === "cron" || s.kind === "cron-failed" ? this.t.entries.cron : this.t.entries.main;
    this.entries[s.key] = sessionEntry(tpl, s, windows, "sessionFile" in tpl ? { sessionFile: path.join(this.finalSessionsDir, `${last.plan.sessionId}.jsonl`) } : {});
    this.stats.sessions++;
    this.stats.windows += windows.length;
  }

  finish(): AgentStats {
    fs.writeFileSync(path.join(this.sessionsDir, "sessions.json"), JSON.stringify(this.entries, null, 2));
    return this.stats;
  }
}
