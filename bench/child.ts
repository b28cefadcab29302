// Runs a bench script in a child process on plain `node`, against the built code in dist/.
//
// Why not `node --import tsx` like the runner: the tsx loader alone adds ~45 MB of RSS (its hooks
// run on a second V8 isolate), which would swamp a 150 MB memory aim, and production runs dist/.
// So bench/*.ts are transpiled (TypeScript's transpileModule, no type check: `npm run typecheck`
// does that) into .tmp/bench/js/bench/, next to a `shared` symlink to dist/shared: a script's
// `../shared/x.js` imports then load exactly what `npm run build` produced.
import { fork } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import type { ChildMessage } from "./child-reply.js";
import { BENCH_TMP, REPO_ROOT } from "./paths.js";

const JS_ROOT = path.join(BENCH_TMP, "js");
const BENCH_DIR = path.join(REPO_ROOT, "bench");

function walk(dir: string, out: string[] = []): string[] {
  for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) walk(p, out);
    // Declaration files (bench/autocannon.d.ts) have no JavaScript to emit.
    else if (d.name.endsWith(".ts") && !d.name.endsWith(".d.ts")) out.push(p);
  }
  return out;
}

const IMPORT_RE = /(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s*["'](\.{1,2}\/[^"']+)["']/g;

/** Relative imports of a JS module, as absolute paths. */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, "utf8");
  return [...text.matchAll(IMPORT_RE)].map((m) => path.resolve(path.dirname(file), m[1] as string));
}

/**
 * Fails when a dist/ module a child will load is older than its source: the child would measure
 * old code. Follows the imports from the transpiled bench scripts into dist/, so edits elsewhere
 * in the checkout do not get in the way.
 */
export function checkDistFresh(entries: readonly string[]): void {
  const dist = path.join(REPO_ROOT, "dist");
  const seen = new Set<string>();
  const stale: string[] = [];
  const queue = [...entries];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    const real = fs.existsSync(file) ? fs.realpathSync(file) : file;
    if (seen.has(real) || !real.endsWith(".js")) continue;
    seen.add(real);
    if (!fs.existsSync(real)) throw new Error(`${path.relative(REPO_ROOT, real)} is missing: run \`npm run build\` first (\`npm run bench\` does)`);
    if (real.startsWith(dist + path.sep)) {
      const src = path.join(REPO_ROOT, path.relative(dist, real)).replace(/\.js$/, ".ts");
      if (fs.existsSync(src) && fs.statSync(src).mtimeMs > fs.statSync(real).mtimeMs) stale.push(path.relative(REPO_ROOT, src));
    }
    queue.push(...importsOf(real));
  }
  if (stale.length) throw new Error(`dist/ is older than ${stale.slice(0, 3).join(", ")}${stale.length > 3 ? ", ..." : ""}: run \`npm run build\` first (\`npm run bench\` does)`);
}

let prepared = false;

/** Transpiles bench/**.ts once per runner process. */
function prepare(): void {
  if (prepared) return;
  fs.mkdirSync(JS_ROOT, { recursive: true });
  const link = path.join(JS_ROOT, "shared");
  fs.rmSync(link, { recursive: true, force: true });
  fs.symlinkSync(path.join(REPO_ROOT, "dist", "shared"), link, "dir");
  for (const src of walk(BENCH_DIR)) {
    const out = path.join(JS_ROOT, "bench", path.relative(BENCH_DIR, src)).replace(/\.ts$/, ".js");
    const { outputText } = ts.transpileModule(fs.readFileSync(src, "utf8"), {
      fileName: src,
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
    });
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, outputText);
  }
  prepared = true;
}

export interface ChildOptions {
  /** Extra node flags (e.g. --expose-gc). */
  nodeArgs?: string[];
}

/**
 * Runs `bench/<script>` (a .ts path relative to bench/) with `input` as JSON in argv[2] and resolves
 * with the result it sends over IPC. Rejects when it fails or exits without a result.
 */
export function runChild<T>(script: string, input: unknown, options: ChildOptions = {}): Promise<T> {
  prepare();
  const file = path.join(JS_ROOT, "bench", script.replace(/\.ts$/, ".js"));
  checkDistFresh([file]);
  return new Promise<T>((resolve, reject) => {
    const child = fork(file, [JSON.stringify(input)], {
      execPath: process.execPath,
      // Not the runner's own --import tsx: the child must be plain node.
      execArgv: options.nodeArgs ?? [],
      stdio: ["ignore", "inherit", "inherit", "ipc"],
      cwd: REPO_ROOT,
    });
    let message: ChildMessage<T> | null = null;
    child.on("message", (m) => {
      message = m as ChildMessage<T>;
    });
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      if (message?.ok) resolve(message.result);
      else if (message) reject(new Error(`${script}: ${message.error}`));
      else reject(new Error(`${script} exited (${signal ?? code}) without a result`));
    });
  });
}
