// The outbound policy for channels made through the API (issue 18 item 2): every spelling the
// review tried, and the others of the same addresses, is refused; public addresses and names pass;
// config.json's allowPrivateTargets and allowedHosts open what the operator names.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { refusedAddress, refusedKind, refusedUrl, STRICT_POLICY } from "./target-policy.js";

const REFUSED = [
  // the review's list
  "http://169.254.169.254/latest/meta-data/",
  "http://metadata.google.internal/computeMetadata/v1/",
  "http://[fd00:ec2::254]/",
  "http://0.0.0.0:8080/",
  "http://127.1/",
  "http://0x7f000001/",
  "http://2130706433/",
  "http://[::ffff:127.0.0.1]/",
  "http://localhost:41080/graphql",
  "http://10.1.2.3/",
  "http://172.16.0.1/",
  "http://172.31.255.254/",
  "http://192.168.1.1/",
  // other spellings and ranges of the same kinds
  "http://0177.0.0.1/",
  "http://017700000001/",
  "http://0x7f.1/",
  "http://127.255.255.254/",
  "http://0/",
  "http://[::]/",
  "http://[::1]:9000/",
  "http://[0:0:0:0:0:0:0:1]/",
  "http://[::ffff:7f00:1]/",
  "http://[::127.0.0.1]/",
  "http://[::ffff:169.254.169.254]/",
  "http://[::ffff:a9fe:a9fe]/",
  "http://[64:ff9b::7f00:1]/",
  "http://[2002:7f00:1::]/",
  "http://[fe80::1]/",
  "http://[fc00::1]/",
  "http://100.64.0.1/",
  "http://100.127.255.255/",
  "http://169.254.0.1/",
  "http://LOCALHOST./",
  "http://api.localhost/",
  "http://Metadata.Google.Internal./",
  "https://metadata.goog/",
  "http://instance-data/",
  "http://[::ffff:10.0.0.1]/",
  "http://[::ffff:192.168.0.1]/",
];

const ALLOWED = ["https://hooks.slack.com/services/T/B/X", "https://ntfy.sh/topic", "http://8.8.8.8/", "http://[2606:4700:4700::1111]/", "http://[::ffff:8.8.8.8]/", "http://172.32.0.1/", "http://100.128.0.1/", "http://192.169.0.1/", "https://example.com./hook"];

test("every spelling of a loopback, private, link-local, unspecified or metadata target is refused", () => {
  for (const url of REFUSED) assert.ok(refusedUrl(url, STRICT_POLICY), `${url} is refused`);
});

test("public addresses and names pass (names are checked again after DNS, on delivery)", () => {
  for (const url of ALLOWED) assert.is(refusedUrl(url, STRICT_POLICY), null, url);
});

test("the kind of address is said (never anything about a port)", () => {
  assert.is(refusedUrl("http://2130706433:22/", STRICT_POLICY), "loopback");
  assert.is(refusedUrl("http://169.254.169.254/", STRICT_POLICY), "link-local or cloud metadata");
  assert.is(refusedUrl("http://metadata.google.internal/", STRICT_POLICY), "cloud metadata");
  assert.is(refusedKind("::ffff:7f00:1"), "loopback");
  assert.is(refusedKind("fd00:ec2::254"), "private");
  assert.is(refusedKind("93.184.216.34"), null);
});

test("after DNS: a public name resolving to a refused address is refused, unless config.json allows it", () => {
  assert.is(refusedAddress("hooks.example.com", "127.0.0.1", STRICT_POLICY), "loopback");
  assert.is(refusedAddress("hooks.example.com", "::ffff:127.0.0.1", STRICT_POLICY), "loopback");
  assert.is(refusedAddress("hooks.example.com", "93.184.216.34", STRICT_POLICY), null);
  assert.is(refusedAddress("hooks.example.com", "127.0.0.1", { allowPrivate: true, allowedHosts: [] }), null);
  assert.is(refusedAddress("hooks.internal", "10.0.0.5", { allowPrivate: false, allowedHosts: ["hooks.internal"] }), null);
  assert.is(refusedAddress("other.internal", "10.0.0.5", { allowPrivate: false, allowedHosts: ["hooks.internal"] }), "private");
  assert.is(refusedAddress("x", "10.0.0.5", { allowPrivate: false, allowedHosts: ["10.0.0.0/24"] }), null);
  assert.is(refusedAddress("x", "10.0.1.5", { allowPrivate: false, allowedHosts: ["10.0.0.0/24"] }), "private");
});

test("config.json's allowedHosts and allowPrivateTargets open what they name, and only that", () => {
  const policy = { allowPrivate: false, allowedHosts: ["127.0.0.1", "hooks.lan"] };
  assert.is(refusedUrl("http://127.0.0.1:9000/", policy), null);
  assert.is(refusedUrl("http://127.1:9000/", policy), null, "another spelling of an allowed address is that address");
  assert.is(refusedUrl("http://HOOKS.LAN./x", policy), null);
  assert.is(refusedUrl("http://169.254.169.254/", policy), "link-local or cloud metadata");
  assert.is(refusedUrl("http://169.254.169.254/", { allowPrivate: true, allowedHosts: [] }), null);
});

test.run();
