// Versioned schema changes for our own SQLite file. PRAGMA user_version holds the version; each
// migration runs in its own transaction, so a crash mid-migration leaves the previous version.
import type { Database } from "better-sqlite3";
import { MAX_COST_USD_PER_RESPONSE, MAX_TOKENS_PER_RESPONSE } from "../base/usage-guard.js";

/**
 * Largest believable lifetime sum of one transcript: 100 million responses at the per-response
 * bound. A stored sum beyond it (or negative, or not finite) was built from a refused value.
 */
const MAX_TOKENS_SUM = MAX_TOKENS_PER_RESPONSE * 1e8;
const MAX_COST_SUM = MAX_COST_USD_PER_RESPONSE * 1e8;

/** SQL true when every named column lies in [0, max] (false for +-Inf; NaN cannot be stored). */
const within = (cols: readonly string[], max: number, whole: boolean): string =>
  cols.map((c) => `(${c} BETWEEN 0 AND ${max}${whole ? ` AND ${c} = round(${c})` : ""})`).join(" AND ");
const TOKEN_COLS = ["input", "output", "cache_read", "cache_write"] as const;

/** The step of usage_steps (v9): 15 minutes, the finest unit of any real UTC offset. */
export const USAGE_STEP_MS = 15 * 60_000;
const USAGE_SUMS = ["input", "output", "cache_read", "cache_write", "reasoning", "cost_usd", "unpriced"] as const;

/** How a trigger-kept aggregate (v9) takes one row of the table it follows. */
interface Aggregate {
  table: string;
  /** Its key columns and, for each, the expression over the followed row (`$` stands for NEW or OLD). */
  keys: ReadonlyArray<readonly [string, string]>;
  /** What one followed row adds to `responses`. */
  responses: string;
}

const over = (expr: string, row: string): string => expr.replaceAll("$", row);

/** Trigger body: adds the followed row (NEW) to its aggregate row. */
function addTo(g: Aggregate): string {
  const cols = ["rows", "responses", ...g.keys.map(([k]) => k), ...USAGE_SUMS];
  const vals = ["1", over(g.responses, "NEW"), ...g.keys.map(([, e]) => over(e, "NEW")), ...USAGE_SUMS.map((c) => `NEW.${c}`)];
  return `INSERT INTO ${g.table} (${cols.join(", ")}) VALUES (${vals.join(", ")})
    ON CONFLICT (${g.keys.map(([k]) => k).join(", ")}) DO UPDATE SET rows = rows + 1, responses = responses + excluded.responses,
    ${USAGE_SUMS.map((c) => `${c} = ${c} + excluded.${c}`).join(", ")};`;
}

/** Trigger body: takes the followed row (OLD) out; an aggregate row left with no followed row goes (no float residue stays). */
function removeFrom(g: Aggregate): string {
  const where = g.keys.map(([k, e]) => `${k} = ${over(e, "OLD")}`).join(" AND ");
  return `UPDATE ${g.table} SET rows = rows - 1, responses = responses - ${over(g.responses, "OLD")},
    ${USAGE_SUMS.map((c) => `${c} = ${c} - OLD.${c}`).join(", ")} WHERE ${where};
    DELETE FROM ${g.table} WHERE ${where} AND rows <= 0;`;
}

