// The module hooks of load-recorder.mjs (they run on Node's loader thread): one line per module loaded.
import { appendFileSync } from "node:fs";

let file = "";

export function initialize(data) {
  file = data.file;
}

export async function load(url, context, next) {
  appendFileSync(file, `load ${url}\n`);
  return next(url, context);
}
