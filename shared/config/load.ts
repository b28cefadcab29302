// Builds the one typed Config: defaults < config.json < INSIGHTS_* env < CLI flags. Every value is
// validated here, at start, and a bad one names the key, the value, where it came from and what is allowed.
import { statSync } from "node:fs";
import { isIP } from "node:net";
import { resolve } from "node:path";
import { ConfigError, isErrnoException } from "../base/errors.js";
import { OPTIONS, OPTION_KEYS, type Config, type OptionDef, type OptionKey } from "./options.js";
import { readRegularFile } from "../base/safe-open.js";

export type Origin = "default" | "file" | "env" | "flag";
type Env = Record<string, string | undefined>;
/** Flag values as the CLI parsed them (strings or booleans); undefined means "not given". */
export type Flags = Partial<Record<OptionKey, string | number | boolean | undefined>>;

export interface LoadedConfig {
  config: Config;
  origins: Record<OptionKey, Origin>;
  configFile: string;
}

interface LoadOptions {
  configFile: string;
  env?: Env;
  flags?: Flags;
  /**
   * Also check what must hold to start (default): an OpenClaw dir given explicitly must exist.
   * A SIGHUP reload or a command that only reads (logs, snapshot) passes false: a dir that went
   * away later is a source that is DISCONNECTED, not a bad config.
   */
  atStart?: boolean;
}

export function loadConfig({ configFile, env = process.env, flags = {}, atStart = true }: LoadOptions): LoadedConfig {
  const fileValues = readConfigFile(configFile);
  const values: Record<string, unknown> = {};
  const origins = {} as Record<OptionKey, Origin>;

  for (const key of OPTION_KEYS) {
    const def: OptionDef = OPTIONS[key];
    let raw: unknown = def.default;
    let origin: Origin = "default";
    let where = "default";
    if (fileValues[key] !== undefined) {
      raw = fileValues[key];
      origin = "file";
      where = configFile;
    }
    const envValue = env[def.env];
    if (envValue !== undefined && envValue !== "") {
      raw = envValue;
      origin = "env";
      where = `env ${def.env}`;
    }
    const flagValue = flags[key];
    if (flagValue !== undefined) {
      raw = flagValue;
      origin = "flag";
      where = `flag --${kebab(key)}`;
    }
    values[key] = coerce(key, def, raw, where);
    origins[key] = origin;
  }

  const config = values as unknown as Config;
  checkCombinations(config, origins, configFile);
  if (atStart) checkOpenclawDir(config, origins, configFile);
  return { config, origins, configFile };
}