/** The table, its backfill from what the followed table holds, and the triggers that keep it. */
function aggregateSql(g: Aggregate, followed: string, when: string): string {
  const keyCols = g.keys.map(([k]) => k);
  const cond = (row: string): string => (when ? ` WHEN ${over(when, row)}` : "");
  return `
    CREATE TABLE ${g.table} (
      ${keyCols.map((k) => `${k} ${k === "at" || k === "hour" ? "INTEGER" : "TEXT"} NOT NULL`).join(",\n      ")},
      rows INTEGER NOT NULL,
      responses INTEGER NOT NULL,
      ${USAGE_SUMS.map((c) => `${c} ${c === "unpriced" ? "INTEGER" : "REAL"} NOT NULL`).join(",\n      ")},
      PRIMARY KEY (${keyCols.join(", ")})
    ) STRICT, WITHOUT ROWID;
    INSERT INTO ${g.table} (${keyCols.join(", ")}, rows, responses, ${USAGE_SUMS.join(", ")})
      SELECT ${g.keys.map(([, e]) => over(e, followed)).join(", ")}, count(*), sum(${over(g.responses, followed)}), ${USAGE_SUMS.map((c) => `sum(${c})`).join(", ")}
      FROM ${followed}${when ? ` WHERE ${over(when, followed)}` : ""} GROUP BY ${keyCols.map((_, i) => i + 1).join(", ")};
    CREATE TRIGGER ${g.table}_add AFTER INSERT ON ${followed}${cond("NEW")} BEGIN
      ${addTo(g)}
    END;
    CREATE TRIGGER ${g.table}_remove AFTER DELETE ON ${followed}${cond("OLD")} BEGIN
      ${removeFrom(g)}
    END;
    CREATE TRIGGER ${g.table}_change_old AFTER UPDATE ON ${followed}${cond("OLD")} BEGIN
      ${removeFrom(g)}
    END;
    CREATE TRIGGER ${g.table}_change_new AFTER UPDATE ON ${followed}${cond("NEW")} BEGIN
      ${addTo(g)}
    END;`;
}

export interface Migration {
  version: number;
  name: string;
  up(db: Database): void;
}

