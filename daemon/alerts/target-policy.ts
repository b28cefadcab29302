// Where a channel made through the API may send (issue 18): never to this machine, its private
// networks, link-local or cloud-metadata addresses, unless the operator allows them in config.json
// (`alerts.allowPrivateTargets`, `alerts.allowedHosts`). Without this, anyone holding the API token
// could make the daemon POST to 169.254.169.254 or scan 127.0.0.1's ports through
// testAlertChannel. URLs are parsed with WHATWG URL, which turns every IPv4 spelling (127.1,
// 0x7f000001, 2130706433, 0177.0.0.1) into dotted decimal; IPv6 forms that embed an IPv4 address
// (mapped, compatible, NAT64, 6to4) are judged by that address. Config-made channels are the
// operator's own and are not checked.
import { BlockList, isIP } from "node:net";

export interface TargetPolicy {
  /** Every private, loopback and link-local address is allowed (config `alerts.allowPrivateTargets`). */
  allowPrivate: boolean;
  /** Host names (exact), addresses or CIDR ranges allowed whatever they are (config `alerts.allowedHosts`). */
  allowedHosts: readonly string[];
}

export const STRICT_POLICY: TargetPolicy = { allowPrivate: false, allowedHosts: [] };

/** Names that reach this machine or a cloud's metadata service whatever DNS says. */
const REFUSED_NAMES = new Set(["localhost", "metadata", "metadata.google.internal", "metadata.goog", "instance-data", "instance-data.ec2.internal", "metadata.azure.internal", "metadata.tencentyun.com"]);

const V4: Array<[string, number, string]> = [
  ["0.0.0.0", 8, "unspecified"],
  ["10.0.0.0", 8, "private"],
  ["100.64.0.0", 10, "private (CGNAT)"],
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "link-local or cloud metadata"],
  ["172.16.0.0", 12, "private"],
  ["192.0.0.0", 24, "private"],
  ["192.168.0.0", 16, "private"],
  ["198.18.0.0", 15, "private"],
  ["224.0.0.0", 4, "multicast"],
  ["240.0.0.0", 4, "reserved"],
];
const V6: Array<[string, number, string]> = [
  ["::", 128, "unspecified"],
  ["::1", 128, "loopback"],
  ["fc00::", 7, "private"],
  ["fe80::", 10, "link-local"],
  ["fec0::", 10, "private (site-local)"],
  ["ff00::", 8, "multicast"],
];

function listOf(ranges: Array<[string, number, string]>, family: "ipv4" | "ipv6"): Array<{ why: string; list: BlockList }> {
  return ranges.map(([net, prefix, why]) => {
    const list = new BlockList();
    list.addSubnet(net, prefix, family);
    return { why, list };
  });
}
const V4_LISTS = listOf(V4, "ipv4");
const V6_LISTS = listOf(V6, "ipv6");

/** The 16 bytes of an IPv6 address (already known valid). */
function v6Bytes(ip: string): number[] {
  let text = ip;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const p = dotted[1]!.split(".").map(Number);
    text = `${text.slice(0, -dotted[1]!.length)}${((p[0]! << 8) | p[1]!).toString(16)}:${((p[2]! << 8) | p[3]!).toString(16)}`;
  }
  const [head, tail] = text.includes("::") ? text.split("::") : [text, null];
  const h = head ? head.split(":") : [];
  const t = tail ? tail.split(":") : [];
  const groups = tail === null ? h : [...h, ...Array<string>(8 - h.length - t.length).fill("0"), ...t];
  return groups.flatMap((g) => {
    const n = parseInt(g || "0", 16);
    return [n >> 8, n & 0xff];
  });
}

/** The IPv4 address an IPv6 one carries (mapped, compatible, NAT64 64:ff9b::/96, 6to4 2002::/16), or null. */
function embeddedV4(ip: string): string | null {
  const b = v6Bytes(ip);
  const zero = (from: number, to: number): boolean => b.slice(from, to).every((x) => x === 0);
  const v4 = (at: number): string => b.slice(at, at + 4).join(".");
  if (zero(0, 10) && b[10] === 0xff && b[11] === 0xff) return v4(12); // ::ffff:a.b.c.d
  if (zero(0, 12) && !zero(12, 16) && !(zero(12, 15) && b[15] === 1)) return v4(12); // ::a.b.c.d (compatible); not ::1
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zero(4, 12)) return v4(12); // NAT64
  if (b[0] === 0x20 && b[1] === 0x02) return v4(2); // 6to4
  return null;
}

/** What kind of refused address `ip` is ("loopback", "private", …), or null for a public one. */
export function refusedKind(ip: string): string | null {
  const bare = ip.startsWith("[") && ip.endsWith("]") ? ip.slice(1, -1) : ip;
  const family = isIP(bare);
  if (family === 4) return V4_LISTS.find((l) => l.list.check(bare, "ipv4"))?.why ?? null;
  if (family !== 6) return "not an address";
  const inner = embeddedV4(bare.split("%")[0]!);
  if (inner !== null) return refusedKind(inner);
  return V6_LISTS.find((l) => l.list.check(bare.split("%")[0]!, "ipv6"))?.why ?? null;
}

/** A host name as compared: lower case, without the trailing dot of a fully qualified name. */
const hostKey = (host: string): string => host.toLowerCase().replace(/\.+$/, "");

function allowedByList(policy: TargetPolicy, host: string, ip: string | null): boolean {
  for (const entry of policy.allowedHosts) {
    const e = entry.trim().toLowerCase();
    if (!e) continue;
    const slash = e.indexOf("/");
    if (ip !== null && slash > 0) {
      const net = e.slice(0, slash);
      const family = isIP(net);
      if (!family) continue;
      const list = new BlockList();
      list.addSubnet(net, Number(e.slice(slash + 1)), family === 4 ? "ipv4" : "ipv6");
      if (list.check(ip, isIP(ip) === 4 ? "ipv4" : "ipv6")) return true;
    } else if (hostKey(e.replace(/^\[|\]$/g, "")) === host || (ip !== null && e === ip)) return true;
  }
  return false;
}

/** Why the policy refuses a URL's host before any lookup (a literal address or a refused name), or null. */
export function refusedUrl(url: string, policy: TargetPolicy): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return "not a URL";
  }
  const host = hostKey(u.hostname.replace(/^\[|\]$/g, ""));
  if (policy.allowPrivate || allowedByList(policy, host, isIP(host) ? host : null)) return null;
  if (isIP(host)) return refusedKind(host);
  if (REFUSED_NAMES.has(host) || host.endsWith(".localhost")) return host === "localhost" || host.endsWith(".localhost") ? "loopback" : "cloud metadata";
  return null;
}

/** Why the policy refuses connecting to `ip` for the URL's `host` (after DNS), or null. */
export function refusedAddress(host: string, ip: string, policy: TargetPolicy): string | null {
  if (policy.allowPrivate) return null;
  const h = hostKey(host.replace(/^\[|\]$/g, ""));
  const bare = ip.replace(/^\[|\]$/g, "");
  if (allowedByList(policy, h, bare)) return null;
  return refusedKind(bare);
}
