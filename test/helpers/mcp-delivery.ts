// What a real agent handed its model after calling the daemon's MCP tool `snapshot`, read from the
// fake model server's log of whole request bodies, in one shape for every agent: per call, its
// arguments and the parts (text, images with their decoded PNG size) that reached the model. And
// the checks issue 20 asks of every agent (test/e2e-mcp-*.test.ts).
import http from "node:http";
import type { AddressInfo } from "node:net";
import * as assert from "uvu/assert";
import { pngSize } from "./png.js";

export type DeliveredPart = { kind: "text"; text: string } | { kind: "image"; mediaType: string; png: boolean; width: number; height: number; bytes: number };

export interface DeliveredCall {
  args: Record<string, unknown>;
  /** The agent's own error flag on the result (Anthropic `is_error`), null where its format has none. */
  isError: boolean | null;
  parts: DeliveredPart[];
}

/** The tallest image the daemon hands a model (docs/mcp.md). */
export const PAGE_LIMIT_PX = 1600;
/** One reply's parallel calls: a full card as PNG pages, the full card as JSON, the SVG. */
export const PARALLEL_CALLS = [{ format: "png", detail: "full" }, { format: "json", detail: "full" }, { format: "svg" }] as const;
/**
 * The daemon's queue wait and total timeout for these tests: on a loaded 2-core machine a full
 * card's pages take longer than the default 5 s wait and 15 s total, and the parallel calls queue
 * behind them.
 */
export const GENEROUS = { INSIGHTS_RENDER_QUEUE_WAIT_SECONDS: "300", INSIGHTS_TOTAL_TIMEOUT_SECONDS: "600" };
/** A bad argument: the documented answer is INVALID_PARAM. */
export const BAD_CALL = { detail: "huge" } as const;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function imagePart(mediaType: string, base64: string): DeliveredPart {
  const buf = Buffer.from(base64, "base64");
  try {
    const { width, height } = pngSize(buf);
    return { kind: "image", mediaType, png: true, width, height, bytes: buf.length };
  } catch {
    return { kind: "image", mediaType, png: false, width: 0, height: 0, bytes: buf.length };
  }
}

/**
 * Anthropic Messages (Claude Code; OpenClaw with an anthropic-messages model): in the latest
 * request that has them, the tool_result blocks answering an assistant message's snapshot
 * tool_use blocks, in the order of the calls.
 */
export function anthropicDelivery(requests: Obj[], isSnapshot: (toolName: string) => boolean): DeliveredCall[] {
  for (const req of [...requests].reverse()) {
    const msgs = isObj(req.body) ? arr(req.body.messages).filter(isObj) : [];
    for (let i = msgs.length - 2; i >= 0; i--) {
      const uses = arr(msgs[i]?.content).filter(isObj).filter((b) => b.type === "tool_use" && isSnapshot(String(b.name)));
      if (msgs[i]?.role !== "assistant" || !uses.length) continue;
      const results = new Map(arr(msgs[i + 1]?.content).filter(isObj).filter((b) => b.type === "tool_result").map((b) => [String(b.tool_use_id), b]));
      if (!uses.every((u) => results.has(String(u.id)))) continue;
      return uses.map((u) => {
        const r = results.get(String(u.id)) as Obj;
        const content = typeof r.content === "string" ? [{ type: "text", text: r.content }] : arr(r.content).filter(isObj);
        const parts = content.map((c): DeliveredPart => {
          const src = isObj(c.source) ? c.source : {};
          return c.type === "image" ? imagePart(String(src.media_type), String(src.data ?? "")) : { kind: "text", text: typeof c.text === "string" ? c.text : JSON.stringify(c) };
        });
        return { args: isObj(u.input) ? u.input : {}, isError: r.is_error === true, parts };
      });
    }
  }
  return [];
}

