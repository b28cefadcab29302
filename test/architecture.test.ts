// The import rules that keep the tree the architecture (issue 21 item 5, docs/providers.md): the
// layers above the providers (ingest, queries, alerts, snapshot, statusline, daemon, CLI) import only the providers'
// contract and registry (shared/providers/*.ts), never a provider's folder (OpenClaw's gateway side is its own);
// the store imports only the base of utilities (shared/base); providers never import the demo engine; the
// CLI reaches the daemon only through the control socket and the foreground start. Read from the
// imports themselves; the exceptions are listed and can only shrink.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { PROVIDER_NAMES } from "../shared/providers/registry.js";
import { relativeImports, sourceFiles } from "./helpers/source-files.js";

/** `from -> to` for every relative import of the files under `dirs`. */
const edges = (dirs: readonly string[]): string[] => dirs.flatMap(sourceFiles).flatMap((f) => relativeImports(f).map((to) => `${f} -> ${to}`));
const target = (edge: string): string => edge.slice(edge.indexOf(" -> ") + 4);

/** A provider's folder (OpenClaw's gateway side included: the layers above get it through the contract's gateway capability). */
const PROVIDER_INSIDE = new RegExp(`^shared/providers/(${PROVIDER_NAMES.join("|")})/`);

/** Nothing test-only is shipped: the card's examples live in test/helpers/example-inputs.ts. */
const TEST_ONLY_EXCEPTIONS: readonly string[] = [];
/** The CLI's imports of the daemon beyond the foreground start: none (what `insightsctl alerts` shows is typed in shared/alerts/views.ts). */
const CLI_EXCEPTIONS: readonly string[] = [];

/** What breaks a rule, and which of the listed exceptions no longer exist (their lines go). */
function check(actual: readonly string[], exceptions: readonly string[]): { broken: string[]; stale: string[] } {
  return { broken: actual.filter((e) => !exceptions.includes(e)), stale: exceptions.filter((e) => !actual.includes(e)) };
}

test("ingest, queries, alerts, snapshot, statusline, daemon and CLI import only the providers' contract and registry", () => {
  const all = edges(["shared/ingest", "shared/queries", "shared/alerts", "shared/snapshot", "shared/statusline", "daemon", "cli"]);
  assert.ok(all.length > 300, `${all.length} imports read`);
  const inside = all.filter((e) => PROVIDER_INSIDE.test(target(e)));
  assert.equal(check(inside, TEST_ONLY_EXCEPTIONS), { broken: [], stale: [] }, "ask the registry or the contract (shared/providers/*.ts) instead");
});

test("registering a provider is its one line in the registry: the contract's files import no provider's folder but the registry its identities", () => {
  const contract = sourceFiles("shared/providers").filter((f) => !f.slice("shared/providers/".length).includes("/"));
  assert.ok(contract.includes("shared/providers/registry.ts") && contract.includes("shared/providers/modules.ts"));
  const inside = contract.flatMap((f) => relativeImports(f).map((to) => `${f} -> ${to}`)).filter((e) => PROVIDER_INSIDE.test(target(e)));
  const identities = PROVIDER_NAMES.map((n) => `shared/providers/registry.ts -> shared/providers/${n}/identity.ts`);
  assert.equal(check(inside, identities), { broken: [], stale: [] }, "a provider's node side is its folder's module.ts, which shared/providers/modules.ts loads by the registry's names");
});

test("providers never import the demo engine", () => {
  const dirs = PROVIDER_NAMES.map((n) => `shared/providers/${n}`);
  assert.equal(edges(dirs).filter((e) => target(e).startsWith("shared/demo-replay/")), []);
});

test("the demo engine imports no provider's folder: each provider's demo comes from its module (shared/providers/modules.ts)", () => {
  const all = edges(["shared/demo-replay"]);
  assert.ok(all.length > 10, `${all.length} imports read`);
  assert.equal(all.filter((e) => PROVIDER_INSIDE.test(target(e))), [], "declare it in the provider's module.ts as its `demo` instead");
  // Nor the providers' kits (shared/providers/demo-kit/, jsonl/): only the contract's own files (demo-contract.ts, modules.ts, registry.ts).
  const intoProviders = all.filter((e) => target(e).startsWith("shared/providers/"));
  assert.ok(intoProviders.some((e) => target(e) === "shared/providers/modules.ts"), "the demos come from the registered modules");
  assert.equal(intoProviders.filter((e) => target(e).slice("shared/providers/".length).includes("/")), []);
});

test("the store imports only the base of utilities", () => {
  const all = edges(["shared/store"]);
  assert.ok(all.length > 0);
  assert.equal(all.filter((e) => !/^shared\/(store|base)\//.test(target(e))), []);
});

test("the CLI reaches the daemon only through the control socket and the foreground start", () => {
  const intoDaemon = edges(["cli"]).filter((e) => target(e).startsWith("daemon/") && target(e) !== "daemon/run.ts");
  assert.equal(check(intoDaemon, CLI_EXCEPTIONS), { broken: [], stale: [] });
});

test.run();
