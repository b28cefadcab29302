// Turns a store written by this version back into the shape schema version 4 had (what 0.1.0 up to
// the usage guard left on disk): OpenClaw agent ids instead of source ids, no provider-neutral
// tables or columns. Tests use it to start from "a store an older version wrote" and check that
// the migrations bring it forward with nothing lost or counted twice.
import type Database from "better-sqlite3";

export function downgradeToV4(db: Database.Database): void {
  db.exec(`
    -- v9: usage aggregates, and their triggers on token_usage and token_usage_hourly (which name columns dropped below)
    DROP TABLE usage_steps;
    DROP TABLE usage_hours;
    DROP TRIGGER usage_steps_add;
    DROP TRIGGER usage_steps_remove;
    DROP TRIGGER usage_steps_change_old;
    DROP TRIGGER usage_steps_change_new;
    DROP TRIGGER usage_hours_add;
    DROP TRIGGER usage_hours_remove;
    DROP TRIGGER usage_hours_change_old;
    DROP TRIGGER usage_hours_change_new;
    -- v8: alerts
    DROP TABLE alert_rules;
    DROP TABLE alert_channels;
    DROP TABLE alert_mutes;
    DROP TABLE alerts;
    DROP TABLE alert_events;
    DROP TABLE alert_deliveries;
    -- v7: provider-neutral
    DROP TABLE session_meta;
    DROP TABLE response_keys;
    DROP TABLE rate_limit_samples;
    UPDATE meta SET key = 'first_event_backfilled:' || substr(key, 30) WHERE substr(key, 1, 29) = 'first_event_backfilled:agent:';
    ALTER TABLE source_scan_state RENAME COLUMN source_id TO agent_id;
    UPDATE source_scan_state SET agent_id = substr(agent_id, 7);
    ALTER TABLE source_scan_state RENAME TO agent_scan_state;

    CREATE TABLE event_totals_v4 (type TEXT PRIMARY KEY, count INTEGER NOT NULL) STRICT;
    INSERT INTO event_totals_v4 (type, count) SELECT type, count FROM event_totals WHERE provider = 'openclaw';
    DROP TABLE event_totals;
    ALTER TABLE event_totals_v4 RENAME TO event_totals;

    DROP INDEX log_events_source_ts;
    ALTER TABLE log_events DROP COLUMN source_id;
    ALTER TABLE log_events DROP COLUMN provider;

    ALTER TABLE transcript_models DROP COLUMN reasoning;
    ALTER TABLE transcript_models DROP COLUMN unpriced;
    ALTER TABLE transcript_models RENAME COLUMN source_id TO agent_id;
    UPDATE transcript_models SET agent_id = substr(agent_id, 7);

    CREATE TABLE token_usage_hourly_v4 (
      hour INTEGER NOT NULL, agent_id TEXT NOT NULL, model TEXT NOT NULL, turns INTEGER NOT NULL, messages INTEGER NOT NULL,
      input REAL NOT NULL, output REAL NOT NULL, cache_read REAL NOT NULL, cache_write REAL NOT NULL, cost_usd REAL NOT NULL,
      PRIMARY KEY (hour, agent_id, model)
    ) STRICT;
    INSERT INTO token_usage_hourly_v4 SELECT hour, substr(source_id, 7), model, sum(turns), sum(messages), sum(input), sum(output),
      sum(cache_read), sum(cache_write), sum(cost_usd) FROM token_usage_hourly GROUP BY hour, source_id, model;
    DROP TABLE token_usage_hourly;
    ALTER TABLE token_usage_hourly_v4 RENAME TO token_usage_hourly;

    DROP INDEX token_usage_source_ts;
    ALTER TABLE token_usage DROP COLUMN reasoning;
    ALTER TABLE token_usage DROP COLUMN unpriced;
    ALTER TABLE token_usage RENAME COLUMN source_id TO agent_id;
    UPDATE token_usage SET agent_id = substr(agent_id, 7);
    CREATE INDEX token_usage_agent_ts ON token_usage (agent_id, ts, model, role, input, output, cache_read, cache_write, cost_usd);

    DROP INDEX transcript_totals_key;
    ALTER TABLE transcript_totals DROP COLUMN reasoning;
    ALTER TABLE transcript_totals DROP COLUMN unpriced;
    ALTER TABLE transcript_totals DROP COLUMN tool_errors;
    ALTER TABLE transcript_totals RENAME COLUMN source_id TO agent_id;
    UPDATE transcript_totals SET agent_id = substr(agent_id, 7);

    -- v6: first_event
    DROP INDEX transcript_totals_first_event_unknown;
    ALTER TABLE transcript_totals DROP COLUMN first_event;

    DELETE FROM schema_migrations WHERE version > 4;
    PRAGMA user_version = 4;
  `);
}
