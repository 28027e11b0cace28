/** IP addresses as the quotas count them, and the TRUST_PROXY list, parsed in one place. */
import net from 'node:net';

/**
 * Canonical text of an address: IPv4-mapped IPv6 (`::ffff:1.2.3.4`) becomes IPv4, zone ids are
 * dropped, IPv6 is lower-case. null when `raw` is not an IP address.
 */
export function normalizeIp(raw: string | undefined): string | null {
  if (!raw) return null;
  let ip = raw;
  const zone = ip.indexOf('%');
  if (zone !== -1) ip = ip.slice(0, zone);
  const kind = net.isIP(ip);
  if (kind === 4) return ip;
  if (kind !== 6) return null;
  ip = ip.toLowerCase();
  if (ip.startsWith('::ffff:') && net.isIPv4(ip.slice(7))) return ip.slice(7);
  return ip;
}

/** Parses TRUST_PROXY entries; throws on anything that is not an IP or a CIDR (config error at start). */
export function parseTrustList(entries: readonly string[]): net.BlockList {
  const list = new net.BlockList();
  for (const entry of entries) {
    const [addr = '', bits, ...rest] = entry.split('/');
    const ip = normalizeIp(addr.replace(/^\[(.*)\]$/, '$1'));
    const type = ip && net.isIPv4(ip) ? 'ipv4' : 'ipv6';
    const max = type === 'ipv4' ? 32 : 128;
    const prefix = bits === undefined ? max : Number(bits);
    if (!ip || rest.length > 0 || !/^\d{1,3}$/.test(bits ?? String(max)) || prefix > max) {
      throw new Error(`TRUST_PROXY: "${entry}" is not an IP address or CIDR range`);
    }
    if (prefix === max) list.addAddress(ip, type);
    else list.addSubnet(ip, prefix, type);
  }
  return list;
}
