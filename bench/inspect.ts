// CPU profiles of a running process from the outside (the daemon, a render worker), through its
// inspector: SIGUSR1 opens it (the daemon is started with --inspect-port=0, so on a free port) and
// the process prints the WebSocket address on stderr; Profiler.start/stop around the work.
import * as fs from "node:fs";
import WebSocket from "ws";

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

const opened = new Map<number, string>();

/** Opens the inspector of `pid` and returns its WebSocket URL, read from the process's console file. */
async function openInspector(pid: number, consoleFile: string): Promise<string> {
  const known = opened.get(pid);
  if (known) return known;
  const before = fs.existsSync(consoleFile) ? fs.statSync(consoleFile).size : 0;
  process.kill(pid, "SIGUSR1");
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const text = fs.readFileSync(consoleFile, "utf8").slice(before);
    const m = /Debugger listening on (ws:\/\/\S+)/.exec(text);
    if (m?.[1]) {
      opened.set(pid, m[1]);
      return m[1];
    }
    await sleep(50);
  }
  throw new Error(`pid ${pid} did not open its inspector (no "Debugger listening" in ${consoleFile})`);
}

class Inspector {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  private constructor(private readonly ws: WebSocket) {
    ws.on("message", (raw: WebSocket.RawData) => {
      const msg = JSON.parse(raw.toString()) as { id?: number; result?: unknown; error?: { message: string } };
      const p = msg.id === undefined ? undefined : this.pending.get(msg.id);
      if (!p || msg.id === undefined) return;
      this.pending.delete(msg.id);
      if (msg.error) p.reject(new Error(msg.error.message));
      else p.resolve(msg.result);
    });
  }

  static connect(url: string): Promise<Inspector> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      ws.once("open", () => resolve(new Inspector(ws)));
      ws.once("error", reject);
    });
  }

  post(method: string, params: object = {}): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.ws.send(JSON.stringify({ id, method, params }));
    });
  }

  close(): void {
    this.ws.close();
  }
}

/**
 * Runs `work` while `pid` is CPU-profiled and writes the .cpuprofile to `file`. The process's
 * stderr must go to `consoleFile` and it must have been started with --inspect-port=0.
 */
export async function profileProcess<T>(pid: number, consoleFile: string, file: string, work: () => Promise<T>, intervalUs = 500): Promise<T> {
  const inspector = await Inspector.connect(await openInspector(pid, consoleFile));
  try {
    await inspector.post("Profiler.enable");
    await inspector.post("Profiler.setSamplingInterval", { interval: intervalUs });
    await inspector.post("Profiler.start");
    const value = await work();
    const { profile } = (await inspector.post("Profiler.stop")) as { profile: unknown };
    fs.writeFileSync(file, JSON.stringify(profile));
    await inspector.post("Profiler.disable");
    return value;
  } finally {
    inspector.close();
  }
}
