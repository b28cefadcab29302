// Preloaded with `node --require` into a CLI process under test (test/cli-fast-paths.test.ts), so
// that the process runs as it would without it (`--import` would start Node's ESM loader for any
// main file). Appends to the file LOAD_RECORD names: one line per CommonJS module or built-in
// required or taken with process.getBuiltinModule ("load <path>" or "load node:<name>"), per Intl formatter built ("intl <what>"), and at
// exit "esm-loader started" when Node's ESM loader ran: `process.moduleLoadList` lists its
// resolver, which the first import() or ES module anywhere loads (its loader module alone is no
// sign: requiring node:module, as this file does, loads that). Lines are
// appended synchronously, so a process that ends with process.exit() leaves them all.
// load-recorder.mjs adds the ES modules' own list on top of this one.
"use strict";
const { appendFileSync } = require("node:fs");
const Module = require("node:module");

const file = process.env.LOAD_RECORD;
if (!file) throw new Error("load-recorder: LOAD_RECORD names no file");
const record = (line) => appendFileSync(file, `${line}\n`);

const realLoad = Module._load;
Module._load = function (request, parent, isMain) {
  let what = request;
  try {
    what = Module.isBuiltin(request) ? `node:${request.replace(/^node:/, "")}` : Module._resolveFilename(request, parent, isMain);
  } catch {
    // Unresolvable: the real load throws its own error; the request is recorded as written.
  }
  record(`load ${what}`);
  return realLoad.apply(this, arguments);
};

// Built-ins the bundles load lazily, without require (cli/statusline/io.ts, cli/control-client.ts).
const realBuiltin = process.getBuiltinModule;
process.getBuiltinModule = function (id) {
  record(`load node:${String(id).replace(/^node:/, "")}`);
  return realBuiltin.apply(this, arguments);
};

process.on("exit", () => {
  if (process.moduleLoadList.includes("NativeModule internal/modules/esm/resolve")) record("esm-loader started");
});

// Building the first one loads ICU's locale data, which costs a short command more than its own
// work; called with or without `new`.
for (const name of ["NumberFormat", "DateTimeFormat"]) {
  const real = Intl[name];
  Intl[name] = new Proxy(real, {
    construct(target, args) {
      record(`intl ${name}`);
      return new target(...args);
    },
    apply(target, self, args) {
      record(`intl ${name}`);
      return target.apply(self, args);
    },
  });
}
// The same data behind these, without a formatter object.
for (const [proto, names] of [
  [Number.prototype, ["toLocaleString"]],
  [Date.prototype, ["toLocaleString", "toLocaleDateString", "toLocaleTimeString"]],
]) {
  for (const name of names) {
    const real = proto[name];
    proto[name] = function (...args) {
      record(`intl ${name}`);
      return real.apply(this, args);
    };
  }
}
