import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ConfigError } from "../base/errors.js";
import { loadConfig } from "./load.js";
import { OPTIONS } from "./options.js";

const dir = mkdtempSync(join(tmpdir(), "gi-config-"));
const file = join(dir, "config.json");
const missing = join(dir, "none.json");

function throwsConfig(fn: () => unknown, pattern: RegExp): ConfigError {
  try {
    fn();
  } catch (err) {
    assert.instance(err, ConfigError);
    assert.match((err as Error).message, pattern);
    return err as ConfigError;
  }
  throw new Error("expected a ConfigError");
}

test("defaults apply when nothing is given", () => {
  const { config, origins } = loadConfig({ configFile: missing, env: {} });
  for (const [key, def] of Object.entries(OPTIONS)) assert.is(config[key as keyof typeof config], def.default, key);
  assert.is(origins.port, "default");
});

test("precedence: defaults < config.json < env < flags", () => {
  writeFileSync(file, JSON.stringify({ port: 5000, logLevel: "debug", retentionRawDays: 3 }));
  const fileOnly = loadConfig({ configFile: file, env: {} });
  assert.is(fileOnly.config.port, 5000);
  assert.is(fileOnly.origins.port, "file");
  const env = loadConfig({ configFile: file, env: { INSIGHTS_PORT: "6000", INSIGHTS_LOG_LEVEL: "WARN" } });
  assert.is(env.config.port, 6000);
  assert.is(env.config.logLevel, "warn");
  assert.is(env.config.retentionRawDays, 3);
  const flag = loadConfig({ configFile: file, env: { INSIGHTS_PORT: "6000" }, flags: { port: "7000" } });
  assert.is(flag.config.port, 7000);
  assert.is(flag.origins.port, "flag");
});

test("an empty env value counts as unset", () => {
  assert.is(loadConfig({ configFile: missing, env: { INSIGHTS_PORT: "" } }).config.port, 41080);
});

test("a bad value names the key, the value, the origin and what is allowed", () => {
  const err = throwsConfig(() => loadConfig({ configFile: missing, env: { INSIGHTS_PORT: "80a" } }), /port = "80a" \(from env INSIGHTS_PORT\): expected an integer from 1 to 65535/);
  assert.is(err.code, "CONFIG_INVALID");
  throwsConfig(() => loadConfig({ configFile: missing, env: {}, flags: { port: "0" } }), /from flag --port/);
  throwsConfig(() => loadConfig({ configFile: missing, env: { INSIGHTS_NO_AUTH: "maybe" } }), /noAuth = "maybe".*true or false/);
  throwsConfig(() => loadConfig({ configFile: missing, env: { INSIGHTS_LOG_LEVEL: "loud" } }), /one of trace, debug, info, warn, error/);
  throwsConfig(() => loadConfig({ configFile: missing, env: { INSIGHTS_GATEWAY_URL: "ftp://x" } }), /http:\/\/ or https:\/\/ URL/);
  writeFileSync(file, JSON.stringify({ retentionRawDays: 0 }));
  throwsConfig(() => loadConfig({ configFile: file, env: {} }), new RegExp(`retentionRawDays = 0 \\(from ${file.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}\\)`));
});

test("a short token is refused without printing it", () => {
  const err = throwsConfig(() => loadConfig({ configFile: missing, env: { INSIGHTS_TOKEN: "too-short-secret" } }), /token = "<16 characters>".*at least 32 characters/);
  assert.not.ok(err.message.includes("too-short-secret"));
  const long = "x".repeat(32);
  assert.is(loadConfig({ configFile: missing, env: { INSIGHTS_TOKEN: long } }).config.token, long);
});

test("config.json: unknown keys, bad JSON and non-objects are errors", () => {
  writeFileSync(file, JSON.stringify({ prot: 1 }));
  throwsConfig(() => loadConfig({ configFile: file, env: {} }), /invalid config prot .*a known key/);
  writeFileSync(file, "{ port: 1 ");
  throwsConfig(() => loadConfig({ configFile: file, env: {} }), /valid JSON/);
  writeFileSync(file, "[1]");
  throwsConfig(() => loadConfig({ configFile: file, env: {} }), /a JSON object/);
});