export const MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: "base: meta, gateway samples and hourly rollups",
    up(db) {
      db.exec(`
        CREATE TABLE meta (
          key TEXT PRIMARY KEY,
          value TEXT NOT NULL
        ) STRICT;
        CREATE TABLE schema_migrations (
          version INTEGER PRIMARY KEY,
          name TEXT NOT NULL,
          applied_at INTEGER NOT NULL
        ) STRICT;
        -- One probe of the gateway every sampleIntervalSeconds: liveness and resources.
        CREATE TABLE gateway_samples (
          ts INTEGER NOT NULL,
          up INTEGER NOT NULL CHECK (up IN (0, 1)),
          pid INTEGER,
          cpu_percent REAL,
          rss_mb REAL,
          latency_ms REAL
        ) STRICT;
        CREATE INDEX gateway_samples_ts ON gateway_samples (ts);
        -- Hourly rollups outlive the raw samples (retentionRollupDays vs retentionRawDays).
        CREATE TABLE gateway_samples_hourly (
          hour INTEGER PRIMARY KEY,
          samples INTEGER NOT NULL,
          up_samples INTEGER NOT NULL,
          cpu_avg REAL,
          rss_max_mb REAL
        ) STRICT;
      `);
    },
  },
  {
    version: 2,
    name: "OpenClaw data: scan cursors, transcript totals, token usage, gateway log events",
    up(db) {
      db.exec(`
        -- Where each incremental reader stopped: a transcript (by session id) or a log file.
        -- change_token is the reader's token of what was fully read, so unchanged items are skipped.
        CREATE TABLE scan_cursors (
          source TEXT NOT NULL,
          item TEXT NOT NULL,
          cursor_json TEXT NOT NULL,
          change_token TEXT,
          updated_at INTEGER NOT NULL,
          PRIMARY KEY (source, item)
        ) STRICT;
        -- Lifetime totals per transcript (session window); never pruned by retention.
        CREATE TABLE transcript_totals (
          agent_id TEXT NOT NULL,
          session_id TEXT NOT NULL,
          session_key TEXT,
          input REAL NOT NULL DEFAULT 0,
          output REAL NOT NULL DEFAULT 0,
          cache_read REAL NOT NULL DEFAULT 0,
          cache_write REAL NOT NULL DEFAULT 0,
          cost_usd REAL NOT NULL DEFAULT 0,
          user_messages INTEGER NOT NULL DEFAULT 0,
          assistant_messages INTEGER NOT NULL DEFAULT 0,
          tool_calls INTEGER NOT NULL DEFAULT 0,
          errors INTEGER NOT NULL DEFAULT 0,
          first_activity INTEGER,
          last_activity INTEGER,
          PRIMARY KEY (agent_id, session_id)
        ) STRICT;
        -- One row per user message (a turn, no tokens) and per assistant message (its usage): the
        -- raw material of metrics and cost by day.
        CREATE TABLE token_usage (
          ts INTEGER NOT NULL,
          role TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
          agent_id TEXT NOT NULL,
          session_id TEXT NOT NULL,
          session_key TEXT,
          model TEXT NOT NULL DEFAULT '',
          provider TEXT NOT NULL DEFAULT '',
          input REAL NOT NULL,
          output REAL NOT NULL,
          cache_read REAL NOT NULL,
          cache_write REAL NOT NULL,
          cost_usd REAL NOT NULL
        ) STRICT;
        CREATE INDEX token_usage_ts ON token_usage (ts);
        CREATE INDEX token_usage_session ON token_usage (agent_id, session_id);
        CREATE TABLE token_usage_hourly (
          hour INTEGER NOT NULL,
          agent_id TEXT NOT NULL,
          model TEXT NOT NULL,
          turns INTEGER NOT NULL,
          messages INTEGER NOT NULL,
          input REAL NOT NULL,
          output REAL NOT NULL,
          cache_read REAL NOT NULL,
          cache_write REAL NOT NULL,
          cost_usd REAL NOT NULL,
          PRIMARY KEY (hour, agent_id, model)
        ) STRICT;
        -- Parsed gateway log lines at INFO and above; type is error | warning | restart or NULL.
        CREATE TABLE log_events (
          ts INTEGER NOT NULL,
          level TEXT NOT NULL,
          type TEXT,
          module TEXT NOT NULL DEFAULT '',
          message TEXT NOT NULL,
          agent_id TEXT,
          session_key TEXT
        ) STRICT;
        CREATE INDEX log_events_ts ON log_events (ts);
        CREATE INDEX log_events_type_ts ON log_events (type, ts);
        -- Per agent: when the first full scan ended (lifetimeStats.isReady) and what it skipped.
        CREATE TABLE agent_scan_state (
          agent_id TEXT PRIMARY KEY,
          first_pass_at INTEGER,
          transcripts INTEGER NOT NULL DEFAULT 0,
          warnings INTEGER NOT NULL DEFAULT 0
        ) STRICT;
      `);
    },
  },
  {
    version: 3,
    name: "lifetime counters: tokens and cost per transcript and model, events per type",
    up(db) {
      db.exec(`
        -- Per transcript and model, so a transcript that is re-read from the start (truncated,
        -- replaced) drops exactly its own share. Never pruned: the Prometheus counters sum it.
        CREATE TABLE transcript_models (
          agent_id TEXT NOT NULL,
          session_id TEXT NOT NULL,
          model TEXT NOT NULL,
          provider TEXT NOT NULL,
          input REAL NOT NULL DEFAULT 0,
          output REAL NOT NULL DEFAULT 0,
          cache_read REAL NOT NULL DEFAULT 0,
          cache_write REAL NOT NULL DEFAULT 0,
          cost_usd REAL NOT NULL DEFAULT 0,
          messages INTEGER NOT NULL DEFAULT 0,
          PRIMARY KEY (agent_id, session_id, model, provider)
        ) STRICT;
        -- Classified gateway log lines ever seen, by type (log_events itself is pruned).
        CREATE TABLE event_totals (
          type TEXT PRIMARY KEY,
          count INTEGER NOT NULL
        ) STRICT;
        INSERT INTO transcript_models (agent_id, session_id, model, provider, input, output, cache_read, cache_write, cost_usd, messages)
          SELECT agent_id, session_id, model, provider, sum(input), sum(output), sum(cache_read), sum(cache_write), sum(cost_usd), count(*)
          FROM token_usage WHERE role = 'assistant' GROUP BY agent_id, session_id, model, provider;
        INSERT INTO event_totals (type, count) SELECT type, count(*) FROM log_events WHERE type IS NOT NULL GROUP BY type;
      `);
    },
  },
  {
    version: 4,
    name: "usage by agent and time: the index metrics reads",
    up(db) {
      // metrics(range) reads one agent's rows inside a time window; the (agent_id, session_id)
      // index made it visit every row of the agent. Covering: the query never touches the table.
      db.exec("CREATE INDEX token_usage_agent_ts ON token_usage (agent_id, ts, model, role, input, output, cache_read, cache_write, cost_usd)");
    },
  },
  {
    version: 5,
    name: "repair usage poisoned by absurd values (before the usage guard): re-read those transcripts",
    up(db) {
      // Versions before the usage guard summed whatever a transcript recorded: 1e308 overflowed a
      // sum to Infinity (GraphQL refuses it, /metrics printed +Inf), -5 made counters go backwards.
      // Every transcript with such a value anywhere loses what was derived from it and its scan
      // cursor, so the scanner reads it again from the start, now through the guard: its figures
      // come back right, counted once. Old hourly rollups (their raw rows are pruned) cannot be
      // recomputed; a poisoned figure there becomes 0.
      db.exec(`
        CREATE TEMP TABLE poisoned AS
          SELECT agent_id, session_id FROM transcript_totals
            WHERE NOT (${within(TOKEN_COLS, MAX_TOKENS_SUM, true)} AND ${within(["cost_usd"], MAX_COST_SUM, false)})
          UNION SELECT agent_id, session_id FROM transcript_models
            WHERE NOT (${within(TOKEN_COLS, MAX_TOKENS_SUM, true)} AND ${within(["cost_usd"], MAX_COST_SUM, false)})
          UNION SELECT agent_id, session_id FROM token_usage
            WHERE NOT (${within(TOKEN_COLS, MAX_TOKENS_PER_RESPONSE, true)} AND ${within(["cost_usd"], MAX_COST_USD_PER_RESPONSE, false)});
        DELETE FROM transcript_totals WHERE (agent_id, session_id) IN (SELECT agent_id, session_id FROM poisoned);
        DELETE FROM transcript_models WHERE (agent_id, session_id) IN (SELECT agent_id, session_id FROM poisoned);
        DELETE FROM token_usage WHERE (agent_id, session_id) IN (SELECT agent_id, session_id FROM poisoned);
        DELETE FROM scan_cursors WHERE (source, item) IN (SELECT 'agent:' || agent_id, session_id FROM poisoned);
        DROP TABLE poisoned;
        UPDATE token_usage_hourly SET
          ${[...TOKEN_COLS].map((c) => `${c} = CASE WHEN ${within([c], MAX_TOKENS_SUM, true)} THEN ${c} ELSE 0 END`).join(",\n          ")},
          cost_usd = CASE WHEN ${within(["cost_usd"], MAX_COST_SUM, false)} THEN cost_usd ELSE 0 END;
      `);
    },
  },
  {
    version: 6,
    name: "first event of each transcript (lifetimeStats.createdAt counts the session header, not only messages)",
    up(db) {
      // NULL for the rows already there: their headers were read before this column existed. The
      // scanner reads each such transcript's first event once (FIRST_EVENT_BACKFILL in meta).
      db.exec(`
        ALTER TABLE transcript_totals ADD COLUMN first_event INTEGER;
        CREATE INDEX transcript_totals_first_event_unknown ON transcript_totals (agent_id) WHERE first_event IS NULL;
        -- No backfill mark may survive from an earlier run: every NULL row above still needs one.
        DELETE FROM meta WHERE substr(key, 1, 23) = 'first_event_backfilled:';
      `);
    },
  },
  {
    version: 7,
    name: "provider-neutral: source ids, reasoning and unpriced tokens, session facts, response keys, rate limits",
    up(db) {
      db.exec(`
        -- OpenClaw agent ids become source ids (\`agent:<id>\`), so one store holds every provider
        -- (\`claude-code:<name>\`, \`codex:<name>\`). session_id keeps its name: it is the transcript's id
        -- within its source (an OpenClaw session window, a Claude Code file, a Codex rollout).
        ALTER TABLE transcript_totals RENAME COLUMN agent_id TO source_id;
        UPDATE transcript_totals SET source_id = 'agent:' || source_id;
        ALTER TABLE transcript_totals ADD COLUMN reasoning REAL NOT NULL DEFAULT 0;
        -- Responses no price was known for: their tokens count, their cost is unknown (never $0).
        ALTER TABLE transcript_totals ADD COLUMN unpriced INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE transcript_totals ADD COLUMN tool_errors INTEGER NOT NULL DEFAULT 0;
        CREATE INDEX transcript_totals_key ON transcript_totals (source_id, session_key);

        ALTER TABLE token_usage RENAME COLUMN agent_id TO source_id;
        UPDATE token_usage SET source_id = 'agent:' || source_id;
        ALTER TABLE token_usage ADD COLUMN reasoning REAL NOT NULL DEFAULT 0;
        ALTER TABLE token_usage ADD COLUMN unpriced INTEGER NOT NULL DEFAULT 0;
        DROP INDEX token_usage_agent_ts;
        CREATE INDEX token_usage_source_ts ON token_usage (source_id, ts, model, role, input, output, cache_read, cache_write, cost_usd, reasoning, unpriced);

        -- Hourly rollups keep the project too: daily usage per project outlives the raw rows.
        CREATE TABLE token_usage_hourly_v5 (
          hour INTEGER NOT NULL,
          source_id TEXT NOT NULL,
          model TEXT NOT NULL,
          project TEXT NOT NULL DEFAULT '',
          turns INTEGER NOT NULL,
          messages INTEGER NOT NULL,
          input REAL NOT NULL,
          output REAL NOT NULL,
          cache_read REAL NOT NULL,
          cache_write REAL NOT NULL,
          cost_usd REAL NOT NULL,
          reasoning REAL NOT NULL DEFAULT 0,
          unpriced INTEGER NOT NULL DEFAULT 0,
          PRIMARY KEY (hour, source_id, model, project)
        ) STRICT;
        INSERT INTO token_usage_hourly_v5 (hour, source_id, model, project, turns, messages, input, output, cache_read, cache_write, cost_usd)
          SELECT hour, 'agent:' || agent_id, model, '', turns, messages, input, output, cache_read, cache_write, cost_usd FROM token_usage_hourly;
        DROP TABLE token_usage_hourly;
        ALTER TABLE token_usage_hourly_v5 RENAME TO token_usage_hourly;

        ALTER TABLE transcript_models RENAME COLUMN agent_id TO source_id;
        UPDATE transcript_models SET source_id = 'agent:' || source_id;
        ALTER TABLE transcript_models ADD COLUMN reasoning REAL NOT NULL DEFAULT 0;
        ALTER TABLE transcript_models ADD COLUMN unpriced INTEGER NOT NULL DEFAULT 0;

        -- Event log rows name their source; OpenClaw's gateway-wide lines have none and belong to
        -- every OpenClaw agent. agent_id stays: it is what the gateway's log line said.
        ALTER TABLE log_events ADD COLUMN source_id TEXT;
        ALTER TABLE log_events ADD COLUMN provider TEXT NOT NULL DEFAULT 'openclaw';
        UPDATE log_events SET source_id = 'agent:' || agent_id WHERE agent_id IS NOT NULL;
        CREATE INDEX log_events_source_ts ON log_events (source_id, ts);

        CREATE TABLE event_totals_v5 (
          provider TEXT NOT NULL,
          type TEXT NOT NULL,
          count INTEGER NOT NULL,
          PRIMARY KEY (provider, type)
        ) STRICT;
        INSERT INTO event_totals_v5 (provider, type, count) SELECT 'openclaw', type, count FROM event_totals;
        DROP TABLE event_totals;
        ALTER TABLE event_totals_v5 RENAME TO event_totals;

        UPDATE meta SET key = 'first_event_backfilled:agent:' || substr(key, 24) WHERE substr(key, 1, 23) = 'first_event_backfilled:';

        ALTER TABLE agent_scan_state RENAME TO source_scan_state;
        ALTER TABLE source_scan_state RENAME COLUMN agent_id TO source_id;
        UPDATE source_scan_state SET source_id = 'agent:' || source_id;

        -- What the transcripts said about each session (providers whose sessions exist only as
        -- transcripts: Claude Code, Codex). Kept after the files are gone.
        CREATE TABLE session_meta (
          source_id TEXT NOT NULL,
          session_key TEXT NOT NULL,
          parent_key TEXT,
          title TEXT,
          first_prompt TEXT,
          project TEXT,
          git_branch TEXT,
          model TEXT,
          cli_version TEXT,
          origin TEXT,
          context_tokens REAL,
          context_window REAL,
          thinking_level TEXT,
          started_at INTEGER,
          last_activity INTEGER,
          failed INTEGER NOT NULL DEFAULT 0,
          PRIMARY KEY (source_id, session_key)
        ) STRICT;
        CREATE INDEX session_meta_project ON session_meta (source_id, project);

        -- Billable responses counted so far, so each is counted once across every file of an
        -- install (Claude Code writes one line per content block, each with the whole usage).
        CREATE TABLE response_keys (
          source_id TEXT NOT NULL,
          response_key TEXT NOT NULL,
          session_id TEXT NOT NULL,
          PRIMARY KEY (source_id, response_key)
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX response_keys_transcript ON response_keys (source_id, session_id);

        -- The plan's quota as the provider last saw it (Codex), one row per change.
        CREATE TABLE rate_limit_samples (
          ts INTEGER NOT NULL,
          source_id TEXT NOT NULL,
          limit_id TEXT,
          primary_used REAL,
          primary_window_minutes REAL,
          primary_resets_at INTEGER,
          secondary_used REAL,
          secondary_window_minutes REAL,
          secondary_resets_at INTEGER,
          plan_type TEXT,
          credits_json TEXT
        ) STRICT;
        CREATE INDEX rate_limit_samples_source_ts ON rate_limit_samples (source_id, ts);
      `);
    },
  },
  {
    version: 8,
    name: "alerts: rules and channels made through the API, mutes, alert episodes, their events and deliveries",
    up(db) {
      db.exec(`
        -- Rules made through the API, and changes to built-in rules (same id), as validated JSON.
        -- config.json's rules are not here: the file is theirs.
        CREATE TABLE alert_rules (
          id TEXT PRIMARY KEY,
          json TEXT NOT NULL,
          updated_at INTEGER NOT NULL
        ) STRICT;
        -- Channels made through the API, secrets included (the store is 0600, like the token file).
        CREATE TABLE alert_channels (
          id TEXT PRIMARY KEY,
          json TEXT NOT NULL,
          updated_at INTEGER NOT NULL
        ) STRICT;
        -- A muted rule sends nothing until \`until\` (epoch ms); any rule, config's included.
        CREATE TABLE alert_mutes (
          rule_id TEXT PRIMARY KEY,
          until INTEGER NOT NULL,
          by TEXT NOT NULL,
          at INTEGER NOT NULL
        ) STRICT;
        -- One row per alert episode: from a crossing until it resolves (resolved_at NULL: active).
        CREATE TABLE alerts (
          id TEXT PRIMARY KEY,
          rule_id TEXT NOT NULL,
          subject TEXT NOT NULL,
          label TEXT NOT NULL,
          rule_name TEXT NOT NULL,
          metric TEXT NOT NULL,
          unit TEXT NOT NULL,
          severity TEXT NOT NULL CHECK (severity IN ('warning', 'critical')),
          peak_severity TEXT NOT NULL CHECK (peak_severity IN ('warning', 'critical')),
          value REAL NOT NULL,
          threshold REAL NOT NULL,
          projection_json TEXT,
          since INTEGER NOT NULL,
          resolved_at INTEGER,
          updated_at INTEGER NOT NULL,
          notified TEXT,
          sent INTEGER NOT NULL DEFAULT 0
        ) STRICT;
        CREATE INDEX alerts_active ON alerts (rule_id, subject) WHERE resolved_at IS NULL;
        CREATE INDEX alerts_since ON alerts (since);
        -- What happened to alerts (firing, escalated, deescalated, resolved, test, muted, unmuted),
        -- whether it was sent and why not.
        CREATE TABLE alert_events (
          id INTEGER PRIMARY KEY,
          ts INTEGER NOT NULL,
          alert_id TEXT,
          rule_id TEXT NOT NULL,
          subject TEXT NOT NULL DEFAULT '',
          kind TEXT NOT NULL,
          severity TEXT,
          value REAL,
          threshold REAL,
          notified INTEGER NOT NULL DEFAULT 0,
          withheld TEXT,
          detail TEXT
        ) STRICT;
        CREATE INDEX alert_events_ts ON alert_events (ts);
        CREATE INDEX alert_events_sent ON alert_events (rule_id, subject, severity, ts) WHERE notified = 1;
        -- Each channel's outcome for an event: sent, failed (after every try), dropped (queue full).
        CREATE TABLE alert_deliveries (
          id INTEGER PRIMARY KEY,
          ts INTEGER NOT NULL,
          event_id INTEGER,
          channel_id TEXT NOT NULL,
          outcome TEXT NOT NULL CHECK (outcome IN ('sent', 'failed', 'dropped')),
          attempts INTEGER NOT NULL,
          error TEXT
        ) STRICT;
        CREATE INDEX alert_deliveries_event ON alert_deliveries (event_id);
        CREATE INDEX alert_deliveries_ts ON alert_deliveries (ts);
      `);
    },
  },
  {
    version: 9,
    name: "usage per 15-minute step and per rollup hour, by source and model, kept by triggers",
    up(db) {
      // What \`insightsctl usage daily|monthly\` reads instead of every raw row and every hourly
      // rollup (usage-cells.ts). Triggers keep each equal to a GROUP BY of the table it follows,
      // whoever writes or deletes: the scanner, a re-read rolled back (the triggers' writes roll
      // back with it), a forgotten transcript, retention's rollups (upserts fire the update
      // triggers) and pruning. Steps of 15 minutes because every real UTC offset is a multiple of
      // 15 minutes (+05:45, -09:30), so no step straddles a local midnight in any zone; rollups are
      // hourly, as their table is. No project: session_meta's project can change after a row was
      // written, so the project report still groups the raw rows and the rollups themselves.
      db.exec(
        aggregateSql(
          {
            table: "usage_steps",
            keys: [
              ["source_id", "$.source_id"],
              ["at", `($.ts / ${USAGE_STEP_MS}) * ${USAGE_STEP_MS}`],
              ["model", "$.model"],
            ],
            responses: "1",
          },
          "token_usage",
          "$.role = 'assistant'",
        ) +
          aggregateSql(
            {
              table: "usage_hours",
              keys: [
                ["source_id", "$.source_id"],
                ["hour", "$.hour"],
                ["model", "$.model"],
              ],
              responses: "$.messages",
            },
            "token_usage_hourly",
            // As the report reads rollups: an hour of user turns only counts no response.
            "$.messages > 0",
          ) +
          `
          CREATE INDEX usage_steps_at ON usage_steps (at);
          CREATE INDEX usage_hours_hour ON usage_hours (hour);`,
      );
    },
  },
  {
    version: 10,
    name: "rate-limit samples by limit",
    up(db) {
      // A status line's reading stores its plan's windows and each per-model weekly window as limits
      // of their own (rate_limit_samples.limit_id `claude`, `claude:seven_day_opus`): the newest row
      // of one limit, its history and the limits an install has are read through this index.
      db.exec("CREATE INDEX IF NOT EXISTS rate_limit_samples_source_limit_ts ON rate_limit_samples (source_id, limit_id, ts)");
    },
  },
];
