// temporary profiling script (not committed)
import * as fs from "node:fs";
import { systemClock } from "../shared/clock.js";
import { AgentSource } from "../shared/ingest/agent-source.js";
import { LogHub } from "../shared/log/logger.js";
import { OpenClawProvider } from "../shared/sources/openclaw/provider.js";
import { Store } from "../shared/store/store.js";
import { Appender } from "./append.js";
const dir = ".tmp/prof/state";
const m = JSON.parse(fs.readFileSync(`${dir}/manifest.json`, "utf8"));
const store = Store.open(".tmp/prof/insights.db", { clock: systemClock });
const p = new OpenClawProvider({ stateDir: dir, env: {} });
const main = p.discover().installs.find((i) => i.localId === "main")!;
const src = new AgentSource(main, { provider: p, store, clock: systemClock, logger: new LogHub({ console: "off" }).logger });
let t = performance.now();
while (!src.snapshot().firstPassDone) await src.refresh();
console.log(`first pass ${(performance.now() - t).toFixed(0)} ms`);
const ap = new Appender(dir, { era: "sqlite", ...m.target }, { now: () => Date.now() });
const { Session } = await import("node:inspector/promises");
const session = new Session(); session.connect();
await session.post("Profiler.enable"); await session.post("Profiler.start");
for (let i = 0; i < 10; i++) {
  ap.append(1000 + i);
  t = performance.now();
  const changed = await src.refresh();
  console.log(`refresh after append: ${(performance.now() - t).toFixed(1)} ms changed=${changed}`);
}
const { profile } = await session.post("Profiler.stop");
fs.writeFileSync(".tmp/prof/refresh.cpuprofile", JSON.stringify(profile));
