// Opening a JSONL provider's reader over one install's folder, the same check for each.
import * as fs from "node:fs";
import type { SourceReader } from "../contract.js";
import { SourceError, classifyIoError, fail, ok, type SourceResult } from "../result.js";

/** `make()`'s reader when `dir` is a directory; a dir that is not there (or not a dir) is `missing`, another failure classified. */
export function openReaderIn(dir: string, make: () => SourceReader): SourceResult<SourceReader> {
  try {
    if (!fs.statSync(dir).isDirectory()) return fail(new SourceError("missing", `${dir}: not a directory`, { where: dir }));
  } catch (err) {
    return fail(classifyIoError(err, dir));
  }
  return ok(make());
}
