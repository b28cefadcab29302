import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  DEFAULT_GATEWAY_PORT,
  agentEra,
  findModel,
  readConfigFile,
  readOpenClawState,
  resolveConfigPath,
  resolveStateDir,
} from "./state-dir.js";
import { FILES_FIXTURE, SQLITE_FIXTURE, copyFixture, makeTempDir, removeTempDirs } from "../../../test/helpers/openclaw-fixtures.js";

test.after(removeTempDirs);

// any: the fixture config is read as plain JSON to compute expected values.
type Json = Record<string, any>;
const readJson = (p: string): Json => JSON.parse(fs.readFileSync(p, "utf8")) as Json;

test("state dir: explicit > OPENCLAW_STATE_DIR > $HOME/.openclaw > homeDir()", () => {
  const env = { OPENCLAW_STATE_DIR: "/srv/oc", HOME: "/home/op" };
  assert.is(resolveStateDir({ stateDir: "/explicit", env }), "/explicit");
  assert.is(resolveStateDir({ env }), "/srv/oc");
  assert.is(resolveStateDir({ env: { HOME: "/home/op" } }), "/home/op/.openclaw");
  assert.is(resolveStateDir({ env: {}, homeDir: () => "/home/fallback" }), "/home/fallback/.openclaw");
  assert.is(resolveStateDir({ env: { OPENCLAW_STATE_DIR: "  ", HOME: "/h" } }), "/h/.openclaw", "blank env ignored");
  assert.is(resolveStateDir({ stateDir: "~/oc", env: { HOME: "/h" } }), "/h/oc");
});

test("config path: OPENCLAW_CONFIG_PATH overrides <state>/openclaw.json", () => {
  assert.is(resolveConfigPath("/s", { env: {} }), "/s/openclaw.json");
  assert.is(resolveConfigPath("/s", { env: { OPENCLAW_CONFIG_PATH: "/etc/oc.json5" } }), "/etc/oc.json5");
});

test("2026.9.6 fixture: port, log file, one sqlite agent, model prices", () => {
  const dir = copyFixture(SQLITE_FIXTURE);
  const cfg = readJson(path.join(dir, "openclaw.json"));
  const r = readOpenClawState({ stateDir: dir, env: {} });
  assert.ok(r.ok, r.ok ? "" : r.error.message);
  const s = r.value;
  assert.is(s.stateDir, dir);
  assert.is(s.configFound, true);
  assert.is(s.gatewayPort, cfg.gateway.port);
  assert.is(s.logFile, path.resolve(dir, cfg.logging.file));
  assert.ok(fs.existsSync(s.logFile as string), "the resolved log file is the fixture's log");
  const dirs = fs.readdirSync(path.join(dir, "agents")).sort();
  assert.equal(
    s.agents.map((a) => a.id),
    dirs,
  );
  const main = s.agents.find((a) => a.id === "main");
  assert.ok(main);
  assert.is(main.era, "sqlite");
  assert.is(main.name, "main");
  assert.is(main.dbPath, path.join(dir, "agents", "main", "agent", "openclaw-agent.sqlite"));
  // Every configured model is in the table with its cost and window.
  let n = 0;
  for (const [provider, def] of Object.entries(cfg.models.providers as Json)) {
    for (const m of (def as Json).models as Json[]) {
      n++;
      const info = findModel(s.models, provider, m.id);
      assert.ok(info, `${provider}/${m.id}`);
      assert.equal(info.cost, m.cost);
      assert.is(info.contextWindow, m.contextWindow);
      assert.is(info.maxTokens, m.maxTokens);
    }
  }
  assert.is(s.models.size, n);
  assert.is(r.warnings.length, 0);
});

test("2026.7.1 fixture: the agent is in the files era", () => {
  const dir = copyFixture(FILES_FIXTURE);
  const r = readOpenClawState({ stateDir: dir, env: {} });
  assert.ok(r.ok);
  assert.equal(
    r.value.agents.map((a) => [a.id, a.era]),
    [["main", "files"]],
  );
});

test("OPENCLAW_GATEWAY_PORT wins; a bad one is a warning and the config port applies", () => {
  const dir = copyFixture(SQLITE_FIXTURE);
  const cfgPort = readJson(path.join(dir, "openclaw.json")).gateway.port as number;
  const good = readOpenClawState({ stateDir: dir, env: { OPENCLAW_GATEWAY_PORT: "19001" } });
  assert.ok(good.ok);
  assert.is(good.value.gatewayPort, 19001);
  const bad = readOpenClawState({ stateDir: dir, env: { OPENCLAW_GATEWAY_PORT: "http" } });
  assert.ok(bad.ok);
  assert.is(bad.value.gatewayPort, cfgPort);
  assert.is(bad.warnings.length, 1);
  assert.is(bad.warnings[0]?.code, "BAD_FIELD");
});