function readConfigFile(path: string): Record<string, unknown> {
  let text: string;
  try {
    // Non-blocking and a regular file only: a FIFO at config.json must not hang start.
    text = readRegularFile(path, { maxBytes: 16 * 1024 * 1024 }).toString("utf8");
  } catch (err) {
    if (isErrnoException(err) && err.code === "ENOENT") return {};
    throw new ConfigError("config.json", path, path, `a readable file (${err instanceof Error ? err.message : String(err)})`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new ConfigError("config.json", path, path, `valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new ConfigError("config.json", typeof parsed, path, "a JSON object of settings");
  }
  for (const key of Object.keys(parsed)) {
    // A typo in a key would otherwise be silently ignored; a careful operator wants to know.
    if (!(key in OPTIONS)) throw new ConfigError(key, (parsed as Record<string, unknown>)[key], path, `a known key (${OPTION_KEYS.join(", ")})`);
  }
  return parsed as Record<string, unknown>;
}

function coerce(key: OptionKey, def: OptionDef, raw: unknown, where: string): unknown {
  const shown = def.secret ? "<hidden>" : raw;
  const bad = (allowed: string): never => {
    throw new ConfigError(key, shown, where, allowed);
  };
  const kind = def.kind;
  if (raw === null) {
    if ("nullable" in kind && kind.nullable) return null;
    return bad(describe(def));
  }
  switch (kind.type) {
    case "int": {
      const n = typeof raw === "number" ? raw : typeof raw === "string" && /^-?\d+$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
      if (!Number.isInteger(n) || n < kind.min || n > kind.max) return bad(describe(def));
      return n;
    }
    case "bool": {
      if (typeof raw === "boolean") return raw;
      const s = String(raw).trim().toLowerCase();
      if (["1", "true", "yes", "on"].includes(s)) return true;
      if (["0", "false", "no", "off"].includes(s)) return false;
      return bad(describe(def));
    }
    case "enum": {
      const s = String(raw).trim().toLowerCase();
      if (typeof raw !== "string" || !kind.values.includes(s)) return bad(describe(def));
      return s;
    }
    case "string": {
      if (typeof raw !== "string" || raw.length < (kind.minLength ?? 0)) {
        if (def.secret && typeof raw === "string") throw new ConfigError(key, `<${raw.length} characters>`, where, describe(def));
        return bad(describe(def));
      }
      return raw;
    }
    case "path": {
      if (typeof raw !== "string" || raw.trim() === "") return bad(describe(def));
      return raw;
    }
    case "url": {
      if (typeof raw !== "string") return bad(describe(def));
      try {
        const u = new URL(raw);
        if (u.protocol !== "http:" && u.protocol !== "https:") return bad(describe(def));
        return raw.replace(/\/+$/, "");
      } catch {
        return bad(describe(def));
      }
    }
    case "paths": {
      const list = typeof raw === "string" ? raw.split(",").map((p) => p.trim()).filter(Boolean) : raw;
      if (!Array.isArray(list) || list.length === 0 || list.length > 32 || !list.every((p) => typeof p === "string" && p.trim() !== "")) return bad(describe(def));
      return list;
    }
    case "object": {
      // Never printed back whole: an object value may hold secrets (alert channels' keys and URLs).
      const badObject = (what: string): never => {
        throw new ConfigError(key, what, where, describe(def));
      };
      let value = raw;
      if (typeof raw === "string") {
        try {
          value = JSON.parse(raw);
        } catch {
          return badObject(`<text that is not JSON, ${raw.length} characters>`);
        }
      }
      if (value === null || typeof value !== "object" || Array.isArray(value)) return badObject(`<${Array.isArray(value) ? "array" : value === null ? "null" : typeof value}>`);
      kind.check(value, where);
      return value;
    }
  }
}

/** What a value of this option must look like, in words. */
export function describe(def: OptionDef): string {
  const k = def.kind;
  switch (k.type) {
    case "int":
      return `an integer from ${k.min} to ${k.max}`;
    case "bool":
      return "true or false";
    case "enum":
      return `one of ${k.values.join(", ")}`;
    case "string":
      return k.minLength && k.minLength > 1 ? `a string of at least ${k.minLength} characters` : "a non-empty string";
    case "path":
      return "a directory path";
    case "url":
      return "an http:// or https:// URL";
    case "paths":
      return "one to 32 directory paths (a JSON array, or comma-separated in env and flags)";
    case "object":
      return "a JSON object";
  }
}

/** The longest `hostName` (a DNS name's limit). */
const MAX_HOST_NAME = 253;

function isLoopbackHost(host: string): boolean {
  if (host === "localhost") return true;
  if (isIP(host) === 4) return host.startsWith("127.");
  return host === "::1";
}

/** Where a value came from, in the words an error message uses. */
function originOf(key: OptionKey, origins: Record<OptionKey, Origin>, configFile: string): string {
  const o = origins[key];
  return o === "flag" ? `flag --${kebab(key)}` : o === "env" ? `env ${OPTIONS[key].env}` : o === "file" ? configFile : "default";
}

function checkCombinations(config: Config, origins: Record<OptionKey, Origin>, configFile: string): void {
  // Design §7: no-auth is only safe when nobody off this machine can reach the port.
  if (config.noAuth && !isLoopbackHost(config.host)) {
    throw new ConfigError("host", config.host, originOf("host", origins, configFile), "a loopback address (127.0.0.1, ::1 or localhost) when noAuth is on");
  }
  // The read-only scrape token must not be the admin token: it would grant everything.
  if (config.metricsToken !== null && config.token !== null && config.metricsToken === config.token) {
    throw new ConfigError("metricsToken", "<hidden>", originOf("metricsToken", origins, configFile), "a token other than `token` (the scrape token is read-only)");
  }
  // A label value in every scrape and export row: one printable line of a sane length.
  if (config.hostName !== null && (config.hostName.length > MAX_HOST_NAME || !/^[^\u0000-\u001f\u007f]+$/u.test(config.hostName) || config.hostName.trim() !== config.hostName)) {
    throw new ConfigError("hostName", config.hostName.slice(0, 80), originOf("hostName", origins, configFile), `at most ${MAX_HOST_NAME} characters without control characters or surrounding spaces`);
  }
}

/**
 * Only the default location (~/.openclaw, else the bundled demo) may be absent. A dir named by a
 * flag, INSIGHTS_OPENCLAW_DIR or config.json that does not exist is a typo or a missing mount:
 * starting anyway would watch nothing and look healthy.
 */
function checkOpenclawDir(config: Config, origins: Record<OptionKey, Origin>, configFile: string): void {
  if (config.openclawDir === null || origins.openclawDir === "default") return;
  const where = originOf("openclawDir", origins, configFile);
  const dir = resolve(config.openclawDir);
  let isDir: boolean;
  try {
    isDir = statSync(dir).isDirectory();
  } catch (err) {
    const why = isErrnoException(err) && err.code === "ENOENT" ? "it does not exist" : err instanceof Error ? err.message : String(err);
    throw new ConfigError("openclawDir", config.openclawDir, where, `an existing OpenClaw state directory (${why})`);
  }
  if (!isDir) throw new ConfigError("openclawDir", config.openclawDir, where, `an OpenClaw state directory (${dir} is not a directory)`);
}

export function kebab(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}