test("no-auth with a non-loopback host is refused", () => {
  throwsConfig(() => loadConfig({ configFile: missing, env: { INSIGHTS_NO_AUTH: "1", INSIGHTS_HOST: "0.0.0.0" } }), /host = "0.0.0.0" \(from env INSIGHTS_HOST\).*loopback/);
  for (const host of ["127.0.0.1", "::1", "localhost", "127.0.0.2"]) {
    assert.is(loadConfig({ configFile: missing, env: { INSIGHTS_NO_AUTH: "true", INSIGHTS_HOST: host } }).config.noAuth, true);
  }
});

test("an OpenClaw dir given explicitly must exist at start; the default location may be absent", () => {
  const gone = join(dir, "no-openclaw-here");
  throwsConfig(() => loadConfig({ configFile: missing, env: {}, flags: { openclawDir: gone } }), /openclawDir = ".*no-openclaw-here" \(from flag --openclaw-dir\): expected an existing OpenClaw state directory \(it does not exist\)/);
  throwsConfig(() => loadConfig({ configFile: missing, env: { INSIGHTS_OPENCLAW_DIR: gone } }), /\(from env INSIGHTS_OPENCLAW_DIR\)/);
  writeFileSync(file, JSON.stringify({ openclawDir: gone }));
  throwsConfig(() => loadConfig({ configFile: file, env: {} }), /openclawDir = .*\(from .*config\.json\)/);
  // A file is not a state dir either.
  throwsConfig(() => loadConfig({ configFile: missing, env: {}, flags: { openclawDir: file } }), /is not a directory/);
  // An existing dir passes; so do the default (null) and an explicit null in config.json.
  assert.is(loadConfig({ configFile: missing, env: {}, flags: { openclawDir: dir } }).config.openclawDir, dir);
  assert.is(loadConfig({ configFile: missing, env: {} }).config.openclawDir, null);
  writeFileSync(file, JSON.stringify({ openclawDir: null }));
  assert.is(loadConfig({ configFile: file, env: {} }).config.openclawDir, null);
  // A reload (or a command that only reads) does not refuse a dir that went away later.
  assert.is(loadConfig({ configFile: missing, env: { INSIGHTS_OPENCLAW_DIR: gone }, atStart: false }).config.openclawDir, gone);
});

test("fleet keys: metricsToken (secret, >= 32, not the API token), hostName (one printable line), otlpEndpoint (http(s) URL)", () => {
  const token = "a".repeat(40);
  const ok = loadConfig({ configFile: missing, env: { INSIGHTS_METRICS_TOKEN: "m".repeat(32), INSIGHTS_HOST_NAME: "build-box", INSIGHTS_OTLP_ENDPOINT: "http://127.0.0.1:4318/v1/metrics", INSIGHTS_OTLP_INTERVAL_SECONDS: "15" } });
  assert.equal([ok.config.metricsToken, ok.config.hostName, ok.config.otlpEndpoint, ok.config.otlpIntervalSeconds], ["m".repeat(32), "build-box", "http://127.0.0.1:4318/v1/metrics", 15]);
  const short = throwsConfig(() => loadConfig({ configFile: missing, env: { INSIGHTS_METRICS_TOKEN: "secret-but-short" } }), /metricsToken = "<16 characters>" \(from env INSIGHTS_METRICS_TOKEN\): expected a string of at least 32 characters/);
  assert.not.match(short.message, /secret-but-short/);
  const same = throwsConfig(() => loadConfig({ configFile: missing, env: { INSIGHTS_TOKEN: token, INSIGHTS_METRICS_TOKEN: token } }), /metricsToken = "<hidden>".*a token other than `token`/);
  assert.not.match(same.message, new RegExp(token));
  for (const bad of ["line\nbreak", " padded", "tab\there", "x".repeat(254)]) throwsConfig(() => loadConfig({ configFile: missing, env: { INSIGHTS_HOST_NAME: bad } }), /invalid config hostName/);
  throwsConfig(() => loadConfig({ configFile: missing, env: { INSIGHTS_OTLP_ENDPOINT: "grpc://collector:4317" } }), /otlpEndpoint/);
  throwsConfig(() => loadConfig({ configFile: missing, env: { INSIGHTS_OTLP_INTERVAL_SECONDS: "1" } }), /otlpIntervalSeconds/);
});

test.run();