test("JSON5 config: comments, agents.entries names, legacy agents.list, config-only agents", () => {
  const dir = makeTempDir();
  fs.mkdirSync(path.join(dir, "agents", "main", "agent"), { recursive: true });
  fs.writeFileSync(path.join(dir, "agents", "main", "agent", "openclaw-agent.sqlite"), "");
  fs.mkdirSync(path.join(dir, "agents", "ops", "sessions"), { recursive: true });
  fs.writeFileSync(path.join(dir, "agents", "ops", "sessions", "sessions.json"), "{}");
  // Both eras present: the SQLite DB wins (a doctor --fix import leaves old files behind).
  fs.mkdirSync(path.join(dir, "agents", "both", "agent"), { recursive: true });
  fs.mkdirSync(path.join(dir, "agents", "both", "sessions"), { recursive: true });
  fs.writeFileSync(path.join(dir, "agents", "both", "agent", "openclaw-agent.sqlite"), "");
  fs.writeFileSync(path.join(dir, "agents", "both", "sessions", "sessions.json"), "{}");
  fs.mkdirSync(path.join(dir, "agents", "empty"), { recursive: true });
  fs.mkdirSync(path.join(dir, "agents", ".hidden"), { recursive: true });
  fs.writeFileSync(path.join(dir, "agents", "stray-file"), "");
  fs.writeFileSync(
    path.join(dir, "openclaw.json"),
    `// JSON5, as OpenClaw accepts
{
  gateway: { port: 18800, },
  logging: { file: '/var/log/oc.log' },
  agents: {
    entries: { main: { name: 'Main Agent', workspace: './ws' }, planned: { name: 'Not Yet' }, ops: {} },
    list: [ { id: 'ops', name: 'Operations' }, { id: 'legacy' } ],
  },
  models: { providers: { p: { models: [ { id: 'm', cost: {} }, { id: 'n', cost: { input: 1 } }, { name: 'no id' } ] } } },
}`,
  );
  const r = readOpenClawState({ stateDir: dir, env: {} });
  assert.ok(r.ok, r.ok ? "" : r.error.message);
  const s = r.value;
  assert.is(s.gatewayPort, 18800);
  assert.is(s.logFile, "/var/log/oc.log");
  const view = Object.fromEntries(s.agents.map((a) => [a.id, [a.name, a.era, a.hasDir, a.inConfig]]));
  assert.equal(view, {
    both: ["both", "sqlite", true, false],
    empty: ["empty", "none", true, false],
    legacy: ["legacy", "none", false, true],
    main: ["Main Agent", "sqlite", true, true],
    ops: ["Operations", "files", true, true],
    planned: ["Not Yet", "none", false, true],
  });
  assert.is(findModel(s.models, "p", "m")?.cost, null, "cost {} inherits the catalog: unknown here");
  assert.equal(findModel(s.models, "p", "n")?.cost, { input: 1, output: 0, cacheRead: 0, cacheWrite: 0 });
  assert.is(findModel(s.models, null, "n")?.provider, "p", "unique id matches without a provider");
  assert.is(findModel(s.models, "x", "zzz"), null);
  assert.is(r.warnings.filter((w) => w.code === "BAD_FIELD").length, 1, "the model without an id");
});

test("findModel does not guess between providers sharing a model id", () => {
  const dir = makeTempDir();
  fs.writeFileSync(path.join(dir, "openclaw.json"), JSON.stringify({ models: { providers: { a: { models: [{ id: "m" }] }, b: { models: [{ id: "m" }] } } } }));
  const r = readOpenClawState({ stateDir: dir, env: {} });
  assert.ok(r.ok);
  assert.is(findModel(r.value.models, null, "m"), null);
  assert.is(findModel(r.value.models, "b", "m")?.provider, "b");
  assert.is(findModel(r.value.models, null, "a/m")?.provider, "a", "provider/model in one string");
});

test("no config file: defaults, no error", () => {
  const dir = makeTempDir();
  const r = readOpenClawState({ stateDir: dir, env: {} });
  assert.ok(r.ok);
  assert.is(r.value.configFound, false);
  assert.is(r.value.gatewayPort, DEFAULT_GATEWAY_PORT);
  assert.is(r.value.logFile, null);
  assert.equal(r.value.agents, []);
});

test("OPENCLAW_CONFIG_PATH points the reader at another file", () => {
  const dir = makeTempDir();
  const other = path.join(makeTempDir(), "custom.json5");
  fs.writeFileSync(other, "{gateway:{port:19999}}");
  const r = readOpenClawState({ stateDir: dir, env: { OPENCLAW_CONFIG_PATH: other } });
  assert.ok(r.ok);
  assert.is(r.value.configPath, other);
  assert.is(r.value.gatewayPort, 19999);
});

test("a missing state dir and a broken config are SourceErrors, not throws", () => {
  const gone = path.join(makeTempDir(), "does-not-exist");
  const missing = readOpenClawState({ stateDir: gone, env: {} });
  assert.ok(!missing.ok);
  assert.is(missing.error.kind, "missing");
  assert.is(missing.error.code, "SOURCE_UNAVAILABLE");

  const dir = makeTempDir();
  fs.writeFileSync(path.join(dir, "openclaw.json"), "{ gateway: { port: 1 ");
  const broken = readOpenClawState({ stateDir: dir, env: {} });
  assert.ok(!broken.ok);
  assert.is(broken.error.kind, "corrupt");

  fs.writeFileSync(path.join(dir, "openclaw.json"), "[1, 2]");
  const notObject = readConfigFile(path.join(dir, "openclaw.json"));
  assert.ok(!notObject.ok);
  assert.is(notObject.error.kind, "corrupt");

  const file = path.join(dir, "plain-file");
  fs.writeFileSync(file, "");
  const notDir = readOpenClawState({ stateDir: file, env: {} });
  assert.ok(!notDir.ok);
  assert.is(notDir.error.kind, "missing");
});

test("agentEra of a directory without either store is none", () => {
  assert.is(agentEra(makeTempDir()), "none");
});

test.run();
