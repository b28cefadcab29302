// Runs a bench script in a child process on plain `node`, against the built code in dist/.
//
// Why not `node --import tsx` like the runner: the tsx loader alone adds ~45 MB of RSS (its hooks
// run on a second V8 isolate), which would swamp a 150 MB memory aim, and production runs dist/.
// So bench/*.ts are transpiled (TypeScript's transpileModule, no type check: `npm run typecheck`
// does that) into .tmp/bench/js/bench/, next to a `shared` symlink to dist/shared: a script's
// `../shared/x.js` imports then load exactly what `npm run build` produced.
//
// Against another build (--baseline, bench/build.ts) the same scripts go to .tmp/bench/js-<label>/
// with `shared` linked to that checkout's dist/shared; an import of a module that has moved since
// that commit is pointed at where it was then (git's rename detection), so the script is ours and
// only the code it measures is the other build's.
import { fork } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { isOurs, movedSince, OUR_BUILD, type Build } from "./build.js";
import type { ChildMessage } from "./child-reply.js";
import { BENCH_TMP, REPO_ROOT } from "./paths.js";

const BENCH_DIR = path.join(REPO_ROOT, "bench");

function jsRoot(b: Build): string {
  return path.join(BENCH_TMP, isOurs(b) ? "js" : `js-${b.label}`);
}

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
/** Static and dynamic relative import specifiers, for rewriting: group 2 is the specifier. */
const SPECIFIER_RE = /(\bfrom\s*|\bimport\s*\(\s*)["'](\.{1,2}\/[^"']+)["']/g;

/**
 * `text` (the module at `file`, a path relative to the checkout root) with every relative import
 * of a module that `exists` does not know pointed at where `moved` (our path -> its path, as
 * sources: .ts) says it was. Imports of modules that are there, or that moved nowhere, are kept.
 */
export function rewriteMovedImports(text: string, file: string, exists: (rel: string) => boolean, moved: ReadonlyMap<string, string>): string {
  return text.replace(SPECIFIER_RE, (whole, lead: string, spec: string) => {
    const target = path.posix.join(path.posix.dirname(file), spec);
    if (exists(target)) return whole;
    const was = moved.get(target.replace(/\.js$/, ".ts"));
    if (was === undefined) return whole;
    let rel = path.posix.relative(path.posix.dirname(file), was.replace(/\.ts$/, ".js"));
    if (!rel.startsWith(".")) rel = `./${rel}`;
    return `${lead}"${rel}"`;
  });
}

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
export function checkDistFresh(entries: readonly string[], root = REPO_ROOT): void {
  const dist = path.join(root, "dist");
  const seen = new Set<string>();
  const stale: string[] = [];
  const queue = [...entries];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    const real = fs.existsSync(file) ? fs.realpathSync(file) : file;
    if (seen.has(real) || !real.endsWith(".js")) continue;
    seen.add(real);
    if (!fs.existsSync(real)) throw new Error(`${path.relative(REPO_ROOT, real)} is missing: run \`npm run build\` first (\`npm run bench\` does)`);
    if (real.startsWith(dist + path.sep)) {
      const src = path.join(root, path.relative(dist, real)).replace(/\.js$/, ".ts");
      if (fs.existsSync(src) && fs.statSync(src).mtimeMs > fs.statSync(real).mtimeMs) stale.push(path.relative(root, src));
    }
    queue.push(...importsOf(real));
  }
  if (stale.length) throw new Error(`${root === REPO_ROOT ? "" : `${root}/`}dist/ is older than ${stale.slice(0, 3).join(", ")}${stale.length > 3 ? ", ..." : ""}: run \`npm run build\` first (\`npm run bench\` does)`);
}

const prepared = new Set<string>();

/** Transpiles bench/**.ts once per runner process and build. */
function prepare(b: Build): string {
  const root = jsRoot(b);
  if (prepared.has(root)) return root;
  fs.mkdirSync(root, { recursive: true });
  const link = path.join(root, "shared");
  fs.rmSync(link, { recursive: true, force: true });
  fs.symlinkSync(path.join(b.root, "dist", "shared"), link, "dir");
  const moved = isOurs(b) ? null : movedSince(b, "shared");
  const exists = (rel: string): boolean => fs.existsSync(path.join(b.root, "dist", rel));
  for (const src of walk(BENCH_DIR)) {
    const out = path.join(root, "bench", path.relative(BENCH_DIR, src)).replace(/\.ts$/, ".js");
    const { outputText } = ts.transpileModule(fs.readFileSync(src, "utf8"), {
      fileName: src,
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
    });
    const text = moved ? rewriteMovedImports(outputText, path.relative(REPO_ROOT, src).split(path.sep).join("/"), exists, moved) : outputText;
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, text);
  }
  prepared.add(root);
  return root;
}

export interface ChildOptions {
  /** Extra node flags (e.g. --expose-gc). */
  nodeArgs?: string[];
  /** Whose shared modules the script loads (default this checkout's dist/). */
  build?: Build;
}

/**
 * Runs `bench/<script>` (a .ts path relative to bench/) with `input` as JSON in argv[2] and resolves
 * with the result it sends over IPC. Rejects when it fails or exits without a result.
 */
export function runChild<T>(script: string, input: unknown, options: ChildOptions = {}): Promise<T> {
  const build = options.build ?? OUR_BUILD;
  const file = path.join(prepare(build), "bench", script.replace(/\.ts$/, ".js"));
  checkDistFresh([file], build.root);
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