/** OpenAI Responses (Codex): the function_call_output items answering the snapshot function calls of the latest request that has them. */
export function responsesDelivery(bodies: Obj[]): DeliveredCall[] {
  for (const req of [...bodies].reverse()) {
    const input = isObj(req.body) ? arr(req.body.input).filter(isObj) : [];
    const calls = input.filter((it) => it.type === "function_call" && (it.name === "snapshot" || /__snapshot$/.test(String(it.name))));
    const outputs = new Map(input.filter((it) => it.type === "function_call_output").map((it) => [String(it.call_id), it.output]));
    if (!calls.length || !calls.every((c) => outputs.has(String(c.call_id)))) continue;
    return calls.map((c) => {
      const out = outputs.get(String(c.call_id));
      const parts = (typeof out === "string" ? [{ type: "input_text", text: out }] : arr(out).filter(isObj)).map((p): DeliveredPart => {
        if (p.type !== "input_image") return { kind: "text", text: String(p.text ?? "") };
        const m = /^data:([^;]+);base64,(.*)$/s.exec(String(p.image_url ?? ""));
        return m ? imagePart(m[1] as string, m[2] as string) : { kind: "image", mediaType: "url", png: false, width: 0, height: 0, bytes: 0 };
      });
      let args: Obj = {};
      try {
        const a: unknown = JSON.parse(String(c.arguments));
        if (isObj(a)) args = a;
      } catch {
        // not JSON: no arguments
      }
      return { args, isError: null, parts };
    });
  }
  return [];
}

/**
 * Gemini API (Gemini CLI): in the latest request that has them, the functionResponse parts answering
 * a model content's snapshot function calls, in the order of the calls. Gemini CLI puts a tool's
 * images as inlineData parts right after its functionResponse part (not inside it).
 */
export function geminiDelivery(bodies: Obj[], isSnapshot: (toolName: string) => boolean): DeliveredCall[] {
  for (const req of [...bodies].reverse()) {
    const contents = isObj(req.body) ? arr(req.body.contents).filter(isObj) : [];
    for (let i = contents.length - 2; i >= 0; i--) {
      const calls = arr(contents[i]?.parts).filter(isObj).map((p) => p.functionCall).filter(isObj).filter((c) => isSnapshot(String(c.name)));
      if (contents[i]?.role !== "model" || !calls.length) continue;
      const answers = new Map<string, DeliveredPart[]>();
      let current: DeliveredPart[] | null = null;
      for (const p of arr(contents[i + 1]?.parts).filter(isObj)) {
        if (isObj(p.functionResponse)) {
          const resp = isObj(p.functionResponse.response) ? p.functionResponse.response : {};
          current = [{ kind: "text", text: typeof resp.output === "string" ? resp.output : JSON.stringify(resp) }];
          answers.set(String(p.functionResponse.id), current);
        } else if (current && isObj(p.inlineData)) current.push(imagePart(String(p.inlineData.mimeType), String(p.inlineData.data ?? "")));
        else if (current && typeof p.text === "string") current.push({ kind: "text", text: p.text });
      }
      if (!calls.every((c) => answers.has(String(c.id)))) continue;
      return calls.map((c) => ({ args: isObj(c.args) ? c.args : {}, isError: null, parts: answers.get(String(c.id)) as DeliveredPart[] }));
    }
  }
  return [];
}

/**
 * Every JSON object standing at the top level of a text (an agent may put a prefix before the
 * tool's output, or two copies), each parsed; `whole` is false when a `{` starts an object that
 * never closes or does not parse (a cut in the middle).
 */
export function jsonObjectsIn(text: string): { objects: Obj[]; whole: boolean } {
  const objects: Obj[] = [];
  let i = text.indexOf("{");
  while (i >= 0) {
    let depth = 0;
    let inString = false;
    let end = -1;
    for (let k = i; k < text.length; k++) {
      const ch = text[k];
      if (inString) {
        if (ch === "\\") k++;
        else if (ch === '"') inString = false;
      } else if (ch === '"') inString = true;
      else if (ch === "{") depth++;
      else if (ch === "}" && --depth === 0) {
        end = k;
        break;
      }
    }
    if (end < 0) return { objects, whole: false };
    try {
      const v: unknown = JSON.parse(text.slice(i, end + 1));
      if (!isObj(v)) return { objects, whole: false };
      objects.push(v);
    } catch {
      return { objects, whole: false };
    }
    i = text.indexOf("{", end + 1);
  }
  return { objects, whole: true };
}

