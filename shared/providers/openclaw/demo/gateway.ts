// The demo's gateway: a loopback server that answers like the recorded OpenClaw 2026.9.6 gateway
// (shared/demo/gateway/*.json), so the monitor sees a running gateway with a version, an uptime
// and channels, through the same probes it uses on a real one: the lock file, GET /healthz and
// /readyz, and the WebSocket RPC (`health`, `channels.status`, `status`).
//
// It binds 127.0.0.1 on a port the OS picks, never a gateway's 18789, and the demo copy's lock
// file and openclaw.json are pointed at that port. The lock names this process's pid (the daemon,
// or the CLI rendering a card in-process): the demo has no gateway process of its own, so the
// CPU and memory the card shows for "the gateway" are gateway-insights' own. The recorded answers
// are served with their times made current (ts, uptime, probe times) and a little jitter in the
// latencies, so the figures move like a live gateway's.
import { randomUUID } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Clock } from "../../../base/clock.js";
import { findGatewayLock, lockFileName } from "../gateway/lock-file.js";
import { isProcessAlive, processStartTicks } from "../../../base/proc-stats.js";
import { isRecord, startGatewayServer, type ConnectOutcome } from "../gateway-rpc/gateway-server.js";
import { between, type Random } from "../../../base/random.js";
import type { DemoGateway } from "../../demo-contract.js";

type Json = Record<string, unknown>;

interface DemoGatewayOptions {
  /** The demo copy of the state dir (its lock file and openclaw.json are pointed here). */
  stateDir: string;
  /** The recorded answers: shared/demo/gateway. */
  answersDir: string;
  clock: Clock;
  /** When the demo gateway "started": the recording's start, moved to now's timeline. */
  startedAt: number;
  random?: Random;
  /** The pid the lock names; default this process. */
  pid?: number;
}


const readJson = (dir: string, file: string): Json => JSON.parse(readFileSync(join(dir, file), "utf8")) as Json;

export async function startDemoGateway(o: DemoGatewayOptions): Promise<DemoGateway> {
  const random = o.random ?? Math.random;
  const now = (): number => o.clock.now();
  const answers = {
    healthz: readJson(o.answersDir, "healthz.json"),
    readyz: readJson(o.answersDir, "readyz.json"),
    health: readJson(o.answersDir, "health.json"),
    status: readJson(o.answersDir, "status.json"),
    channels: readJson(o.answersDir, "channels.status.json"),
    hello: readJson(o.answersDir, "hello.json") as { challenge: { payload: Json }; helloOk: Json & { server: Json; features: Json; snapshot: Json; policy: Json } },
  };
  const uptimeMs = (): number => Math.max(0, now() - o.startedAt);
  const eventLoop = (base: unknown): Json => ({ ...(isRecord(base) ? base : {}), degraded: false, degradedSinceMs: null, reasons: [], delayP99Ms: between(random, 90, 320) / 10 });
  // Accounts probed a few seconds ago, connected since the gateway started.
  const channelAccounts = (accounts: unknown): unknown => {
    if (!isRecord(accounts)) return accounts;
    return Object.fromEntries(
      Object.entries(accounts).map(([id, list]) => [
        id,
        Array.isArray(list)
          ? list.map((a: unknown) => (isRecord(a) ? { ...a, lastConnectedAt: o.startedAt, lastProbeAt: now() - between(random, 1000, 20_000), probe: { ok: true, elapsedMs: between(random, 60, 240) } } : a))
          : list,
      ]),
    );
  };
  const handlers = {
    health: () => ({ ...answers.health, ts: now(), durationMs: between(random, 12, 45), eventLoop: eventLoop(answers.health.eventLoop) }),
    "channels.status": () => ({ ...answers.channels, ts: now(), eventLoop: eventLoop(answers.channels.eventLoop), channelAccounts: channelAccounts(answers.channels.channelAccounts) }),
    status: () => ({ ...answers.status, ts: now() }),
  };
  const { nonce: _nonce, ts: _ts, ...challengeExtra } = answers.hello.challenge.payload;
  const real = answers.hello.helloOk;
  const bootId = randomUUID();
  const connect = (frame: Json, { connId }: { nonce: string; connId: string }): ConnectOutcome => {
    const p = isRecord(frame.params) ? frame.params : null;
    if (frame.type !== "req" || frame.method !== "connect" || !p) {
      return { ok: false, code: "INVALID_REQUEST", message: "first frame must be connect", details: { code: "INVALID_FIRST_FRAME" } };
    }
    if (typeof p.minProtocol !== "number" || typeof p.maxProtocol !== "number" || !(p.maxProtocol >= 4 && p.minProtocol <= 4)) {
      return { ok: false, code: "INVALID_REQUEST", message: "protocol mismatch", details: { code: "PROTOCOL_MISMATCH", expectedProtocol: 4 }, closeCode: 1002 };
    }
    // A demo on loopback: any local client is let in with the read scopes it asks for; no device
    // token is issued, so nothing the demo hands out can be offered to a real gateway later.
    const scopes = Array.isArray(p.scopes) ? p.scopes.filter((s): s is string => typeof s === "string") : [];
    const device = isRecord(p.device) ? p.device : {};
    return {
      ok: true,
      session: { deviceId: String(device.id ?? "demo-client"), scopes, connId },
      hello: {
        type: "hello-ok",
        protocol: 4,
        server: { version: real.server.version, buildId: real.server.buildId, bootId, connId },
        features: { methods: Object.keys(handlers), events: real.features.events },
        snapshot: { uptimeMs: uptimeMs(), sessionDefaults: real.snapshot.sessionDefaults },
        auth: { method: "token", role: typeof p.role === "string" ? p.role : "operator", scopes },
        policy: { maxPayload: real.policy.maxPayload, maxBufferedBytes: real.policy.maxBufferedBytes, tickIntervalMs: 30_000 },
      },
    };
  };
  const server = await startGatewayServer({
    http: (path) => {
      if (path === "/healthz" || path === "/health") return { status: 200, body: answers.healthz };
      if (path === "/readyz" || path === "/ready") return { status: 200, body: { ...answers.readyz, uptimeMs: uptimeMs(), eventLoop: eventLoop(answers.readyz.eventLoop) } };
      return undefined;
    },
    challengeExtra,
    connect,
    handlers,
    unknownMethod: () => ({ code: "FORBIDDEN", message: "missing scope: operator.admin", details: { code: "MISSING_SCOPE", missingScope: "operator.admin", requiredScopes: ["operator.admin"] } }),
    tickIntervalMs: 30_000,
    now,
  });
  return { port: server.port, url: `http://127.0.0.1:${server.port}`, close: () => server.close() };
}

