// Memory figures of the current process, and a sampler for the peaks between two points. RSS
// peaks come from the kernel (getrusage maxrss), the JS-side split (heap vs buffers) from sampling.
import * as fs from "node:fs";

export interface MemorySnapshot {
  rssMb: number;
  /** Linux only (null elsewhere): RSS split into anonymous memory (heap, malloc) and mapped files. */
  rssAnonMb: number | null;
  rssFileMb: number | null;
  heapUsedMb: number;
  /** The V8 heap as reserved from the OS (heapUsed plus free space V8 keeps). */
  heapTotalMb: number;
  /** Memory outside the V8 heap owned by JS objects (Buffers, native addons that report it). */
  externalMb: number;
  /** Peak RSS of the process's whole life so far. */
  maxRssMb: number;
}

const mb = (bytes: number): number => Math.round((bytes / 1e6) * 10) / 10;

/** RssAnon / RssFile from /proc/self/status, in MB; null where there is no procfs. */
function rssSplit(): { anon: number | null; file: number | null } {
  try {
    const status = fs.readFileSync("/proc/self/status", "utf8");
    const kb = (key: string): number | null => {
      const m = new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(status);
      return m ? mb(Number(m[1]) * 1024) : null;
    };
    return { anon: kb("RssAnon"), file: kb("RssFile") };
  } catch {
    return { anon: null, file: null };
  }
}

export function memorySnapshot(): MemorySnapshot {
  const m = process.memoryUsage();
  const split = rssSplit();
  return {
    rssMb: mb(m.rss),
    rssAnonMb: split.anon,
    rssFileMb: split.file,
    heapUsedMb: mb(m.heapUsed),
    heapTotalMb: mb(m.heapTotal),
    externalMb: mb(m.external),
    // ru_maxrss is in kilobytes on Linux.
    maxRssMb: mb(process.resourceUsage().maxRSS * 1024),
  };
}

export interface MemoryPeaks {
  rssMb: number;
  heapUsedMb: number;
  heapTotalMb: number;
  externalMb: number;
  samples: number;
}

/** Samples memoryUsage every `intervalMs` while running; timers fire whenever the scan yields. */
export class MemorySampler {
  private readonly peaks: MemoryPeaks = { rssMb: 0, heapUsedMb: 0, heapTotalMb: 0, externalMb: 0, samples: 0 };
  private readonly timer: NodeJS.Timeout;

  constructor(intervalMs = 20) {
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
    this.timer.unref();
  }

  private sample(): void {
    const m = process.memoryUsage();
    const p = this.peaks;
    p.rssMb = Math.max(p.rssMb, mb(m.rss));
    p.heapUsedMb = Math.max(p.heapUsedMb, mb(m.heapUsed));
    p.heapTotalMb = Math.max(p.heapTotalMb, mb(m.heapTotal));
    p.externalMb = Math.max(p.externalMb, mb(m.external));
    p.samples++;
  }

  stop(): MemoryPeaks {
    clearInterval(this.timer);
    this.sample();
    return { ...this.peaks };
  }
}
