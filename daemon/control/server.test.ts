import { mkdtempSync, statSync, writeFileSync, existsSync } from "node:fs";
import { createConnection, createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ControlClient } from "../../cli/control-client.js";
import { pollUntil } from "../../shared/base/clock.js";
import { InsightsError } from "../../shared/base/errors.js";
import { LogHub } from "../../shared/base/log/logger.js";
import { ControlServer } from "./server.js";

const logger = new LogHub({ console: "off" }).logger;
const socketPath = (): string => join(mkdtempSync(join(tmpdir(), "gi-ctl-")), "control.sock");

function server(path: string): ControlServer {
  return new ControlServer({
    socketPath: path,
    logger,
    calls: {
      echo: (p) => ({ echoed: p.value }),
      slow: async () => new Promise((r) => setTimeout(() => r("late"), 20)),
      broken: () => {
        throw new InsightsError("NOT_RUNNING", "nope");
      },
    },
    streams: {
      count: (p, emit, end) => {
        const n = Number(p.n);
        for (let i = 0; i < n; i++) emit(i);
        end();
        return () => undefined;
      },
    },
  });
}

test("request/response by id over newline-delimited JSON, socket mode 0600", async () => {
  const path = socketPath();
  const srv = server(path);
  await srv.listen();
  assert.is(statSync(path).mode & 0o777, 0o600);
  const client = await ControlClient.connect(path);
  const [a, b] = await Promise.all([client.call("slow"), client.call("echo", { value: 42 })]);
  assert.is(a, "late");
  assert.equal(b, { echoed: 42 });
  try {
    await client.call("broken");
    assert.unreachable();
  } catch (err) {
    assert.is((err as InsightsError).code, "NOT_RUNNING");
  }
  try {
    await client.call("nope");
    assert.unreachable();
  } catch (err) {
    assert.is((err as InsightsError).code, "UNKNOWN_METHOD");
  }
  const got: unknown[] = [];
  await client.stream("count", { n: 3 }, (v) => got.push(v));
  assert.equal(got, [0, 1, 2]);
  client.close();
  await srv.close();
  assert.not.ok(existsSync(path), "socket removed on close");
});

test("a malformed line gets a protocol error, and the connection keeps working", async () => {
  const path = socketPath();
  const srv = server(path);
  await srv.listen();
  const { createConnection } = await import("node:net");
  const sock = createConnection(path);
  const lines: string[] = [];
  sock.on("data", (d) => lines.push(...d.toString().trim().split("\n")));
  sock.write("not json\n");
  sock.write(JSON.stringify({ id: 5, method: "echo", params: { value: "x" } }) + "\n");
  const { pollUntil } = await import("../../shared/base/clock.js");
  await pollUntil(() => lines.length >= 2, { what: "two answers" });
  assert.equal(JSON.parse(lines[0] as string).error.code, "CONTROL_PROTOCOL");
  assert.equal(JSON.parse(lines[1] as string), { id: 5, ok: true, result: { echoed: "x" } });
  sock.destroy();
  await srv.close();
});

test("a stale socket file is replaced; a live one refuses a second server", async () => {
  const path = socketPath();
  writeFileSync(path, "");
  const first = server(path);
  await first.listen();
  assert.is(first.replacedStaleSocket, true);
  const second = server(path);
  try {
    await second.listen();
    assert.unreachable();
  } catch (err) {
    assert.is((err as InsightsError).code, "ALREADY_RUNNING");
  }
  await first.close();
});

test("a socket someone else listens on is not stolen", async () => {
  const path = socketPath();
  const other = createServer();
  await new Promise<void>((r) => other.listen(path, () => r()));
  try {
    await server(path).listen();
    assert.unreachable();
  } catch (err) {
    assert.is((err as InsightsError).code, "ALREADY_RUNNING");
  }
  other.close();
});

