// Child process of the graphql suite: holds N SSE subscriptions to `dataChanged` open on the
// daemon, appends one real-format event to a transcript of the state dir it reads (as OpenClaw
// would), and times when each subscription receives the signal. Runs on plain node (bench/child.ts).
//
// Clocks: the append time and receipts are this process's epoch clock (performance.timeOrigin +
// performance.now()); `DataChange.ts` is the daemon's Date.now() on the same machine, so
// detection (append -> daemon signal) and delivery (signal -> clients) can be told apart.
import * as http from "node:http";
import { Appender } from "./append.js";
import { childInput, reply } from "./child-reply.js";
import type { AfterChange, FanoutInput, FanoutRep, FanoutResult } from "./graphql-protocol.js";

const SUBSCRIPTION = "subscription { dataChanged { source ts } }";

const epochNow = (): number => performance.timeOrigin + performance.now();
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

interface Signal {
  client: number;
  source: string;
  ts: number;
  receivedAt: number;
}

/** One `distinct connections` GraphQL-over-SSE subscription on its own socket. */
class Subscription {
  private readonly req: http.ClientRequest;
  private buffer = "";
  ended = false;
  closing = false;
  readonly streaming: Promise<void>;

  constructor(
    readonly id: number,
    input: FanoutInput,
    onSignal: (s: Signal) => void,
    onEnd: (id: number, why: string) => void,
  ) {
    const body = JSON.stringify({ query: SUBSCRIPTION });
    this.req = http.request(`${input.url}/graphql`, {
      method: "POST",
      agent: false,
      headers: {
        Authorization: `Bearer ${input.token}`,
        "Content-Type": "application/json",
        "Content-Length": Buffer.byteLength(body),
        Accept: "text/event-stream",
      },
    });
    this.streaming = new Promise((resolve, reject) => {
      this.req.on("error", (err) => {
        this.ended = true;
        if (!this.closing) onEnd(id, err.message);
        reject(err);
      });
      this.req.on("response", (res) => {
        if (res.statusCode !== 200 || !String(res.headers["content-type"]).includes("text/event-stream")) {
          reject(new Error(`subscription ${id}: HTTP ${res.statusCode} ${String(res.headers["content-type"])}`));
          res.resume();
          return;
        }
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          const receivedAt = epochNow();
          this.buffer += chunk;
          for (let i = this.buffer.indexOf("\n\n"); i >= 0; i = this.buffer.indexOf("\n\n")) {
            const message = this.buffer.slice(0, i);
            this.buffer = this.buffer.slice(i + 2);
            const event = /^event: ?(.*)$/m.exec(message)?.[1];
            const data = /^data: ?(.*)$/m.exec(message)?.[1];
            if (event !== "next" || !data) continue;
            const change = (JSON.parse(data) as { data?: { dataChanged?: { source: string; ts: number } } }).data?.dataChanged;
            if (change) onSignal({ client: id, source: change.source, ts: change.ts, receivedAt });
          }
        });
        res.on("end", () => {
          this.ended = true;
          if (!this.closing) onEnd(id, "the stream ended");
        });
        resolve();
      });
    });
    this.req.end(body);
  }

  close(): void {
    this.closing = true;
    this.req.destroy();
  }
}

/** POSTs the load's query; the round trip and the target session's totalTokens (null when it is not listed). */
async function query(input: FanoutInput): Promise<{ ms: number; tokens: number | null }> {
  const t0 = epochNow();
  const res = await fetch(`${input.url}/graphql`, {
    method: "POST",
    headers: { Authorization: `Bearer ${input.token}`, "Content-Type": "application/json" },
    body: input.query.body,
  });
  const body = (await res.json()) as { data?: { source?: { sessions?: Array<{ key: string; totalTokens: number }> } }; errors?: unknown[] };
  const ms = epochNow() - t0;
  if (res.status !== 200 || body.errors) throw new Error(`the query after a change failed: HTTP ${res.status} ${JSON.stringify(body.errors ?? "")}`);
  return { ms, tokens: body.data?.source?.sessions?.find((s) => s.key === input.query.sessionKey)?.totalTokens ?? null };
}

async function fanout(input: FanoutInput): Promise<FanoutResult> {
  // Signals of the target source land here while a measurement waits for them.
  let current: { after: number; byClient: Map<number, Signal> } | null = null;
  const otherSignals: Record<string, number> = {};
  let dropped = 0;
  const onSignal = (s: Signal): void => {
    if (s.source === input.source && current && s.receivedAt >= current.after) {
      if (!current.byClient.has(s.client)) current.byClient.set(s.client, s);
      return;
    }
    const key = s.source === input.source ? `${s.source} (between measurements)` : s.source;
    otherSignals[key] = (otherSignals[key] ?? 0) + 1;
  };
  const onEnd = (): void => void dropped++;

  const connectStart = epochNow();
  const subs: Subscription[] = [];
  for (let i = 0; i < input.clients; i++) subs.push(new Subscription(i, input, onSignal, onEnd));
  const appender = new Appender(input.stateDir, input.target, { now: () => Date.now() });
  try {
    await Promise.all(subs.map((s) => s.streaming));
    const connectMs = epochNow() - connectStart;

    const measure = async (i: number): Promise<FanoutRep> => {
      const before = (await query(input)).tokens;
      const output = 1000 + i;
      const byClient = new Map<number, Signal>();
      current = { after: epochNow(), byClient };
      appender.append(output);
      const appendedAt = epochNow();
      const deadline = appendedAt + input.timeoutMs;
      while (byClient.size < input.clients) {
        if (epochNow() > deadline) throw new Error(`append ${i}: only ${byClient.size} of ${input.clients} subscriptions got dataChanged(${input.source}) within ${input.timeoutMs} ms (${dropped} dropped)`);
        await sleep(5);
      }
      current = null;
      // A client that saw the signal asks at once: the answer must hold the appended tokens (the
      // reply adds 10 input + `output` output tokens).
      const first = await query(input);
      const repeat = await query(input);
      const afterChange: AfterChange = { firstMs: first.ms, repeatMs: repeat.ms, fresh: before !== null && first.tokens === before + 10 + output };
      const got = [...byClient.values()].sort((a, b) => a.client - b.client);
      const received = got.map((s) => s.receivedAt);
      const firstReceipt = Math.min(...received);
      const signalTs = Math.min(...got.map((s) => s.ts));
      return {
        appendedAt,
        detectionMs: signalTs - appendedAt,
        latencyMs: received.map((r) => r - appendedAt),
        firstAfterSignalMs: firstReceipt - signalTs,
        spreadMs: Math.max(...received) - firstReceipt,
        afterChange,
      };
    };

    // One uncounted append: every subscription must be registered in the daemon, not only connected.
    await measure(-1);
    const reps: FanoutRep[] = [];
    for (let i = 0; i < input.reps; i++) {
      // Appends land at spread-out points of the poll cycle (golden-ratio steps), so the
      // detection figures cover the whole interval rather than one phase of it.
      await sleep(400 + ((i * 0.6180339887) % 1) * input.pollMs);
      reps.push(await measure(i));
    }
    return { clients: input.clients, connectMs, reps, otherSignals, dropped };
  } finally {
    for (const s of subs) s.close();
    appender.close();
  }
}

reply(() => fanout(childInput<FanoutInput>()));
