// Every configuration key, once: its type, default, limits, env name and help text. Loading,
// validation, `insightsctl --help` and the README's config table all come from this list.
import { parseAlertsConfig } from "../alerts/config.js";
import { parsePriceOverrides } from "../pricing/overrides.js";

type OptionKind =
  | { type: "int"; min: number; max: number }
  | { type: "bool" }
  | { type: "enum"; values: readonly string[] }
  | { type: "string"; minLength?: number; nullable?: boolean }
  | { type: "path"; nullable: true }
  | { type: "url"; nullable: true }
  /** Directories: a JSON array in config.json, a comma-separated list in env and flags. */
  | { type: "paths"; nullable: true }
  /** A JSON object (config.json, or JSON text in env); `check` validates it and throws a ConfigError. */
  | { type: "object"; nullable: true; check: (value: unknown, where: string) => void };

export interface OptionDef {
  kind: OptionKind;
  default: string | number | boolean | null;
  env: string;
  /** Whether a SIGHUP reload can change it without a restart. */
  reloadable: boolean;
  help: string;
  /** Never printed back in errors or logs. */
  secret?: boolean;
}

const int = (min: number, max: number): OptionKind => ({ type: "int", min, max });
/** Read a provider when its data is found (auto), always (on: a missing dir shows as DISCONNECTED) or never (off). */
const mode: OptionKind = { type: "enum", values: ["auto", "on", "off"] };

