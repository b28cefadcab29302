// The real material the synthetic state dir is made of: the fixture agent DB's schema, its
// schema_meta, one session_nodes / session_windows row of each kind, one real event of each type,
// the sessions.json entries and JSONL lines of the file era, and the config. Read from copies of
// the fixtures (even a read-only SQLite open may create -wal/-shm beside the file).
import * as fs from "node:fs";
import * as path from "node:path";
import Database from "better-sqlite3";
import { copyFixture, FILES_FIXTURE, removeTempDirs, SQLITE_FIXTURE } from "../../test/helpers/openclaw-fixtures.js";

export type Json = Record<string, unknown>;

export function isJson(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** One real event of each kind the generator writes. */
export interface EventTemplates {
  header: Json;
  modelChange: Json;
  thinking: Json;
  snapshot: Json;
  bootstrap: Json;
  /** A user message typed by a person. */
  user: Json;
  /** The user message of a cron run (with its long unattended-run preamble). */
  cronUser: Json;
  assistant: Json;
}

export interface SchemaEntry {
  type: string;
  name: string;
  sql: string;
}

export interface SqliteTemplates {
  /** sqlite_master in creation order, without auto-indexes and the shadow tables of virtual tables. */
  schema: SchemaEntry[];
  pageSize: number;
  userVersion: number;
  applicationId: number;
  schemaMeta: Json[];
  nodes: { main: Json; cron: Json };
  windows: { main: Json; cron: Json };
  events: EventTemplates;
}

export interface FilesTemplates {
  entries: { main: Json; cron: Json };
  events: EventTemplates;
}

export interface Templates {
  sqlite: SqliteTemplates;
  files: FilesTemplates;
  /** openclaw.json of the fixture (both eras use the same one). */
  config: Json;
  /** The fixture's shared state DB, copied as is so the file era can report its app version. */
  stateDb: { sqlite: Buffer; files: Buffer };
  /** Words of the real texts (skills, prompts, messages): the generator's vocabulary. */
  words: string[];
}

function parseObject(text: string, where: string): Json {
  const v: unknown = JSON.parse(text);
  if (!isJson(v)) throw new Error(`${where}: not a JSON object`);
  return v;
}

function messageOf(e: Json): Json | null {
  return isJson(e.message) ? e.message : null;
}

/** Sorts real events into the kinds above; the first of each kind wins. */
function classify(events: Json[], where: string): EventTemplates {
  const found: Partial<EventTemplates> = {};
  for (const e of events) {
    const m = messageOf(e);
    if (e.type === "session") found.header ??= e;
    else if (e.type === "model_change") found.modelChange ??= e;
    else if (e.type === "thinking_level_change") found.thinking ??= e;
    else if (e.type === "custom" && e.customType === "model-snapshot") found.snapshot ??= e;
    else if (e.type === "custom" && e.customType === "openclaw:bootstrap-context:full") found.bootstrap ??= e;
    else if (m?.role === "assistant") found.assistant ??= e;
    else if (m?.role === "user") {
      const cron = typeof m.content === "string" && m.content.startsWith("[cron:");
      if (cron) found.cronUser ??= e;
      else found.user ??= e;
    }
  }
  const kinds: (keyof EventTemplates)[] = ["header", "modelChange", "thinking", "snapshot", "bootstrap", "user", "cronUser", "assistant"];
  for (const k of kinds) if (!found[k]) throw new Error(`${where}: no real event of kind ${k} to use as a template`);
  return found as EventTemplates;
}

function loadSqlite(fixtureDir: string): SqliteTemplates {
  const dbPath = path.join(fixtureDir, "agents", "main", "agent", "openclaw-agent.sqlite");
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    // `pragma table_list` tags the tables a virtual table creates for itself ("shadow"): creating
    // the virtual table makes them again, so they are left out.
    const shadow = new Set((db.pragma("table_list") as { name: string; type: string }[]).filter((t) => t.type === "shadow").map((t) => t.name));
    const schema = (db.prepare("SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid").all() as SchemaEntry[]).filter(
      (e) => !shadow.has(e.name) && e.name !== "sqlite_sequence",
    );
    const nodes = db.prepare("SELECT * FROM session_nodes").all() as Json[];
    const windows = db.prepare("SELECT * FROM session_windows").all() as Json[];
    const events = (db.prepare("SELECT event_json FROM transcript_events WHERE event_json IS NOT NULL ORDER BY session_id, seq").all() as { event_json: string }[]).map(
      (r, i) => parseObject(r.event_json, `transcript_events row ${i}`),
    );
    const mainNode = nodes.find((n) => n.created_via !== "cron");
    const cronNode = nodes.find((n) => n.created_via === "cron");
    const mainWindow = windows.find((w) => w.session_key === mainNode?.session_key);
    const cronWindow = windows.find((w) => w.session_key === cronNode?.session_key);
    if (!mainNode || !cronNode || !mainWindow || !cronWindow) throw new Error(`${dbPath}: expected a direct and a cron session with windows`);
    return {
      schema,
      pageSize: db.pragma("page_size", { simple: true }) as number,
      userVersion: db.pragma("user_version", { simple: true }) as number,
      applicationId: db.pragma("application_id", { simple: true }) as number,
      schemaMeta: db.prepare("SELECT * FROM schema_meta").all() as Json[],
      nodes: { main: mainNode, cron: cronNode },
      windows: { main: mainWindow, cron: cronWindow },
      events: classify(events, dbPath),
    };
  } finally {
    db.close();
  }
}

