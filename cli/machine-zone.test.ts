// The machine's zone by name, from TZ or /etc/localtime's link (a link made in a temp dir here).
import fs from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { makeTempDir, removeTempDirs } from "../test/helpers/openclaw-fixtures.js";
import { machineZone, machineZoneName } from "./machine-zone.js";

test.after(() => removeTempDirs());

function link(target: string): string {
  const file = join(makeTempDir(), "localtime");
  fs.symlinkSync(target, file);
  return file;
}

test("TZ first, as the user set it (checked later, by the daemon or machineZone)", () => {
  assert.is(machineZoneName({ TZ: "Asia/Tokyo" }, link("/usr/share/zoneinfo/Europe/Berlin")), "Asia/Tokyo");
  assert.is(machineZoneName({ TZ: "Mars/Olympus" }, link("/usr/share/zoneinfo/Europe/Berlin")), "Mars/Olympus");
  // Set but empty names nothing.
  assert.is(machineZoneName({ TZ: "" }, link("/usr/share/zoneinfo/Europe/Berlin")), null);
});

test("no TZ: the zone /etc/localtime links to, as the system spells it; its UTC names as Intl's UTC", () => {
  assert.is(machineZoneName({}, link("/usr/share/zoneinfo/Europe/Berlin")), "Europe/Berlin");
  assert.is(machineZoneName({}, link("../usr/share/zoneinfo/America/Argentina/Buenos_Aires")), "America/Argentina/Buenos_Aires");
  assert.is(machineZoneName({}, link("/usr/share/zoneinfo/Asia/Kolkata")), "Asia/Kolkata");
  for (const utc of ["Etc/UTC", "UTC", "Etc/GMT", "GMT"]) assert.is(machineZoneName({}, link(`/usr/share/zoneinfo/${utc}`)), "UTC", utc);
  // A copy (not a link), a link elsewhere, or none at all: no name.
  const copy = join(makeTempDir(), "localtime");
  fs.writeFileSync(copy, "TZif");
  assert.is(machineZoneName({}, copy), null);
  assert.is(machineZoneName({}, link("/opt/zones/Berlin")), null);
  assert.is(machineZoneName({}, join(makeTempDir(), "none")), null);
});

test("machineZone checks the name: Intl's case, else the next source", () => {
  assert.is(machineZone({ TZ: "asia/tokyo" }, link("/usr/share/zoneinfo/Europe/Berlin")), "Asia/Tokyo");
  assert.is(machineZone({}, link("/usr/share/zoneinfo/Europe/Berlin")), "Europe/Berlin");
  assert.is(machineZone({}, link("/usr/share/zoneinfo/Etc/UTC")), "UTC");
});

test.run();
