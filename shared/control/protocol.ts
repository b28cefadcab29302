// The control socket protocol (design §8): newline-delimited JSON. A request is
// {id, method, params}; each response is {id, ok, result} or {id, ok:false, error:{code,message}}.
// A streaming method (logs.follow) answers many results for one id, then {id, ok, end:true}.
import type { LookedAt } from "../providers/looked-at.js";
import { StringDecoder } from "node:string_decoder";
import type { RateLimitsView } from "../queries/rate-limits.js";

interface ControlRequest {
  id: number;
  method: string;
  params?: Record<string, unknown>;
}

export type ControlResponse =
  | { id: number; ok: true; result?: unknown; end?: boolean }
  | { id: number; ok: false; error: { code: string; message: string } };

/** The answer to `status`; `insightsctl status --json` prints it (documented in README). */
export interface DaemonStatus {
  running: true;
  pid: number;
  version: string;
  startedAt: string;
  uptimeSeconds: number;
  url: string;
  demo: boolean;
  /** The health verdict, as /health `status` says it (README "GET /health"). */
  health: "starting" | "ok" | "degraded" | "unhealthy";
  /** OpenClaw's state dir; null when OpenClaw is not read. */
  openclawDir: string | null;
  stateDir: string;
  configFile: string;
  socket: string;
  logFile: string;
  auth: "token" | "none";
  gateway: {
    /** up | down | demo | unknown (not probed yet) | none (OpenClaw not read), as /health `gateway` says it. */
    state: "up" | "down" | "demo" | "unknown" | "none";
    up: boolean;
    url: string | null;
    checkedAt: string | null;
    latencyMs: number | null;
    error: string | null;
    pid: number | null;
    version: string | null;
  };
  /** The system health level (HEALTHY, DEGRADED, UNHEALTHY) from the health checks; `health` is the same verdict in words. */
  healthLevel: "HEALTHY" | "DEGRADED" | "UNHEALTHY";
  /** The checks that are not PASS (FAIL first): why `health` is not ok. */
  healthReasons: Array<{ name: string; status: "PASS" | "WARN" | "FAIL"; message: string | null }>;
  sources: Array<{ id: string; status: string; lastError: string | null }>;
  /** One entry per provider read, in A, B, C order: its own verdict and sources. */
  providers: Array<{
    provider: string;
    health: "starting" | "ok" | "degraded" | "unhealthy";
    versions: string[];
    sources: number;
    sessions: number;
    liveSessions: number;
    /** Providers that record the plan's windows (Claude Code, Codex): the latest per install, as GraphQL's rateLimitsBySource. */
    rateLimits?: RateLimitsView[];
    /** With no windows: why (no status line set up, an API-key login, none recorded yet). */
    rateLimitsNote?: string | null;
  }>;
  store: { ok: boolean; path: string; sizeBytes: number; schemaVersion: number; error: string | null };
  /** Every dir each provider (not off) looks at for its data, and what is there now (docs/providers.md). */
  lookedAt: LookedAt[];
}


/** The answer to `snapshot`: the rendered card and how it was made. */
export interface SnapshotReply {
  /** The file's bytes, base64. */
  body: string;
  contentType: string;
  fileName: string;
  format: "png" | "svg" | "json";
  detail: string;
  requestedDetail: string;
  degradedSources: string[];
  durationMs: number;
  summary: string;
}

/** Guards against a peer that never sends a newline. */
const MAX_LINE_BYTES = 1024 * 1024;
/** The CLI reads answers from its own daemon; a snapshot image (base64) can be far larger than a request. */
export const MAX_RESPONSE_LINE_BYTES = 256 * 1024 * 1024;

export function encode(message: ControlRequest | ControlResponse): string {
  return JSON.stringify(message) + "\n";
}

/**
 * Splits a byte stream into JSON lines; calls onMessage per parsed line, onError for a bad one.
 * A line longer than maxLineBytes is reported once and skipped up to its newline, so its tail is
 * never taken for a request. Bytes are decoded as a stream (a character split across chunks stays
 * whole) and only new bytes are searched for a newline, so a line sent a byte at a time costs
 * linear, not quadratic, time.
 */
export class LineDecoder {
  private parts: string[] = [];
  private bytes = 0;
  /** Inside an over-long line: drop everything up to the next newline. */
  private skipping = false;
  private readonly text = new StringDecoder("utf8");

  constructor(
    private readonly onMessage: (value: unknown) => void,
    private readonly onError: (err: Error) => void,
    private readonly maxLineBytes = MAX_LINE_BYTES,
  ) {}

  push(chunk: Buffer | string): void {
    let rest = typeof chunk === "string" ? chunk : this.text.write(chunk);
    let nl: number;
    while ((nl = rest.indexOf("\n")) >= 0) {
      const piece = rest.slice(0, nl);
      rest = rest.slice(nl + 1);
      if (this.skipping) {
        this.skipping = false;
        continue;
      }
      if (!this.take(piece)) {
        // That over-long line ends at this newline: the next one is read normally.
        this.skipping = false;
        continue;
      }
      const line = this.parts.join("").trim();
      this.parts = [];
      this.bytes = 0;
      if (!line) continue;
      try {
        this.onMessage(JSON.parse(line));
      } catch (err) {
        this.onError(err instanceof Error ? err : new Error(String(err)));
      }
    }
    if (rest && !this.skipping) this.take(rest);
  }

  /** Adds part of the current line; false (and the line dropped, reported once) when it grows too long. */
  private take(piece: string): boolean {
    this.bytes += Buffer.byteLength(piece);
    if (this.bytes <= this.maxLineBytes) {
      if (piece) this.parts.push(piece);
      return true;
    }
    this.parts = [];
    this.bytes = 0;
    this.skipping = true;
    this.onError(new Error(`control message longer than ${this.maxLineBytes} bytes`));
    return false;
  }
}