function loadFiles(fixtureDir: string): FilesTemplates {
  const sessionsDir = path.join(fixtureDir, "agents", "main", "sessions");
  const sessions = parseObject(fs.readFileSync(path.join(sessionsDir, "sessions.json"), "utf8"), "sessions.json");
  const entries = Object.entries(sessions).filter((kv): kv is [string, Json] => isJson(kv[1]));
  const main = entries.find(([k]) => !k.includes(":cron:"))?.[1];
  const cron = entries.find(([k]) => k.includes(":cron:"))?.[1];
  if (!main || !cron) throw new Error(`${sessionsDir}/sessions.json: expected a direct and a cron entry`);
  const events: Json[] = [];
  for (const name of fs.readdirSync(sessionsDir).sort()) {
    if (!name.endsWith(".jsonl") || name.includes(".trajectory")) continue;
    const lines = fs.readFileSync(path.join(sessionsDir, name), "utf8").split("\n").filter((l) => l.trim() !== "");
    lines.forEach((l, i) => events.push(parseObject(l, `${name}:${i + 1}`)));
  }
  return { entries: { main, cron }, events: classify(events, sessionsDir) };
}

/** Every string inside `v`, recursively. */
function strings(v: unknown, out: string[]): string[] {
  if (typeof v === "string") out.push(v);
  else if (Array.isArray(v)) for (const x of v) strings(x, out);
  else if (isJson(v)) for (const x of Object.values(v)) strings(x, out);
  return out;
}

function vocabulary(sources: unknown[]): string[] {
  const seen = new Set<string>();
  for (const s of strings(sources, [])) {
    for (const w of s.split(/[^A-Za-z]+/)) {
      const word = w.toLowerCase();
      // Fragments of hex ids ("abcd", "aeebb") are not words.
      if (word.length >= 2 && word.length <= 14 && !/^[a-f]+$/.test(word)) seen.add(word);
    }
  }
  return [...seen].sort();
}

/** Loads every template from copies of the two fixture state dirs (removed again before returning). */
export function loadTemplates(): Templates {
  try {
    const sqliteDir = copyFixture(SQLITE_FIXTURE);
    const filesDir = copyFixture(FILES_FIXTURE);
    const sqlite = loadSqlite(sqliteDir);
    const files = loadFiles(filesDir);
    const config = parseObject(fs.readFileSync(path.join(sqliteDir, "openclaw.json"), "utf8"), "openclaw.json");
    const words = vocabulary([sqlite.nodes.main.entry_json, sqlite.nodes.cron.entry_json, files.entries.main, sqlite.events.cronUser, files.events.user]
      .map((v) => (typeof v === "string" ? parseObject(v, "entry_json") : v)));
    if (words.length < 100) throw new Error(`only ${words.length} words in the fixture texts; too few for a vocabulary`);
    return {
      sqlite,
      files,
      config,
      stateDb: {
        sqlite: fs.readFileSync(path.join(sqliteDir, "state", "openclaw.sqlite")),
        files: fs.readFileSync(path.join(filesDir, "state", "openclaw.sqlite")),
      },
      words,
    };
  } finally {
    removeTempDirs();
  }
}
