// CPU profiles of one phase of a child, through the inspector of the process itself, so a profile
// covers exactly that phase (a whole-process --cpu-prof would mix the scan with setup and queries).
import * as fs from "node:fs";
import { Session } from "node:inspector";

// @types/node types `post` with one overload per protocol method; a plain signature keeps this short.
type Post = (method: string, params: object, callback: (err: Error | null, result: unknown) => void) => void;

export class CpuProfiler {
  private readonly session = new Session();

  private post(method: string, params: object = {}): Promise<unknown> {
    const post = this.session.post.bind(this.session) as unknown as Post;
    return new Promise((resolve, reject) => post(method, params, (err, result) => (err ? reject(err) : resolve(result))));
  }

  async start(intervalUs = 500): Promise<void> {
    this.session.connect();
    await this.post("Profiler.enable");
    await this.post("Profiler.setSamplingInterval", { interval: intervalUs });
    await this.post("Profiler.start");
  }

  /** Stops and writes the .cpuprofile (Chrome DevTools format) to `file`. */
  async stop(file: string): Promise<void> {
    const { profile } = (await this.post("Profiler.stop")) as { profile: unknown };
    fs.writeFileSync(file, JSON.stringify(profile));
    await this.post("Profiler.disable");
    this.session.disconnect();
  }
}