/** A bare connection that records every answer line, for requests the official client cannot send. */
async function raw(path: string): Promise<{ sock: Socket; answers: Array<Record<string, unknown>>; send(line: string): void }> {
  const sock = createConnection(path);
  await new Promise<void>((resolve, reject) => {
    sock.once("connect", () => resolve());
    sock.once("error", reject);
  });
  const answers: Array<Record<string, unknown>> = [];
  let buf = "";
  sock.on("data", (d) => {
    buf += d.toString();
    const lines = buf.split("\n");
    buf = lines.pop() ?? "";
    for (const l of lines) if (l.trim()) answers.push(JSON.parse(l) as Record<string, unknown>);
  });
  sock.on("error", () => undefined);
  return { sock, answers, send: (line) => sock.write(line + "\n") };
}

const errorCode = (a: Record<string, unknown> | undefined): unknown => (a?.error as { code?: unknown } | undefined)?.code;

test("Object.prototype names are unknown methods, not handlers; the daemon keeps serving", async () => {
  const path = socketPath();
  const srv = server(path);
  await srv.listen();
  const c = await raw(path);
  const names = ["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf", "__defineGetter__", "isPrototypeOf"];
  names.forEach((method, i) => c.send(JSON.stringify({ id: i + 1, method })));
  await pollUntil(() => c.answers.length >= names.length, { what: "an answer to every prototype name" });
  for (let i = 0; i < names.length; i++) {
    const a = c.answers.find((x) => x.id === i + 1);
    assert.is(a?.ok, false, names[i]);
    assert.is(errorCode(a), "UNKNOWN_METHOD", names[i]);
  }
  // Closing the connection runs no "cleanup" a prototype method returned (that threw and killed the daemon).
  c.sock.destroy();
  const client = await ControlClient.connect(path);
  assert.equal(await client.call("echo", { value: 1 }), { echoed: 1 });
  client.close();
  await srv.close();
});

test("ids must be non-negative safe integers, params a JSON object, a request an object", async () => {
  const path = socketPath();
  const srv = server(path);
  await srv.listen();
  const c = await raw(path);
  const bad = [
    '{"id":1e400,"method":"echo"}',
    '{"id":"7","method":"echo"}',
    '{"id":-3,"method":"echo"}',
    '{"id":1.5,"method":"echo"}',
    '{"id":8,"method":"echo","params":[1,2]}',
    '{"id":9,"method":"echo","params":"value"}',
    '{"id":10,"method":"echo","params":5}',
    "[1,2,3]",
    "null",
    '{"id":11,"method":42}',
  ];
  for (const line of bad) c.send(line);
  c.send('{"id":12,"method":"echo","params":{"value":"fine"}}');
  await pollUntil(() => c.answers.length >= bad.length + 1, { what: "an answer per line" });
  const errors = c.answers.filter((a) => a.ok === false);
  assert.is(errors.length, bad.length, JSON.stringify(c.answers));
  for (const e of errors) assert.is(errorCode(e), "CONTROL_PROTOCOL", JSON.stringify(e));
  // An error about params can still be matched by its (valid) id.
  assert.ok(errors.some((e) => e.id === 8));
  for (const e of errors) assert.ok(Number.isSafeInteger(e.id), `answer id ${String(e.id)}`);
  assert.equal(c.answers.at(-1), { id: 12, ok: true, result: { echoed: "fine" } });
  c.sock.destroy();
  await srv.close();
});

test("a handler that throws, or returns no cleanup, answers an error and crashes nothing", async () => {
  const path = socketPath();
  let cleanups = 0;
  const srv = new ControlServer({
    socketPath: path,
    logger,
    calls: { ok: () => "ok" },
    streams: {
      throws: () => {
        throw new InsightsError("INVALID_PARAM", "bad stream params");
      },
      // A handler whose cleanup throws: logged, never thrown into the socket's close handler.
      fragile: () => () => {
        cleanups++;
        throw new Error("cleanup failed");
      },
      unserializable: (_p, emit) => {
        emit({ big: 1n });
        return () => undefined;
      },
    },
  });
  await srv.listen();
  const c = await raw(path);
  c.send('{"id":1,"method":"throws"}');
  c.send('{"id":2,"method":"fragile"}');
  c.send('{"id":3,"method":"unserializable"}');
  c.send('{"id":4,"method":"ok"}');
  await pollUntil(() => c.answers.some((a) => a.id === 4) && c.answers.some((a) => a.id === 1) && c.answers.some((a) => a.id === 3), { what: "answers" });
  assert.is(errorCode(c.answers.find((a) => a.id === 1)), "INVALID_PARAM");
  assert.is(errorCode(c.answers.find((a) => a.id === 3)), "INTERNAL");
  c.sock.destroy();
  await pollUntil(() => cleanups === 1, { what: "the stream's cleanup" });
  const again = await ControlClient.connect(path);
  assert.is(await again.call("ok"), "ok");
  again.close();
  await srv.close();
  assert.is(cleanups, 1);
});