interface DemoLockOptions {
  stateDir: string;
  port: number;
  startedAt: number;
  pid?: number;
  uid?: number;
}

/** A live process other than `pid` holds the demo copy's lock (a daemon serving it while the CLI renders in-process). */
export function demoLockHeldElsewhere(stateDir: string, pid = process.pid): boolean {
  const found = findGatewayLock(stateDir, { configPath: join(stateDir, "openclaw.json") });
  const lock = found.ok ? found.value : null;
  return lock !== null && lock.pid !== pid && isProcessAlive(lock.pid, { startTime: lock.startTime });
}

/**
 * Points the demo copy at the demo gateway, as a gateway's own start would: the lock file (any
 * recorded lock is removed first) and `gateway.port` in openclaw.json, so nothing in the demo
 * leads the monitor to a real gateway's port.
 */
export function writeDemoLock(o: DemoLockOptions): string {
  const pid = o.pid ?? process.pid;
  const uid = o.uid ?? (typeof process.getuid === "function" ? process.getuid() : 0);
  const tmp = join(o.stateDir, "tmp");
  for (const dir of safeList(tmp).filter((n) => n.startsWith("openclaw-"))) {
    for (const name of safeList(join(tmp, dir)).filter((n) => /^gateway\..+\.lock$/.test(n))) rmSync(join(tmp, dir, name), { force: true });
  }
  const configPath = join(o.stateDir, "openclaw.json");
  const config = JSON.parse(readFileSync(configPath, "utf8")) as Json;
  const gateway = isRecord(config.gateway) ? config.gateway : {};
  atomicWrite(configPath, JSON.stringify({ ...config, gateway: { ...gateway, port: o.port } }, null, 2) + "\n");
  const dir = join(tmp, `openclaw-${uid}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, lockFileName(configPath));
  const lock = {
    pid,
    ownerId: randomUUID(),
    cronOwnerProjection: "dynamic-default-v1",
    createdAt: new Date(o.startedAt).toISOString(),
    configPath,
    stateDir: o.stateDir,
    port: o.port,
    startTime: processStartTicks(pid),
  };
  // The gateway pads its lock with a line of blanks after the JSON (openclaw-formats.md §10).
  atomicWrite(file, JSON.stringify(lock, null, 2) + "\n" + " ".repeat(16) + "\n");
  return file;
}

/** Removes the lock `writeDemoLock` wrote, if it still names `pid` (a clean gateway stop does the same). */
export function removeDemoLock(file: string, pid = process.pid): void {
  try {
    const lock = JSON.parse(readFileSync(file, "utf8")) as { pid?: unknown };
    if (lock.pid === pid) rmSync(file, { force: true });
  } catch {
    // already gone
  }
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function atomicWrite(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode: 0o600 });
  renameSync(tmp, file);
}