export const OPTIONS = {
  host: { kind: { type: "string", minLength: 1 }, default: "127.0.0.1", env: "INSIGHTS_HOST", reloadable: false, help: "Address the HTTP server binds to" },
  port: { kind: int(1, 65535), default: 41080, env: "INSIGHTS_PORT", reloadable: false, help: "HTTP port" },
  noAuth: { kind: { type: "bool" }, default: false, env: "INSIGHTS_NO_AUTH", reloadable: false, help: "Disable authentication (loopback peers only; refused with a non-loopback host)" },
  token: { kind: { type: "string", minLength: 32, nullable: true }, default: null, env: "INSIGHTS_TOKEN", reloadable: false, help: "API token; default: generated once and kept in the state dir", secret: true },
  metricsToken: { kind: { type: "string", minLength: 32, nullable: true }, default: null, env: "INSIGHTS_METRICS_TOKEN", reloadable: false, help: "Read-only token for GET /metrics only (a Prometheus on another host); refused everywhere else", secret: true },
  hostName: { kind: { type: "string", minLength: 1, nullable: true }, default: null, env: "INSIGHTS_HOST_NAME", reloadable: true, help: "This machine's name in insights_build_info{host} and `insightsctl export`; default the hostname" },
  otlpEndpoint: { kind: { type: "url", nullable: true }, default: null, env: "INSIGHTS_OTLP_ENDPOINT", reloadable: false, help: "Push the /metrics figures to this OTLP/HTTP metrics URL (an OpenTelemetry Collector's http://host:4318/v1/metrics); off by default" },
  otlpIntervalSeconds: { kind: int(5, 3600), default: 60, env: "INSIGHTS_OTLP_INTERVAL_SECONDS", reloadable: false, help: "How often the OTLP push sends" },
  openclawDir: { kind: { type: "path", nullable: true }, default: null, env: "INSIGHTS_OPENCLAW_DIR", reloadable: false, help: "OpenClaw state dir; default $OPENCLAW_STATE_DIR or ~/.openclaw, the bundled demo when absent" },
  openclaw: { kind: mode, default: "auto", env: "INSIGHTS_OPENCLAW", reloadable: false, help: "Read OpenClaw: auto (when its state dir exists), on, off" },
  claudeCode: { kind: mode, default: "auto", env: "INSIGHTS_CLAUDE_CODE", reloadable: false, help: "Read Claude Code: auto (when a config dir with projects exists), on, off" },
  claudeCodeDirs: { kind: { type: "paths", nullable: true }, default: null, env: "INSIGHTS_CLAUDE_CODE_DIRS", reloadable: false, help: "Claude Code config dirs; default $CLAUDE_CONFIG_DIR (a comma-separated list) or ~/.claude and ~/.config/claude" },
  codex: { kind: mode, default: "auto", env: "INSIGHTS_CODEX", reloadable: false, help: "Read Codex: auto (when its home exists), on, off" },
  codexDirs: { kind: { type: "paths", nullable: true }, default: null, env: "INSIGHTS_CODEX_DIRS", reloadable: false, help: "Codex homes; default $CODEX_HOME or ~/.codex" },
  geminiCli: { kind: mode, default: "auto", env: "INSIGHTS_GEMINI_CLI", reloadable: false, help: "Read Gemini CLI: auto (when its dir has sessions), on, off" },
  geminiCliDirs: { kind: { type: "paths", nullable: true }, default: null, env: "INSIGHTS_GEMINI_CLI_DIRS", reloadable: false, help: "Gemini CLI dirs (.gemini); default $GEMINI_CLI_HOME/.gemini or ~/.gemini" },
  watchMaxDirs: { kind: int(0, 1_000_000), default: 4096, env: "INSIGHTS_WATCH_MAX_DIRS", reloadable: false, help: "Directories watched for changes at most, all installs together (each an inotify watch); an install beyond it is polled, 0 polls all" },
  prices: { kind: { type: "object", nullable: true, check: (v, where) => void parsePriceOverrides(v, where) }, default: null, env: "INSIGHTS_PRICES", reloadable: false, help: "Price overrides in USD per million tokens by model id or glob (docs/pricing.md)" },
  alerts: { kind: { type: "object", nullable: true, check: (v, where) => void parseAlertsConfig(v, where) }, default: null, env: "INSIGHTS_ALERTS", reloadable: true, help: "Alert rules, channels and time zone (docs/alerting.md); JSON text in the env" },
  gatewayUrl: { kind: { type: "url", nullable: true }, default: null, env: "INSIGHTS_GATEWAY_URL", reloadable: true, help: "Gateway base URL; default http://127.0.0.1:<gateway.port from openclaw.json>" },
  logLevel: { kind: { type: "enum", values: ["trace", "debug", "info", "warn", "error"] }, default: "info", env: "INSIGHTS_LOG_LEVEL", reloadable: true, help: "Minimum level written to the daemon log" },
  logMaxBytes: { kind: int(65_536, 1_073_741_824), default: 10_485_760, env: "INSIGHTS_LOG_MAX_BYTES", reloadable: true, help: "Size at which daemon.log is rotated" },
  logMaxFiles: { kind: int(1, 50), default: 5, env: "INSIGHTS_LOG_MAX_FILES", reloadable: true, help: "Rotated daemon.log files kept (daemon.log.1 ...)" },
  sampleIntervalSeconds: { kind: int(1, 3600), default: 10, env: "INSIGHTS_SAMPLE_INTERVAL_SECONDS", reloadable: true, help: "How often the gateway is probed and sampled" },
  retentionRawDays: { kind: int(1, 3650), default: 7, env: "INSIGHTS_RETENTION_RAW_DAYS", reloadable: true, help: "Days raw samples, events and usage rows are kept" },
  retentionRollupDays: { kind: int(1, 3650), default: 90, env: "INSIGHTS_RETENTION_ROLLUP_DAYS", reloadable: true, help: "Days hourly rollups are kept" },
  sessionRotateHours: { kind: int(1, 720), default: 24, env: "INSIGHTS_SESSION_ROTATE_HOURS", reloadable: false, help: "Hours after which the dashboard's session-cookie key is replaced" },
  sessionGraceHours: { kind: int(0, 720), default: 12, env: "INSIGHTS_SESSION_GRACE_HOURS", reloadable: false, help: "Hours a replaced session-cookie key still signs people in" },
  openclawCommand: { kind: { type: "string", minLength: 1 }, default: "openclaw", env: "INSIGHTS_OPENCLAW_COMMAND", reloadable: true, help: "The openclaw CLI used for gateway restart, update and channel fallback (a name on PATH or a path)" },
  renderConcurrency: { kind: int(1, 16), default: 2, env: "INSIGHTS_RENDER_CONCURRENCY", reloadable: false, help: "Snapshots rendered at the same time" },
  renderQueueMax: { kind: int(0, 1000), default: 16, env: "INSIGHTS_RENDER_QUEUE_MAX", reloadable: false, help: "Snapshot requests that may wait for a renderer; more get QUEUE_FULL" },
  renderQueueWaitSeconds: { kind: int(1, 300), default: 5, env: "INSIGHTS_RENDER_QUEUE_WAIT_SECONDS", reloadable: false, help: "Longest wait for a renderer before QUEUE_TIMEOUT" },
  renderIdleSeconds: { kind: int(1, 3600), default: 30, env: "INSIGHTS_RENDER_IDLE_SECONDS", reloadable: false, help: "A render worker stops after this long without a card; the next card starts one (about 1 s more)" },
  collectTimeoutSeconds: { kind: int(1, 300), default: 5, env: "INSIGHTS_COLLECT_TIMEOUT_SECONDS", reloadable: false, help: "Per-source budget to refresh data for a snapshot; a source over it is skipped" },
  totalTimeoutSeconds: { kind: int(1, 600), default: 15, env: "INSIGHTS_TOTAL_TIMEOUT_SECONDS", reloadable: false, help: "Longest a snapshot request may take in all before TOTAL_TIMEOUT" },
  snapshotRateLimitPerMinute: { kind: int(1, 100_000), default: 30, env: "INSIGHTS_SNAPSHOT_RATE_LIMIT_PER_MINUTE", reloadable: false, help: "Snapshot requests per client and minute before RATE_LIMITED" },
  snapshotMaxBytes: { kind: int(1024, 1_073_741_824), default: 2_097_152, env: "INSIGHTS_SNAPSHOT_MAX_BYTES", reloadable: false, help: "Largest snapshot; bigger ones step the detail down, then fail with PAYLOAD_TOO_LARGE" },
  weekStart: { kind: { type: "enum", values: ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] }, default: "monday", env: "INSIGHTS_WEEK_START", reloadable: false, help: "The day the weeks of `insightsctl usage weekly` start on" },
  shutdownGraceSeconds: { kind: int(0, 60), default: 5, env: "INSIGHTS_SHUTDOWN_GRACE_SECONDS", reloadable: true, help: "How long a stop waits for in-flight work before closing" },
} as const satisfies Record<string, OptionDef>;

