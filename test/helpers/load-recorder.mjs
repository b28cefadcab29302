// Preloaded with `node --import` into a CLI process under test (test/cli-fast-paths.test.ts):
// appends to the file LOAD_RECORD names one line per module the process loads ("load <url>") and
// per Intl formatter it builds ("intl <what>"). Plain JS: the child runs the built bin on plain node.
// Lines are appended synchronously as they happen, so a process that ends with process.exit()
// leaves them all.
import { appendFileSync } from "node:fs";
import { register } from "node:module";

const file = process.env.LOAD_RECORD;
if (!file) throw new Error("load-recorder: LOAD_RECORD names no file");

register(new URL("./load-recorder-hooks.mjs", import.meta.url), { data: { file } });

const record = (what) => appendFileSync(file, `intl ${what}\n`);

// Building the first one loads ICU's locale data, which costs a short command more than its own
// work; called with or without `new`.
for (const name of ["NumberFormat", "DateTimeFormat"]) {
  const real = Intl[name];
  Intl[name] = new Proxy(real, {
    construct(target, args) {
      record(name);
      return new target(...args);
    },
    apply(target, self, args) {
      record(name);
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
      record(name);
      return real.apply(this, args);
    };
  }
}
