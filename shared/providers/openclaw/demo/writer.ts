// The OpenClaw demo writer: each step appends what a busy OpenClaw 2026.9.6 gateway would have
// written in the last few seconds to the demo copy, in the gateway's own format, so the normal
// OpenClaw readers find it: a support question and its answer in the inbox session (agent
// SQLite) with the run's log lines, the ticket-triage cron run when its schedule is due (a new
// isolated session window, the job's state and a run receipt in the state SQLite), and now and
// then a warning or an error in the gateway log.
//
// Growth is bounded: the inbox rolls over to a new session window every `turnsPerWindow` turns
// and only the newest `keepMainWindows` are kept; the cron key keeps its newest `keepCronWindows`
// runs; the log is rotated to gateway.1.log past `maxLogBytes`; at most `maxTurnsPerDay` turns a
// day are written. Our own store keeps what it read (history outlives the files, as with a real
// gateway) until retention removes it.
import { appendFileSync, existsSync, readFileSync, renameSync, statSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import Database from "better-sqlite3";
import type { DemoStep, DemoWriter } from "../../contract.js";
import { base62, between, pick, uuid, type Random } from "../../../base/random.js";
import { pruneWindows, recordRun, startWindow, TranscriptAppender } from "./agent-db-writer.js";
import { CRON_JOB_MESSAGE, CRON_JOB_NAME, CRON_PREAMBLE, ERRORS, SUPPORT_EXCHANGES, WARNINGS, cronDigest, turnTokens } from "./content.js";
import { assistantMessage, modelChange, modelSnapshot, sessionHeader, thinkingLevelChange, userMessage } from "./events.js";
import { logLine, runLogLines } from "./log-lines.js";

type Json = Record<string, unknown>;

interface OpenclawWriterOptions {
  /** The demo copy of the OpenClaw state dir. */
  stateDir: string;
  random: Random;
  agentId?: string;
  turnsPerWindow?: number;
  keepMainWindows?: number;
  keepCronWindows?: number;
  maxTurnsPerDay?: number;
  maxLogBytes?: number;
}

const DAY = 86_400_000;

export class OpenclawDemoWriter implements DemoWriter {
  readonly provider = "openclaw";
  private agentDb: Database.Database | null = null;
  private stateDb: Database.Database | null = null;
  private day = -1;
  private turnsToday = 0;
  private readonly agentId: string;
  private readonly mainKey: string;

  constructor(private readonly o: OpenclawWriterOptions) {
    this.agentId = o.agentId ?? "main";
    this.mainKey = `agent:${this.agentId}:main`;
  }

  step(now: number): DemoStep {
    const wrote: string[] = [];
    const random = this.o.random;
    const cron = this.cronRunIfDue(now);
    if (cron) wrote.push(cron);
    const today = Math.floor(now / DAY);
    if (today !== this.day) {
      this.day = today;
      this.turnsToday = 0;
    }
    if (this.turnsToday < (this.o.maxTurnsPerDay ?? 2000)) {
      this.turn(now);
      this.turnsToday++;
      wrote.push(`turn ${this.mainKey}`);
    }
    // Now and then the gateway has something to complain about; otherwise it answers a health check.
    const r = random();
    if (r < 0.12) {
      const w = pick(random, WARNINGS);
      this.log([{ ts: now, line: logLine({ ts: now, level: "WARN", subsystem: w.subsystem, text: w.text }) }]);
      wrote.push("log WARN");
    } else if (r < 0.15) {
      const e = pick(random, ERRORS);
      this.log([{ ts: now, line: logLine({ ts: now, level: "ERROR", subsystem: e.subsystem, text: e.text, agentId: this.agentId }) }]);
      wrote.push("log ERROR");
    } else if (r < 0.4) {
      const ms = between(random, 8, 60);
      this.log([{ ts: now, line: logLine({ ts: now, level: "INFO", subsystem: "gateway/ws", text: `⇄ res ✓ health ${ms}ms conn=${base62(random, 8).toLowerCase()}…${base62(random, 4).toLowerCase()} id=2:${uuid(random).slice(0, 10)}…${base62(random, 4).toLowerCase()}` }) }]);
      wrote.push("log INFO");
    }
    this.rotateLog();
    return { provider: this.provider, wrote };
  }

  close(): void {
    this.agentDb?.close();
    this.stateDb?.close();
    this.agentDb = null;
    this.stateDb = null;
  }

  private agent(): Database.Database {
    this.agentDb ??= new Database(join(this.o.stateDir, "agents", this.agentId, "agent", "openclaw-agent.sqlite"));
    return this.agentDb;
  }

  private state(): Database.Database {
    this.stateDb ??= new Database(join(this.o.stateDir, "state", "openclaw.sqlite"));
    return this.stateDb;
  }

  private logFile(): string {
    try {
      const config = JSON.parse(readFileSync(join(this.o.stateDir, "openclaw.json"), "utf8")) as { logging?: { file?: unknown } };
      const f = config.logging?.file;
      if (typeof f === "string" && f !== "") return isAbsolute(f) ? f : join(this.o.stateDir, f);
    } catch {
      // the bundled config names it; fall back to where the bundle keeps it
    }
    return join(this.o.stateDir, "logs", "gateway.log");
  }

  private log(lines: { ts: number; line: string }[]): void {
    if (!lines.length) return;
    const sorted = [...lines].sort((a, b) => a.ts - b.ts);
    appendFileSync(this.logFile(), sorted.map((l) => l.line).join("\n") + "\n");
  }

  private rotateLog(): void {
    const file = this.logFile();
    if (existsSync(file) && statSync(file).size > (this.o.maxLogBytes ?? 4 * 1024 * 1024)) renameSync(file, file.replace(/(\.log)?$/, ".1.log"));
  }

  /** A question and its answer in the inbox session (a new window when the current one is full). */
  private turn(now: number): void {
    const db = this.agent();
    const random = this.o.random;
    const lines: { ts: number; line: string }[] = [];
    db.transaction(() => {
      const node = db.prepare("SELECT current_session_id FROM session_nodes WHERE session_key = ?").get(this.mainKey) as { current_session_id: string } | undefined;
      if (!node) throw new Error(`the demo copy has no ${this.mainKey} session`);
      let sessionId = node.current_session_id;
      let app = new TranscriptAppender(db, sessionId);
      const userTurns = (db.prepare("SELECT count(*) AS n FROM transcript_event_identities WHERE session_id = ? AND message_idempotency_key LIKE '%:user'").get(sessionId) as { n: number }).n;
      const askedAt = now - between(random, 4000, 9000);
      let first = false;
      if (userTurns >= (this.o.turnsPerWindow ?? 40)) {
        const previous = sessionId;
        sessionId = uuid(random);
        startWindow(db, { sessionKey: this.mainKey, sessionId, at: askedAt - 400, previousSessionId: previous, reason: "rollover" });
        app = new TranscriptAppender(db, sessionId);
        this.openTranscript(app, askedAt - 350);
        pruneWindows(db, this.mainKey, this.o.keepMainWindows ?? 3);
        first = true;
      }
      const ex = pick(random, SUPPORT_EXCHANGES);
      const runId = uuid(random);
      app.append(userMessage({ id: uuid(random), parentId: app.lastId, ts: askedAt, sentAt: askedAt - between(random, 150, 400), text: ex.question, runId }), askedAt);
      const answeredAt = now - between(random, 40, 300);
      const tokens = turnTokens(random, { firstInSession: first, priorTurns: first ? 0 : userTurns, answer: ex.answer });
      app.append(
        assistantMessage({ id: uuid(random), parentId: app.lastId as string, ts: answeredAt, content: [{ type: "text", text: ex.answer }], tokens, stopReason: "stop", responseId: `msg_01${base62(random, 22)}`, runId }),
        answeredAt + 10,
      );
      recordRun(db, { sessionKey: this.mainKey, sessionId, runId, startedAt: askedAt, endedAt: Math.min(now, answeredAt + 40), tokens });
      lines.push(...runLogLines({ startedAt: askedAt - 200, endedAt: Math.min(now, answeredAt + 30), runId, sessionId, sessionKey: this.mainKey, agentId: this.agentId, stopReason: "stop", random }));
    })();
    this.log(lines);
  }

  /** The first rows of every transcript, as the gateway writes them when a session window opens. */
  private openTranscript(app: TranscriptAppender, at: number): void {
    const random = this.o.random;
    app.append(sessionHeader(app.sessionId, at, "/home/op/.openclaw/workspace"), at);
    app.append(modelChange(uuid(random), null, at + 4), at + 4);
    app.append(thinkingLevelChange(uuid(random), app.lastId as string, at + 60), at + 60);
    app.append(modelSnapshot(uuid(random), app.lastId as string, at + 90), at + 90);
  }

  /** The ticket-triage job's run, when its schedule says it is due. */
  private cronRunIfDue(now: number): string | null {
    const adb = this.agent();
    const sdb = this.state();
    const node = adb.prepare("SELECT session_key FROM session_nodes WHERE created_via = 'cron' AND session_key NOT LIKE '%:run:%' ORDER BY updated_at DESC LIMIT 1").get() as { session_key: string } | undefined;
    if (!node) return null;
    const jobId = node.session_key.split(":")[3] ?? "";
    const job = sdb.prepare("SELECT store_key, job_json, state_json FROM cron_jobs WHERE job_id = ?").get(jobId) as { store_key: string; job_json: string; state_json: string } | undefined;
    if (!job) return null;
    const state = JSON.parse(job.state_json) as Json;
    const spec = JSON.parse(job.job_json) as { schedule?: { kind?: string; everyMs?: number; anchorMs?: number } };
    const due = typeof state.nextRunAtMs === "number" ? state.nextRunAtMs : null;
    const every = spec.schedule?.kind === "every" ? spec.schedule.everyMs : undefined;
    if (due === null || due > now || !every || every <= 0) return null;
    const random = this.o.random;
    const startedAt = Math.max(due, now - 6000);
    const endedAt = Math.min(now, startedAt + between(random, 2500, 5500));
    const sessionId = uuid(random);
    const runId = uuid(random);
    const anchor = spec.schedule?.anchorMs ?? 0;
    const nextRunAtMs = anchor + Math.ceil((now + 1 - anchor) / every) * every;
    const lines: { ts: number; line: string }[] = [];
    adb.transaction(() => {
      startWindow(adb, { sessionKey: node.session_key, sessionId, at: startedAt });
      const app = new TranscriptAppender(adb, sessionId);
      this.openTranscript(app, startedAt + 50);
      const prefix = `[cron:${jobId} ${CRON_JOB_NAME}]`;
      const askedAt = startedAt + 180;
      app.append(
        userMessage({
          id: uuid(random),
          parentId: app.lastId,
          ts: askedAt,
          sentAt: startedAt,
          text: `${prefix} ${CRON_JOB_MESSAGE}\n\n${CRON_PREAMBLE}`,
          runId,
          provenance: { kind: "internal_system", sourceTool: "cron", sourcePromptPrefix: prefix, jobId, runId: sessionId, sourceSessionKey: `${node.session_key}:run:${sessionId}` },
        }),
        askedAt,
      );
      const digest = cronDigest(random);
      const tokens = turnTokens(random, { firstInSession: false, priorTurns: 0, answer: digest });
      app.append(
        assistantMessage({ id: uuid(random), parentId: app.lastId as string, ts: endedAt - 30, content: [{ type: "text", text: digest }], tokens, stopReason: "stop", responseId: `msg_01${base62(random, 22)}`, runId }),
        endedAt - 20,
      );
      recordRun(adb, { sessionKey: node.session_key, sessionId, runId, startedAt, endedAt, tokens });
      pruneWindows(adb, node.session_key, this.o.keepCronWindows ?? 30);
    })();
    sdb.transaction(() => {
      Object.assign(state, { nextRunAtMs, lastRunAtMs: startedAt, lastRunStatus: "ok", lastStatus: "ok", lastDurationMs: endedAt - startedAt, consecutiveErrors: 0 });
      sdb.prepare("UPDATE cron_jobs SET state_json = ?, runtime_updated_at_ms = ?, updated_at = ? WHERE job_id = ?").run(JSON.stringify(state), endedAt, endedAt, jobId);
      const last = sdb.prepare("SELECT * FROM cron_run_receipts WHERE job_id = ? ORDER BY started_at_ms DESC LIMIT 1").get(jobId) as Json | undefined;
      if (last) {
        sdb.prepare(
          "INSERT INTO cron_run_receipts (receipt_id, store_key, job_id, config_revision, agent_id, request_run_id, status, owner_pid, owner_start_time, started_at_ms, finished_at_ms, error_text) VALUES (?, ?, ?, ?, ?, NULL, 'ok', ?, ?, ?, ?, NULL)",
        ).run(uuid(random), last.store_key as string, jobId, last.config_revision as string, last.agent_id as string, last.owner_pid as number, last.owner_start_time as number | null, startedAt, endedAt);
        sdb.prepare("DELETE FROM cron_run_receipts WHERE job_id = ? AND receipt_id NOT IN (SELECT receipt_id FROM cron_run_receipts WHERE job_id = ? ORDER BY started_at_ms DESC LIMIT 100)").run(jobId, jobId);
      }
    })();
    lines.push(...runLogLines({ startedAt, endedAt, runId, sessionId, sessionKey: `${node.session_key}:run:${sessionId}`, agentId: this.agentId, stopReason: "stop", cron: { storeKey: job.store_key, nextAt: nextRunAtMs }, random }));
    this.log(lines);
    return `cron ${node.session_key}`;
  }
}
