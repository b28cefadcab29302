// Address classification for the auth rules (design §7): which peers are loopback, which Host and
// Origin values name this machine (the DNS-rebinding defence), and the key under which a peer's
// failed attempts are counted.
import { isIPv4, isIPv6 } from "node:net";

/** True for 127.0.0.0/8, ::1 and IPv4-mapped 127.x (node reports `::ffff:127.0.0.1` on dual-stack sockets). */
export function isLoopbackAddress(address: string | null | undefined): boolean {
  if (!address) return false;
  const a = stripZone(address.toLowerCase());
  if (isIPv4(a)) return a.startsWith("127.");
  const groups = ipv6Groups(a);
  if (!groups) return false;
  const zeros = (n: number): boolean => groups.slice(0, n).every((g) => g === 0);
  if (zeros(7) && groups[7] === 1) return true;
  return zeros(5) && groups[5] === 0xffff && (groups[6] ?? 0) >> 8 === 127;
}

/**
 * The key a peer's failures are counted under. IPv4 (mapped or not) by address; IPv6 by its /64,
 * because one host usually holds a whole /64 and could otherwise rotate addresses to dodge the limit.
 */
export function peerKey(address: string | null | undefined): string {
  if (!address) return "unknown";
  const a = stripZone(address.toLowerCase());
  if (isIPv4(a)) return a;
  const groups = ipv6Groups(a);
  if (!groups) return a;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [hi = 0, lo = 0] = groups.slice(6);
    return `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  }
  return `${groups.slice(0, 4).map((g) => g.toString(16)).join(":")}::/64`;
}

/**
 * Whether a Host header (`name[:port]` or `[v6][:port]`) names this machine: `localhost` or a
 * loopback literal. A DNS-rebinding page reaches 127.0.0.1 under its own name, so its Host fails.
 */
export function isLocalHost(host: string | null | undefined): boolean {
  if (!host) return false;
  const h = host.trim().toLowerCase();
  let name: string;
  if (h.startsWith("[")) {
    const end = h.indexOf("]");
    if (end < 0 || !/^(:\d{1,5})?$/.test(h.slice(end + 1))) return false;
    name = h.slice(1, end);
  } else {
    const m = /^([^:]+)(:\d{1,5})?$/.exec(h);
    if (!m?.[1]) return false;
    name = m[1];
  }
  return name === "localhost" || isLoopbackAddress(name);
}

/** Whether an Origin header is an http(s) origin on this machine (any port). */
export function isLocalOrigin(origin: string | null | undefined): boolean {
  if (!origin) return false;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return (url.protocol === "http:" || url.protocol === "https:") && isLocalHost(url.host);
}

function stripZone(a: string): string {
  const pct = a.indexOf("%");
  return pct < 0 ? a : a.slice(0, pct);
}

/** The eight 16-bit groups of an IPv6 address, or null when it is not one. */
function ipv6Groups(a: string): number[] | null {
  if (!isIPv6(a)) return null;
  let text = a;
  // An embedded IPv4 tail (::ffff:1.2.3.4) becomes two hex groups.
  const lastColon = text.lastIndexOf(":");
  const tail = text.slice(lastColon + 1);
  if (tail.includes(".")) {
    const [b0 = 0, b1 = 0, b2 = 0, b3 = 0] = tail.split(".").map(Number);
    text = `${text.slice(0, lastColon + 1)}${((b0 << 8) | b1).toString(16)}:${((b2 << 8) | b3).toString(16)}`;
  }
  const parse = (part: string): number[] => (part === "" ? [] : part.split(":").map((g) => parseInt(g, 16)));
  const gap = text.indexOf("::");
  if (gap < 0) return parse(text);
  const head = parse(text.slice(0, gap));
  const rest = parse(text.slice(gap + 2));
  return [...head, ...new Array<number>(8 - head.length - rest.length).fill(0), ...rest];
}
