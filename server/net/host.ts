/**
 * The names this server answers for (DNS rebinding: a page on another name that resolves to this
 * server must not read it, conformance of the MCP transport's security rules): SITE_URL's host
 * name, the names in ALLOWED_HOSTS, and every loopback name when SITE_URL is itself a loopback
 * name (a local `npm start`). `*` in ALLOWED_HOSTS turns the check off, for operators whose proxy
 * already checks it. Ports are not compared: a proxy may forward on another one.
 */
import type { Config } from '../config.ts';

const LOOPBACK = ['localhost', '127.0.0.1', '[::1]', '::1'];
const NAME = /^(?:\[[0-9a-f:.]+\]|[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*)$/;

/** ALLOWED_HOSTS, checked at start: host names or IP addresses without a port, or `*`. */
export function parseAllowedHosts(raw: string | undefined): string[] {
  const entries = (raw || '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
  for (const entry of entries) {
    if (entry !== '*' && !NAME.test(entry)) throw new Error(`ALLOWED_HOSTS: "${entry}" is not a host name (no scheme, no port)`);
  }
  return entries;
}

export interface HostPolicy {
  siteUrl: string;
  /** Whether a `Host` header value names this site. */
  allowsHost(host: string): boolean;
  /** Whether an `Origin` header value is a page of this site (or a name it answers for). */
  allowsOrigin(origin: string): boolean;
}

/** `Host: Example.org:8080` → `example.org`; `[::1]:80` → `[::1]`. */
function nameOf(host: string): string {
  const end = host.startsWith('[') ? host.indexOf(']') + 1 : host.lastIndexOf(':') === -1 ? host.length : host.lastIndexOf(':');
  let name = host.slice(0, end > 0 ? end : host.length).toLowerCase();
  if (name.endsWith('.')) name = name.slice(0, -1);
  return name;
}

export function createHostPolicy(config: Pick<Config, 'siteUrl' | 'allowedHosts'>): HostPolicy {
  const site = new URL(config.siteUrl).hostname.toLowerCase();
  const names = new Set([site, ...config.allowedHosts]);
  if (LOOPBACK.includes(site)) for (const n of LOOPBACK) names.add(n);
  const any = names.has('*');
  return {
    siteUrl: config.siteUrl,
    // The per-request caller keeps the verdict of each Host value (http/client-errors.ts).
    allowsHost: (host) => any || names.has(nameOf(host)),
    allowsOrigin: (origin) => {
      if (any) return true;
      let url: URL;
      try { url = new URL(origin); } catch { return false; }
      return (url.protocol === 'https:' || url.protocol === 'http:') && names.has(url.hostname.toLowerCase());
    },
  };
}
