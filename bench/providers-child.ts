// Child process of the providers suite, on plain node (see bench/child.ts):
//   bare:  every .jsonl file under a dir read in 1 MB chunks, split into lines, each line
//          JSON.parse'd (or only the lines holding a marker): the floor of any JS reader; or,
//          with how "bytes", the marker searched in the raw bytes and only its lines decoded;
//   check: the independent totals checker of a provider (bench/synthetic/expected-*.ts).
import * as fs from "node:fs";
import { childInput, reply } from "./child-reply.js";
import { memorySnapshot, MemorySampler } from "./memory.js";
import type { BareInput, BareResult, CheckInput, CheckResult } from "./providers-protocol.js";
import { since } from "./stats.js";
import { checkClaudeCode } from "./synthetic/expected-claude-code.js";
import { checkCodex } from "./synthetic/expected-codex.js";
import { checkGeminiCli } from "./synthetic/expected-gemini-cli.js";
import { jsonlFiles } from "./synthetic/jsonl.js";

/** Lines holding `marker`, found in the raw bytes: only they are decoded and parsed. */
async function byteScan(file: string, marker: Buffer): Promise<number> {
  let parsed = 0;
  let carry: Buffer | null = null;
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    const data: Buffer = carry ? Buffer.concat([carry, chunk]) : chunk;
    const end = data.lastIndexOf(10);
    for (let pos = 0, i = data.indexOf(marker, pos); i >= 0 && i < end; i = data.indexOf(marker, pos)) {
      const from = data.lastIndexOf(10, i) + 1;
      const to = data.indexOf(10, i);
      JSON.parse(data.toString("utf8", from, to));
      parsed++;
      pos = to + 1;
    }
    carry = Buffer.from(data.subarray(end + 1));
  }
  if (carry && carry.length && carry.includes(marker)) {
    JSON.parse(carry.toString("utf8"));
    parsed++;
  }
  return parsed;
}

async function bare(input: BareInput): Promise<BareResult> {
  const baseline = memorySnapshot();
  const sampler = new MemorySampler();
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  const cpuMs = (): number => {
    const d = process.cpuUsage(cpu0);
    return (d.user + d.system) / 1000;
  };
  const files = jsonlFiles(input.dir);
  let bytes = 0;
  let lines = 0;
  let parsed = 0;
  const filter = input.filter;
  if (input.how === "bytes") {
    if (filter === null) throw new Error("a byte scan needs a marker");
    const marker = Buffer.from(filter);
    for (const file of files) {
      bytes += fs.statSync(file).size;
      parsed += await byteScan(file, marker);
    }
    const ms = since(start);
    return { ms, cpuMs: cpuMs(), bytes, files: files.length, lines: Number.NaN, parsed, baseline, memory: memorySnapshot(), peaks: sampler.stop() };
  }
  for (const file of files) {
    bytes += fs.statSync(file).size;
    // Streamed: a file never sits in memory whole; a line split by a chunk boundary is carried over.
    const stream = fs.createReadStream(file, { highWaterMark: 1 << 20, encoding: "utf8" });
    let rest = "";
    for await (const chunk of stream as AsyncIterable<string>) {
      const text = rest.length ? rest + chunk : chunk;
      let at = 0;
      for (let nl = text.indexOf("\n"); nl >= 0; nl = text.indexOf("\n", at)) {
        if (nl > at) {
          const line = text.slice(at, nl);
          lines++;
          if (filter === null || line.includes(filter)) {
            JSON.parse(line);
            parsed++;
          }
        }
        at = nl + 1;
      }
      rest = text.slice(at);
    }
    if (rest.length) {
      lines++;
      if (filter === null || rest.includes(filter)) {
        JSON.parse(rest);
        parsed++;
      }
    }
  }
  const ms = since(start);
  return { ms, cpuMs: cpuMs(), bytes, files: files.length, lines, parsed, baseline, memory: memorySnapshot(), peaks: sampler.stop() };
}

async function check(input: CheckInput): Promise<CheckResult> {
  const start = performance.now();
  if (input.kind === "claude-code") {
    const c = await checkClaudeCode(input.root);
    return { kind: "claude-code", check: c, ms: since(start) };
  }
  if (input.kind === "gemini-cli") {
    const c = await checkGeminiCli(input.root);
    return { kind: "gemini-cli", check: c, ms: since(start) };
  }
  const c = await checkCodex(input.root);
  return { kind: "codex", check: c, ms: since(start) };
}

const input = childInput<BareInput | CheckInput>();
reply<BareResult | CheckResult>(() => (input.mode === "bare" ? bare(input) : check(input)));