/** The PNG pages of a call made here, straight to the daemon: what the model should have got, in order. */
/** A `tools/call` the daemon answered through a McpRecorder: its arguments and the images' sizes, in order. */
export interface AnsweredCall {
  args: Record<string, unknown>;
  pages: Array<{ width: number; height: number }>;
}

/**
 * A pass-through proxy in front of the daemon's `/mcp` that keeps what the daemon answered to each
 * `tools/call`. The agent registers `url`; what it hands its model is then compared with what the
 * daemon sent for that very call. (A second call made afterwards is no reference: the agent's own
 * turn writes sessions the card shows, so a later card may have more pages.)
 */
export interface McpRecorder {
  url: string;
  answered: AnsweredCall[];
  close(): Promise<void>;
}

/** JSON-RPC messages of a response body: plain JSON, or the `data:` lines of an event stream. */
function rpcMessages(contentType: string, body: string): Obj[] {
  const texts = contentType.includes("text/event-stream") ? body.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trim()) : [body];
  const out: Obj[] = [];
  for (const t of texts) {
    try {
      const v: unknown = JSON.parse(t);
      for (const m of Array.isArray(v) ? v : [v]) if (isObj(m)) out.push(m);
    } catch {
      // not JSON (an empty keep-alive line): nothing to record
    }
  }
  return out;
}

