/**
 * The client address behind per-IP quotas (content API anonymous quota, OAuth per-IP limits).
 *
 * It is the socket's peer address, unless that peer is a trusted proxy (TRUST_PROXY: exact IPs
 * or CIDRs, IPv4 and IPv6). Then X-Forwarded-For is walked right to left, skipping trusted hops,
 * and the first untrusted address is the client — the same rule as express's `trust proxy` with
 * an address list. Entries left of that one were written by the client and are never read, so a
 * forged X-Forwarded-For changes nothing; from an untrusted peer the header is not read at all.
 */
import type { IncomingMessage } from 'node:http';
import net from 'node:net';
import { normalizeIp, parseTrustList } from './ip.ts';
import { memoize } from '../memo.ts';

export type ClientIpResolver = (req: IncomingMessage) => string;

/** What an unreadable peer address (socket already gone) counts as: one shared bucket. */
const UNKNOWN = 'unknown';

/** An X-Forwarded-For entry may carry a port (`1.2.3.4:5678`, `[2001:db8::1]:443`). */
function stripPort(entry: string): string {
  if (entry.startsWith('[')) {
    const end = entry.indexOf(']');
    return end === -1 ? entry : entry.slice(1, end);
  }
  const colon = entry.indexOf(':');
  // Exactly one colon: IPv4 with a port. More than one: a bare IPv6 address.
  return colon !== -1 && entry.indexOf(':', colon + 1) === -1 ? entry.slice(0, colon) : entry;
}

export function createClientIpResolver(trustProxy: readonly string[]): ClientIpResolver {
  // A connection's address is one string for all its requests, so its form is looked up, not redone.
  const normalized = memoize((raw) => normalizeIp(raw) ?? UNKNOWN, 4096);
  const peerOf = (req: IncomingMessage) => {
    const raw = req.socket.remoteAddress;
    return raw === undefined ? UNKNOWN : normalized(raw);
  };
  if (trustProxy.length === 0) return peerOf;

  const trusted = parseTrustList(trustProxy);
  const isTrusted = (ip: string) => trusted.check(ip, net.isIPv4(ip) ? 'ipv4' : 'ipv6');

  return (req) => {
    let client = peerOf(req);
    if (client === UNKNOWN || !isTrusted(client)) return client;
    const header = req.headers['x-forwarded-for'];
    if (!header) return client;
    // Node joins repeated X-Forwarded-For headers with ", ", so one split covers both forms.
    const hops = (Array.isArray(header) ? header.join(',') : header).split(',');
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = normalizeIp(stripPort(hops[i]!.trim()));
      // A malformed entry was written by a trusted proxy that misbehaves: keep the last good hop.
      if (hop === null) return client;
      client = hop;
      if (!isTrusted(hop)) return hop;
    }
    return client;
  };
}

/**
 * The quota key of an address. IPv6 clients usually hold a whole prefix and can rotate addresses
 * inside it at will, so they are counted per /56 (the default of express-rate-limit 8's
 * `ipv6Subnet`); IPv4 per address.
 */
export function ipQuotaKey(ip: string): string {
  if (!ip.includes(':')) return ip;
  const groups = expandIPv6(ip);
  if (!groups) return ip;
  const hex = (n: number) => n.toString(16);
  return `${hex(groups[0]!)}:${hex(groups[1]!)}:${hex(groups[2]!)}:${hex(groups[3]! & 0xff00)}::/56`;
}

function expandIPv6(ip: string): number[] | null {
  const halves = ip.split('::');
  if (halves.length > 2) return null;
  const parse = (s: string) => (s === '' ? [] : s.split(':'));
  const left = parse(halves[0]!);
  const right = halves.length === 2 ? parse(halves[1]!) : [];
  // An embedded IPv4 tail (::1.2.3.4 forms other than ::ffff:) takes two groups.
  const tail = right.length ? right : left;
  const last = tail[tail.length - 1];
  if (last && last.includes('.')) {
    const o = last.split('.').map(Number);
    tail.splice(tail.length - 1, 1, ((o[0]! << 8) | o[1]!).toString(16), ((o[2]! << 8) | o[3]!).toString(16));
  }
  const missing = 8 - left.length - right.length;
  if (missing < 0 || (halves.length === 1 && missing !== 0)) return null;
  const all = [...left, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...right];
  return all.map((g) => parseInt(g, 16));
}
