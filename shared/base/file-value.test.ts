// FileValueCache: the value of a small file, parsed again only when the file changed; anything but
// a small regular file (missing, a directory, too large, a link when refused) gives the fallback.
import fs from "node:fs";
import path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { makeTempDir, removeTempDirs } from "../../test/helpers/openclaw-fixtures.js";
import { FileValueCache } from "./file-value.js";

test.after(removeTempDirs);

function counting(opts: { maxBytes?: number; noFollow?: boolean } = {}): { cache: FileValueCache<string>; parsed: string[] } {
  const parsed: string[] = [];
  const cache = new FileValueCache({ maxBytes: opts.maxBytes ?? 1024, noFollow: opts.noFollow, fallback: "none", parse: (t) => (parsed.push(t), `value of ${t}`) });
  return { cache, parsed };
}

test("a file is parsed once per version: asked again unchanged it is not re-read; changed, it is", () => {
  const file = path.join(makeTempDir(), "settings.json");
  fs.writeFileSync(file, "one");
  const { cache, parsed } = counting();
  assert.is(cache.get(file), "value of one");
  assert.is(cache.get(file), "value of one");
  assert.equal(parsed, ["one"]);
  fs.writeFileSync(file, "second");
  assert.is(cache.get(file), "value of second");
  assert.equal(parsed, ["one", "second"]);
});

test("missing, a directory, past maxBytes, or a refused link: the fallback, nothing parsed", () => {
  const dir = makeTempDir();
  const big = path.join(dir, "big");
  fs.writeFileSync(big, "x".repeat(11));
  const real = path.join(dir, "real");
  fs.writeFileSync(real, "real");
  const link = path.join(dir, "link");
  fs.symlinkSync(real, link);
  const { cache, parsed } = counting({ maxBytes: 10, noFollow: true });
  for (const p of [path.join(dir, "missing"), dir, big, link]) assert.is(cache.get(p), "none", p);
  assert.equal(parsed, []);
  assert.is(counting({ maxBytes: 10 }).cache.get(link), "value of real", "links are followed unless refused");
});

test.run();