test("a stream's cleanup runs once, whether the client leaves or the server closes first", async () => {
  const path = socketPath();
  let cleanups = 0;
  const srv = new ControlServer({
    socketPath: path,
    logger,
    calls: {},
    streams: { follow: () => () => cleanups++ },
  });
  await srv.listen();
  const c = await raw(path);
  c.send('{"id":1,"method":"follow"}');
  await pollUntil(() => srv.openStreams === 1, { what: "the stream to open" });
  await srv.close();
  await pollUntil(() => c.sock.destroyed || c.answers.some((a) => a.end === true), { what: "the end of the stream" });
  c.sock.destroy();
  await pollUntil(() => srv.connections === 0, { what: "the connection to go" });
  assert.is(cleanups, 1);
});

test("a client that never reads is cut off once its unread answers pass the cap; others are served", async () => {
  const path = socketPath();
  let stopped = false;
  const srv = new ControlServer({
    socketPath: path,
    logger,
    limits: { maxUnreadBytes: 256 * 1024 },
    calls: { ping: () => "pong" },
    streams: {
      flood: (_p, emit) => {
        const chunk = "x".repeat(16 * 1024);
        const tick = (): void => {
          if (stopped) return;
          emit(chunk);
          setImmediate(tick);
        };
        tick();
        return () => (stopped = true);
      },
    },
  });
  await srv.listen();
  const c = await raw(path);
  c.sock.pause();
  c.send('{"id":1,"method":"flood"}');
  await pollUntil(() => stopped, { what: "the flood to be cut off", timeoutMs: 30_000 });
  const other = await ControlClient.connect(path);
  assert.is(await other.call("ping"), "pong");
  other.close();
  c.sock.destroy();
  await srv.close();
});

test("connections and streams per connection are capped; a refused connection is told why", async () => {
  const path = socketPath();
  const srv = new ControlServer({
    socketPath: path,
    logger,
    limits: { maxConnections: 3, maxStreamsPerConnection: 2 },
    calls: { ping: () => "pong" },
    streams: { follow: () => () => undefined },
  });
  await srv.listen();
  const held = await Promise.all([raw(path), raw(path), raw(path)]);
  await pollUntil(() => srv.connections === 3, { what: "three connections" });
  const extra = await raw(path);
  await pollUntil(() => extra.answers.length >= 1, { what: "the refusal" });
  assert.is(errorCode(extra.answers[0]), "CONTROL_UNAVAILABLE");
  await pollUntil(() => extra.sock.destroyed || extra.sock.readableEnded, { what: "the refused connection to close" });
  const first = held[0];
  for (let i = 1; i <= 3; i++) first.send(JSON.stringify({ id: i, method: "follow" }));
  await pollUntil(() => first.answers.length >= 1, { what: "the third stream's refusal" });
  assert.is(first.answers[0]?.id, 3);
  assert.is(errorCode(first.answers[0]), "CONTROL_PROTOCOL");
  for (const h of held) h.sock.destroy();
  await pollUntil(() => srv.connections === 0, { what: "connections to close" });
  const client = await ControlClient.connect(path);
  assert.is(await client.call("ping"), "pong");
  client.close();
  await srv.close();
});

test("many concurrent connections are all answered", async () => {
  const path = socketPath();
  const srv = server(path);
  await srv.listen();
  const clients = await Promise.all(Array.from({ length: 40 }, () => ControlClient.connect(path)));
  const answers = await Promise.all(clients.map((c, i) => c.call("echo", { value: i })));
  assert.equal(answers, clients.map((_, i) => ({ echoed: i })));
  for (const c of clients) c.close();
  await srv.close();
});

test.run();
