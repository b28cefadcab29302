// Preloaded with `node --import` into a CLI process under test (test/cli-fast-paths.test.ts), for
// the commands that run as ES modules: load-recorder.cjs's record (CommonJS modules and built-ins
// required, Intl formatters built), plus one "load <url>" line per module Node's ESM loader loads,
// from its hooks (load-recorder-hooks.mjs). Plain JS: the child runs the built bin on plain node.
import { register } from "node:module";
import "./load-recorder.cjs";

register(new URL("./load-recorder-hooks.mjs", import.meta.url), { data: { file: process.env.LOAD_RECORD } });
