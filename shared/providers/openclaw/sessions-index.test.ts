import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { readSessionsJson } from "./legacy-files.js";
import { keptSkipStackBytes } from "./selective-json.js";
import { IndexSyntaxError, walkSessionsIndex } from "./sessions-index.js";
import { FILES_FIXTURE, copyFixture, removeTempDirs } from "../../../test/helpers/openclaw-fixtures.js";

test.after(removeTempDirs);

const SKIP = new Set(["skillsSnapshot", "systemPromptReport", "contextBudgetStatus"]);

interface Walked {
  entries: Array<[string, Record<string, unknown> | "not an object"]>;
  /** The largest read the walker asked for. */
  largestRead: number;
}

function walk(text: string, windowBytes?: number): Walked {
  const bytes = Buffer.from(text, "utf8");
  let largestRead = 0;
  const entries: Walked["entries"] = [];
  walkSessionsIndex(
    (into, pos) => {
      largestRead = Math.max(largestRead, into.length);
      return bytes.copy(into, 0, pos, Math.min(bytes.length, pos + into.length));
    },
    bytes.length,
    SKIP,
    { entry: (k, f) => entries.push([k, f]), notObject: (k) => entries.push([k, "not an object"]) },
    windowBytes,
  );
  return { entries, largestRead };
}

/** The oracle: JSON.parse of the whole text, the skipped fields deleted, repeated keys folded as JSON.parse folds them. */
function oracle(text: string): Walked["entries"] {
  const parsed = JSON.parse(text) as Record<string, unknown>;
  return Object.entries(parsed).map(([k, v]) => {
    if (typeof v !== "object" || v === null || Array.isArray(v)) return [k, "not an object"];
    const copy = { ...(v as Record<string, unknown>) };
    for (const f of SKIP) delete copy[f];
    return [k, copy];
  });
}

/** Walked members folded the way readSessionsJson folds them (a repeated key: the last value). */
function folded(w: Walked["entries"]): Walked["entries"] {
  const m = new Map<string, Record<string, unknown> | "not an object">();
  for (const [k, v] of w) m.set(k, v);
  return [...m.entries()];
}

const tricky = JSON.stringify(
  {
    "agent:main:main": {
      sessionId: "a",
      skillsSnapshot: { prompt: 'quote " brace } bracket ] backslash \\ end\\', list: [{ a: [1, 2, { b: "}" }] }, "]", "\\\""] },
      label: "x \" } ] \\ \u00e9 \u4e2d \ud83d\ude00",
      systemPromptReport: { chars: 12, nested: { deep: [[[[{}]]]] } },
      updatedAt: 1795303000000,
      n: -1.5e3,
      flags: [true, false, null],
      empty: {},
      contextBudgetStatus: "just a string",
    },
    "agent:main:cron:1": { sessionId: "b", model: null },
    "agent:main:weird": 5,
    "agent:main:arr": [1, { skillsSnapshot: 1 }],
    "agent:main:str": "s",
    "agent:main:null": null,
    "agent:main:empty": {},
  },
  null,
  2,
);

test("the walk gives what JSON.parse gives, minus the skipped fields, at any window size", () => {
  const want = oracle(tricky);
  for (const windowBytes of [1, 7, 64, 1000, undefined]) {
    const got = walk(tricky, windowBytes);
    assert.equal(folded(got.entries), want, `window ${windowBytes}`);
  }
});

test("repeated keys, __proto__ and integer-like keys: as JSON.parse has them", () => {
  const text = '{"b":{"x":1,"x":2,"__proto__":{"polluted":true}},"10":{"y":1},"a":3,"b":{"z":1,"z":[2]},"2":{}}';
  const r = readSessionsJsonOf(text);
  assert.ok(r.ok);
  const want = oracle(text).filter(([, v]) => v !== "not an object");
  assert.equal(
    r.value.map((e) => [e.key, e.entry]),
    want,
  );
  const b = r.value.find((e) => e.key === "b");
  assert.ok(b);
  // An own property named __proto__, never the prototype (JSON.parse does the same).
  assert.is(Object.getPrototypeOf(b.entry), Object.prototype);
  assert.is(({} as Record<string, unknown>).polluted, undefined);
  assert.equal(r.warnings.map((w) => w.code), ["BAD_ROW"]);
});