export type OptionKey = keyof typeof OPTIONS;
export type ProviderMode = "auto" | "on" | "off";

export interface Config {
  host: string;
  port: number;
  noAuth: boolean;
  token: string | null;
  metricsToken: string | null;
  hostName: string | null;
  otlpEndpoint: string | null;
  otlpIntervalSeconds: number;
  openclawDir: string | null;
  openclaw: ProviderMode;
  claudeCode: ProviderMode;
  claudeCodeDirs: string[] | null;
  codex: ProviderMode;
  codexDirs: string[] | null;
  geminiCli: ProviderMode;
  geminiCliDirs: string[] | null;
  watchMaxDirs: number;
  /** As written; shared/pricing parses it. */
  prices: Record<string, unknown> | null;
  /** As written; shared/alerts/config.ts parses it. */
  alerts: Record<string, unknown> | null;
  gatewayUrl: string | null;
  logLevel: "trace" | "debug" | "info" | "warn" | "error";
  logMaxBytes: number;
  logMaxFiles: number;
  sampleIntervalSeconds: number;
  retentionRawDays: number;
  retentionRollupDays: number;
  sessionRotateHours: number;
  sessionGraceHours: number;
  openclawCommand: string;
  renderConcurrency: number;
  renderQueueMax: number;
  renderQueueWaitSeconds: number;
  renderIdleSeconds: number;
  collectTimeoutSeconds: number;
  totalTimeoutSeconds: number;
  snapshotRateLimitPerMinute: number;
  snapshotMaxBytes: number;
  /** The day `usage weekly`'s weeks start on. */
  weekStart: "monday" | "tuesday" | "wednesday" | "thursday" | "friday" | "saturday" | "sunday";
  shutdownGraceSeconds: number;
}

export const OPTION_KEYS = Object.keys(OPTIONS) as OptionKey[];