export async function mcpRecorder(daemonUrl: string): Promise<McpRecorder> {
  const target = new URL(`${daemonUrl}/mcp`);
  const answered: AnsweredCall[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      let calls = new Map<unknown, Record<string, unknown>>();
      try {
        const msg: unknown = JSON.parse(body.toString("utf8"));
        calls = new Map((Array.isArray(msg) ? msg : [msg]).filter((m): m is Obj => isObj(m) && m.method === "tools/call").map((m) => [m.id, isObj(m.params) && isObj(m.params.arguments) ? m.params.arguments : {}]));
      } catch {
        // a GET or DELETE: no body
      }
      const up = http.request(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (upRes) => {
        res.writeHead(upRes.statusCode ?? 502, upRes.headers);
        const got: Buffer[] = [];
        upRes.on("data", (c: Buffer) => {
          got.push(c);
          res.write(c);
        });
        upRes.on("end", () => {
          res.end();
          for (const m of rpcMessages(String(upRes.headers["content-type"] ?? ""), Buffer.concat(got).toString("utf8"))) {
            const args = calls.get(m.id);
            if (!args || !isObj(m.result)) continue;
            const content = arr(m.result.content).filter(isObj);
            answered.push({ args, pages: content.filter((c) => c.type === "image").map((c) => pngSize(Buffer.from(String(c.data ?? ""), "base64"))) });
          }
        });
      });
      up.on("error", () => res.destroy());
      up.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    answered,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** The pages the daemon answered to the call with exactly these arguments. */
export function answeredPages(rec: McpRecorder, args: Record<string, unknown>): Array<{ width: number; height: number }> {
  const hit = rec.answered.find((c) => Object.keys(args).length === Object.keys(c.args).length && Object.entries(args).every(([k, v]) => c.args[k] === v));
  assert.ok(hit, `the daemon answered ${JSON.stringify(args)} (answered: ${JSON.stringify(rec.answered.map((c) => c.args))})`);
  return hit.pages;
}

const texts = (c: DeliveredCall): string => c.parts.filter((p): p is Extract<DeliveredPart, { kind: "text" }> => p.kind === "text").map((p) => p.text).join("\n");
const images = (c: DeliveredCall): Array<Extract<DeliveredPart, { kind: "image" }>> => c.parts.filter((p): p is Extract<DeliveredPart, { kind: "image" }> => p.kind === "image");
const findCall = (calls: DeliveredCall[], want: Record<string, unknown>): DeliveredCall | undefined =>
  calls.find((c) => Object.keys(want).length === Object.keys(c.args).length && Object.entries(want).every(([k, v]) => c.args[k] === v));

/** What reached the model, for the report and docs/mcp.md. */
export interface DeliveryReport {
  pngPages: string;
  pngCount: number;
  jsonChars: number;
  jsonObjects: number;
  svg: string;
  error: string;
}

/**
 * Issue 20's checks on what one agent handed its model: the three parallel calls all succeeded;
 * every image is a PNG no taller than the limit, the full card's pages all there and in the
 * daemon's order (`reference`: the page sizes the daemon answered to that call, seen by a McpRecorder); the JSON parses whole;
 * the SVG is no image; the bad call's answer says INVALID_PARAM (or `badAnswer`: what an agent
 * that checks arguments itself says).
 */
export function checkDelivery(agent: string, calls: DeliveredCall[], reference: Array<{ width: number; height: number }>, bad: DeliveredCall | undefined, badAnswer: RegExp = /INVALID_PARAM: /): DeliveryReport {
  const png = findCall(calls, PARALLEL_CALLS[0]);
  const json = findCall(calls, PARALLEL_CALLS[1]);
  const svg = findCall(calls, PARALLEL_CALLS[2]);
  assert.ok(png && json && svg, `${agent}: the model got an answer to each of the three calls (${JSON.stringify(calls.map((c) => c.args))})`);
  for (const c of [png, json, svg]) {
    assert.is.not(c.isError, true, `${agent}: ${JSON.stringify(c.args)} succeeded`);
    assert.not.match(texts(c), /\b(QUEUE_FULL|QUEUE_TIMEOUT|TOTAL_TIMEOUT|RATE_LIMITED|RENDER_FAILED|INVALID_PARAM)\b/, `${agent}: ${JSON.stringify(c.args)} is no error`);
  }

  // Every image in the model's request: a PNG no taller than the limit.
  const all = calls.flatMap(images);
  for (const im of all) {
    assert.ok(im.png, `${agent}: an image of ${im.mediaType} (${im.bytes} bytes) is not a PNG`);
    assert.ok(im.height <= PAGE_LIMIT_PX, `${agent}: an image ${im.width}x${im.height} is taller than ${PAGE_LIMIT_PX} px`);
  }
  // The full card: every page, in the daemon's order.
  const pages = images(png);
  assert.ok(reference.length >= 2, `the full card is several pages (${reference.length})`);
  assert.equal(pages.map((p) => `${p.width}x${p.height}`), reference.map((p) => `${p.width}x${p.height}`), `${agent}: the full card's pages, in order`);
  assert.match(texts(png), new RegExp(`follows as ${reference.length} images, top to bottom`), `${agent}: the summary comes with the pages`);

  // The JSON: every JSON object in the text parses whole, and it is the card.
  const jt = texts(json);
  const found = jsonObjectsIn(jt);
  assert.ok(found.whole && found.objects.length >= 1, `${agent}: the JSON reaching the model parses whole (${jt.length} chars: …${jt.slice(-200)})`);
  for (const o of found.objects) {
    const card = isObj(o.card) ? o.card : {};
    assert.is(card.schemaVersion, 2, `${agent}: a JSON object that is the card`);
    assert.is(typeof o.summary, "string");
  }
  assert.is(images(json).length, 0);

  // SVG: never an image.
  assert.is(images(svg).length, 0, `${agent}: the SVG reached the model as no image`);
  const st = texts(svg);
  const svgHow = /<svg[\s>]/.test(st) ? `as text (${st.length} chars, "<svg" inside)` : `as text without the SVG (${st.length} chars: ${st.slice(0, 120).replace(/\s+/g, " ")}…)`;

  let error = "no bad call";
  if (bad) {
    const bt = texts(bad);
    assert.match(bt, badAnswer, `${agent}: a bad argument reaches the model as ${String(badAnswer)} (${bt.slice(0, 300)})`);
    assert.is(images(bad).length, 0);
    error = bt.slice(0, 160).replace(/\s+/g, " ");
  }
  return {
    pngPages: pages.map((p) => `${p.width}x${p.height}`).join(", "),
    pngCount: pages.length,
    jsonChars: jt.length,
    jsonObjects: found.objects.length,
    svg: svgHow,
    error,
  };
}
