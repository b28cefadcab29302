// Whether a Claude Code install has a status line set up that hands its windows to us: its
// settings.json names `insightsctl statusline` (or this package's CLI). Read to say why there
// are no plan windows, never for anything else; capped, and kept per file version because every
// status read asks.
import { join } from "node:path";
import { FileValueCache } from "../../shared/base/file-value.js";
import { OUR_STATUSLINE } from "../../shared/statusline/command.js";

const MAX_SETTINGS_BYTES = 256 * 1024;

function namesOurStatusLine(text: string): boolean {
  try {
    const parsed = JSON.parse(text) as { statusLine?: { command?: unknown } };
    const command = parsed?.statusLine?.command;
    return typeof command === "string" && OUR_STATUSLINE.test(command);
  } catch {
    return false;
  }
}

const settings = new FileValueCache({ maxBytes: MAX_SETTINGS_BYTES, parse: namesOurStatusLine, fallback: false });

/** True when `<dir>/settings.json` has a statusLine command of ours. */
export function statusLineSet(dir: string): boolean {
  return settings.get(join(dir, "settings.json"));
}
