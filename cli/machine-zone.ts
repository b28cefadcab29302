// This machine's time zone, the default of `insightsctl usage` (the daemon's own zone may differ,
// so the CLI names its own). Found without Intl where it can be: the first Intl.DateTimeFormat of a
// process loads ICU's locale data, 50-100 ms on a busy 2-core machine, which was most of what
// `usage` against a running daemon cost over bare node (docs/benchmarks.md). The daemon checks
// the name it is sent as it checks a --timezone; Intl decides here only when that check fails.
import { readlinkSync } from "node:fs";
import { parseTimeZone } from "../shared/queries/usage-params.js";
import { note } from "./output.js";

/** Where the system names its zone: a link into the zone database (what timedatectl sets). */
export const LOCALTIME = "/etc/localtime";

/** The names V8's Intl gives as "UTC" for the machine's zone (Etc/UTC is a container's usual link). */
const UTC_NAMES = new Set(["utc", "gmt", "etc/utc", "etc/gmt"]);

/**
 * The zone TZ names, else the one /etc/localtime links to (`/usr/share/zoneinfo/Europe/Berlin`),
 * unchecked; null when neither names one (TZ set but empty, /etc/localtime a copy or missing).
 * A link's name is kept as the system spells it (Asia/Kolkata, not ICU's older alias Asia/Calcutta),
 * as a TZ's always was.
 */
export function machineZoneName(env: NodeJS.ProcessEnv = process.env, localtime = LOCALTIME): string | null {
  if (env.TZ !== undefined) return env.TZ === "" ? null : env.TZ;
  let target: string;
  try {
    target = readlinkSync(localtime);
  } catch {
    return null;
  }
  const at = target.lastIndexOf("/zoneinfo/");
  if (at === -1) return null;
  const name = target.slice(at + "/zoneinfo/".length);
  return UTC_NAMES.has(name.toLowerCase()) ? "UTC" : name;
}

/**
 * The machine's zone, checked (Intl): TZ, else /etc/localtime's, else the one Intl finds; UTC,
 * said on stderr, when none of them is a zone Intl knows (TZ=Mars/Olympus).
 */
export function machineZone(env: NodeJS.ProcessEnv = process.env, localtime = LOCALTIME): string {
  const named = machineZoneName(env, localtime);
  for (const zone of [named, Intl.DateTimeFormat().resolvedOptions().timeZone as string | undefined]) {
    try {
      if (zone) return parseTimeZone(zone);
    } catch {
      // the next, else said below
    }
  }
  note(`this machine's time zone${env.TZ !== undefined ? ` (TZ=${env.TZ})` : ""} is not one Intl knows; days are in UTC (pass --timezone)`);
  return "UTC";
}