test("malformed files are corrupt, with the byte offset; a bad blob that does not nest is caught too", () => {
  const bad = [
    '{"a":{"sessionId":"x"',
    '{"a":{"sessionId":"x"}} trailing',
    '\ufeff{"a":{}}',
    '[{"a":1}]',
    '{"a":{"skillsSnapshot":{"x":[1}}}}',
    '{"a":{"skillsSnapshot":"unterminated}}',
    '{"a":{"x":tru}}',
    '{"a":{"x":1,}}',
    '{"a":{},}',
    '{"a" {}}',
    "",
    "   ",
  ];
  for (const text of bad) {
    // The oracle: JSON.parse refuses it, or it is not an object of members.
    let anObject = false;
    try {
      const v = JSON.parse(text) as unknown;
      anObject = typeof v === "object" && v !== null && !Array.isArray(v);
    } catch {
      anObject = false;
    }
    assert.not.ok(anObject, `the oracle refuses ${JSON.stringify(text)}`);
    for (const windowBytes of [3, undefined]) {
      try {
        walk(text, windowBytes);
        assert.unreachable(`accepted ${JSON.stringify(text)}`);
      } catch (err) {
        assert.instance(err, IndexSyntaxError, `${JSON.stringify(text)}: ${String(err)}`);
        assert.ok((err as IndexSyntaxError).at >= 0 && (err as IndexSyntaxError).at <= Buffer.byteLength(text));
      }
    }
    const r = readSessionsJsonOf(text);
    assert.ok(!r.ok);
    assert.is(r.error.kind, "corrupt");
  }
});

test("a blob nested a million deep is stepped over, and the walk keeps no memory of its depth afterwards (well-formed or cut short)", () => {
  const depth = 1_000_000;
  const deep = "[".repeat(depth) + "]".repeat(depth);
  const entry = (blob: string): string => `{"s1": {"label": "x", "${[...SKIP][0]}": ${blob}}}`;
  assert.equal(walk(entry(deep)).entries, [["s1", { label: "x" }]]);
  assert.ok(keptSkipStackBytes() <= 64 * 1024, `kept ${keptSkipStackBytes()} bytes`);
  assert.throws(() => walk(entry("[".repeat(depth))), (e: unknown) => e instanceof IndexSyntaxError);
  assert.ok(keptSkipStackBytes() <= 64 * 1024, `kept ${keptSkipStackBytes()} bytes after a cut-short blob`);
});

test("the fixture's sessions.json: entries without the blobs, which are never handed to JSON.parse, read through a bounded window", () => {
  const dir = path.join(copyFixture(FILES_FIXTURE), "agents", "main", "sessions");
  const text = fs.readFileSync(path.join(dir, "sessions.json"), "utf8");
  const parsed = JSON.parse(text) as Record<string, Record<string, unknown>>;
  let blobBytes = 0;
  for (const e of Object.values(parsed)) for (const f of SKIP) if (e[f] !== undefined) blobBytes += JSON.stringify(e[f]).length;
  assert.ok(blobBytes > text.length / 2, "most of the file is blobs");
  // Count what reaches JSON.parse during the read.
  const real = JSON.parse;
  let parsedChars = 0;
  JSON.parse = ((s: string, r?: Parameters<typeof real>[1]) => {
    parsedChars += s.length;
    return real(s, r);
  }) as typeof JSON.parse;
  let r: ReturnType<typeof readSessionsJson>;
  try {
    r = readSessionsJson(dir);
  } finally {
    JSON.parse = real;
  }
  assert.ok(r.ok);
  assert.equal(
    r.value.map((e) => [e.key, e.entry]),
    oracle(text),
  );
  assert.ok(parsedChars < text.length - blobBytes, `parsed ${parsedChars} of ${text.length} chars (${blobBytes} of blobs)`);
  // A window smaller than the file: still the same entries, and no read asks for the whole file.
  const small = walk(text, 4096);
  assert.equal(folded(small.entries), oracle(text));
  assert.ok(small.largestRead < text.length, `largest read ${small.largestRead}`);
});

function readSessionsJsonOf(text: string): ReturnType<typeof readSessionsJson> {
  const dir = path.join(copyFixture(FILES_FIXTURE), "agents", "main", "sessions");
  fs.writeFileSync(path.join(dir, "sessions.json"), text);
  return readSessionsJson(dir);
}

test.run();
