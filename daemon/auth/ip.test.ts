import { test } from "uvu";
import * as assert from "uvu/assert";
import { isLocalHost, isLocalOrigin, isLoopbackAddress, peerKey } from "./ip.js";

test("loopback addresses: IPv4 127/8, ::1 and their mapped forms; nothing else", () => {
  for (const a of ["127.0.0.1", "127.1.2.3", "::1", "::ffff:127.0.0.1", "0:0:0:0:0:0:0:1"]) assert.ok(isLoopbackAddress(a), a);
  for (const a of ["10.0.0.1", "::ffff:10.0.0.1", "::2", "128.0.0.1", "", undefined, "localhost"]) assert.not.ok(isLoopbackAddress(a), String(a));
});

test("Host and Origin name this machine only as localhost or a loopback literal (DNS-rebinding defence)", () => {
  for (const h of ["localhost", "localhost:41080", "127.0.0.1:41080", "[::1]:41080", "LOCALHOST"]) assert.ok(isLocalHost(h), h);
  for (const h of ["evil.example", "localhost.evil.example", "127.0.0.1.nip.io", "[::1]x", "", undefined]) assert.not.ok(isLocalHost(h), String(h));
  assert.ok(isLocalOrigin("http://127.0.0.1:41080"));
  assert.not.ok(isLocalOrigin("http://evil.example"));
  assert.not.ok(isLocalOrigin("file://localhost/x"));
});

test("peer keys: IPv4 as is (mapped or not), IPv6 by its /64", () => {
  assert.is(peerKey("::ffff:192.0.2.1"), "192.0.2.1");
  assert.is(peerKey("192.0.2.1"), "192.0.2.1");
  assert.is(peerKey("2001:db8:1:2:3:4:5:6"), "2001:db8:1:2::/64");
});

test.run();
