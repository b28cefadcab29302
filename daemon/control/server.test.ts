import { mkdtempSync, statSync, writeFileSync, existsSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ControlClient } from "../../cli/control-client.js";
import { InsightsError } from "../../shared/errors.js";
import { LogHub } from "../../shared/log/logger.js";
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
  const { pollUntil } = await import("../../shared/clock.js");
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

test.run();
