// What the figures were measured on. Load averages are printed too: on a shared machine they say
// how much else was running.
import * as os from "node:os";

export interface MachineInfo {
  date: string;
  cpus: number;
  cpuModel: string;
  memoryGb: number;
  node: string;
  platform: string;
  loadAverage: number[];
}

export function machineInfo(): MachineInfo {
  const cpus = os.cpus();
  return {
    date: new Date().toISOString(),
    cpus: cpus.length,
    cpuModel: cpus[0]?.model.trim() ?? "unknown",
    memoryGb: Math.round(os.totalmem() / 1e9),
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    loadAverage: os.loadavg().map((x) => Math.round(x * 100) / 100),
  };
}

export function describeMachine(m: MachineInfo): string {
  return `${m.cpus} x ${m.cpuModel}, ${m.memoryGb} GB RAM, Node ${m.node}, ${m.platform}; load average ${m.loadAverage.join(" / ")}`;
}
