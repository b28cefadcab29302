// Runs a command once as a whole process and says what it cost: wall time from spawn to exit, CPU
// time (user + system) and peak RSS. GNU time (`/usr/bin/time`) reports the kernel's own figures
// for the finished process; without it, /proc is sampled every 10 ms (the peak of the last 10 ms
// before exit can be missed). ccusage and `insightsctl usage` are timed the same way.
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { procCpuMs, procMemory } from "./proc.js";

export interface TimedRun {
  code: number | null;
  ms: number;
  cpuMs: number;
  peakRssMb: number;
  /** How CPU and peak RSS were measured. */
  measuredBy: string;
  stdout: Buffer;
  stderr: string;
}

const GNU_TIME = "/usr/bin/time";

export async function runTimed(file: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<TimedRun> {
  const useTime = process.platform === "linux" && fs.existsSync(GNU_TIME);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "gi-bench-time-"));
  const timeFile = path.join(tmp, "time.txt");
  try {
    const [cmd, argv] = useTime ? [GNU_TIME, ["-f", "%M %U %S", "-o", timeFile, file, ...args]] : [file, [...args]];
    const start = performance.now();
    const child = spawn(cmd, argv, { env, stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (b: Buffer) => out.push(b));
    child.stderr.on("data", (b: Buffer) => err.push(b));
    let peak = 0;
    let cpu = 0;
    const sampler = useTime
      ? null
      : setInterval(() => {
          const m = child.pid ? procMemory(child.pid) : null;
          if (m) peak = Math.max(peak, m.hwmMb);
          const c = child.pid ? procCpuMs(child.pid) : Number.NaN;
          if (Number.isFinite(c)) cpu = c;
        }, 10);
    const code = await new Promise<number | null>((resolve, reject) => {
      child.on("error", reject);
      child.on("close", (c) => resolve(c));
    });
    const ms = performance.now() - start;
    if (sampler) clearInterval(sampler);
    let peakRssMb = peak;
    let cpuMs = cpu;
    if (useTime && code === 0) {
      const [kb, user, sys] = fs.readFileSync(timeFile, "utf8").trim().split(/\s+/).slice(-3).map(Number) as [number, number, number];
      peakRssMb = Math.round((kb * 1024) / 1e5) / 10;
      cpuMs = (user + sys) * 1000;
    }
    return { code, ms, cpuMs, peakRssMb, measuredBy: useTime ? "GNU time (kernel rusage)" : "/proc sampled every 10 ms", stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString("utf8") };
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
