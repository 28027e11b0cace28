/** Configuration, parsed once from the environment. Everything else receives a Config. */
import { DEFAULT_PORT, distDirFrom, envInt as int, readModelDirFrom, siteUrlFrom, type Env } from '../formats/settings.ts';
import { parseAllowedHosts } from './net/host.ts';
import { parseTrustList } from './net/ip.ts';
import { API_BASE } from './paths.ts';

// The settings the build reads too live in formats/; the server's users find them here as well.
export { DEFAULT_PORT, DEFAULT_SITE_URL, parseSiteUrl, ROOT, siteUrlFrom } from '../formats/settings.ts';

export interface Config {
  port: number;
  host: string;
  /** Public identity of the site, no trailing slash. */
  siteUrl: string;
  /** `${siteUrl}/wp-json/agentes/v1` */
  baseUrl: string;
  redisUrl: string | undefined;
  /**
   * Where the quota counters go when they are kept apart from clients and tokens (REDIS_QUOTA_URL):
   * a Redis that may evict (counters are cheap to lose) beside REDIS_URL's, which must not.
   */
  redisQuotaUrl: string | undefined;
  /** REDIS_CLUSTER_NODES: a Redis Cluster instead of REDIS_URL's one node. */
  redisCluster: RedisClusterConfig | undefined;
  /** REDIS_SENTINELS and REDIS_SENTINEL_NAME: a master found through Sentinel instead of REDIS_URL. */
  redisSentinel: RedisSentinelConfig | undefined;
  keyPrefix: string;
  /** Host names answered besides SITE_URL's (net/host.ts); `*`: any. */
  allowedHosts: string[];
  /** Addresses (exact IPs or CIDRs) of proxies whose X-Forwarded-For is believed. Empty: none. */
  trustProxy: string[];
  rateLimit: { anonymous: number; identified: number; windowSeconds: number };
  /** read_page cuts Markdown longer than this many characters at a paragraph boundary. */
  readPageMaxChars: number;
  readModelDir: string;
  /**
   * CURSOR_SECRET: signs search_pages cursors with the build's content id (search/cursor.ts).
   * '' when unset: cursors then bind the content alone, and need no secret to be shared.
   */
  cursorSecret: string;
  /**
   * READ_MODEL_CACHE_MB: the budget of the hot set of page representations per loaded build
   * (read-model/page-store.ts); pages beyond it are read from the build's files when asked for.
   */
  readModelCacheBytes: number;
  /** Follow new read-model builds by watching `current` (READ_MODEL_WATCH=off: only on SIGHUP). */
  readModelWatch: boolean;
  distDir: string;
  /** Set only when v1 is announced as deprecated (conformance.md §8). */
  deprecation: { deprecatedAt: Date; sunsetAt: Date } | null;
  logLevel: 'silent' | 'error' | 'info';
  /** The Prometheus listener (METRICS_PORT, METRICS_HOST); null: no metrics listener. */
  metrics: { port: number; host: string } | null;
}

/** Some nodes of the cluster, as `redis://` or `rediss://` URLs; their scheme and credentials apply to every node. */
export interface RedisClusterConfig { nodes: string[] }

export interface RedisSentinelConfig {
  /** The master's name in the sentinels' configuration. */
  name: string;
  /** The sentinels, as URLs (their credentials are the sentinels' own). */
  sentinels: string[];
  /** The master's and replicas' ACL user and password (REDIS_USERNAME, REDIS_PASSWORD). */
  username: string | undefined;
  password: string | undefined;
}

/** A full ISO 8601 date, with or without a time (`2027-03-01`, `2027-03-01T00:00:00Z`): `1` is not one. */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

function date(env: Env, name: string): Date | null {
  const raw = env[name];
  if (!raw) return null;
  const d = new Date(raw);
  if (!ISO_DATE.test(raw) || Number.isNaN(d.getTime())) throw new Error(`${name} must be a full ISO 8601 date (2027-03-01 or 2027-03-01T00:00:00Z), got "${raw}"`);
  return d;
}

/** A URL as it may be printed: its user and password replaced, whether it parses or not. */
export function redactUrl(raw: string): string {
  const redacted = raw.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, '$1***@');
  return redacted !== raw || !raw.includes('@') ? redacted : '(a value with credentials, not shown)';
}

/** REDIS_URL or REDIS_QUOTA_URL, checked at start: an error names it without printing its credentials. */
function redisUrl(env: Env, name: 'REDIS_URL' | 'REDIS_QUOTA_URL'): string | undefined {
  const raw = env[name];
  if (!raw) return undefined;
  let url: URL | undefined;
  try { url = new URL(raw); } catch { url = undefined; }
  if (!url || (url.protocol !== 'redis:' && url.protocol !== 'rediss:') || !url.hostname) {
    throw new Error(`${name} must be a redis:// or rediss:// URL with a host and a valid port, got "${redactUrl(raw)}"`);
  }
  return raw;
}

/** REDIS_QUOTA_URL: the counters' own Redis, beside the one of clients and tokens (any topology). */
function quotaUrl(env: Env): string | undefined {
  const url = redisUrl(env, 'REDIS_QUOTA_URL');
  if (url !== undefined && !env.REDIS_URL && !env.REDIS_CLUSTER_NODES && !env.REDIS_SENTINELS) {
    throw new Error('REDIS_QUOTA_URL needs REDIS_URL, REDIS_CLUSTER_NODES or REDIS_SENTINELS: clients and tokens are kept there');
  }
  return url;
}

/**
 * A comma-separated list of `host:port` or `redis://`/`rediss://` URLs, as URLs. Errors name the
 * variable and the entry's position, and print an entry only with its credentials hidden.
 */
function nodeList(env: Env, name: 'REDIS_CLUSTER_NODES' | 'REDIS_SENTINELS'): string[] | undefined {
  const raw = env[name];
  if (!raw) return undefined;
  const entries = raw.split(',').map((s) => s.trim());
  const urls = entries.map((entry, i) => {
    const candidate = /^[a-z][a-z0-9+.-]*:\/\//i.test(entry) ? entry : `redis://${entry}`;
    let url: URL | undefined;
    try { url = new URL(candidate); } catch { url = undefined; }
    if (!url || (url.protocol !== 'redis:' && url.protocol !== 'rediss:') || !url.hostname || !url.port || (url.pathname !== '' && url.pathname !== '/')) {
      throw new Error(`${name}: entry ${i + 1} must be host:port or a redis:// or rediss:// URL with a host and a port, got "${redactUrl(entry)}"`);
    }
    return candidate;
  });
  // One scheme and one set of credentials apply to every node the list reaches.
  if (new Set(urls.map(sharedPart)).size > 1) throw new Error(`${name}: every entry must have the same scheme, user and password`);
  return urls;
}

const sharedPart = (url: string) => {
  const u = new URL(url);
  return `${u.protocol}${u.username}:${u.password}`;
};

function clusterConfig(env: Env): RedisClusterConfig | undefined {
  const nodes = nodeList(env, 'REDIS_CLUSTER_NODES');
  return nodes && { nodes };
}

function sentinelConfig(env: Env): RedisSentinelConfig | undefined {
  const sentinels = nodeList(env, 'REDIS_SENTINELS');
  const name = env.REDIS_SENTINEL_NAME || undefined;
  if (!sentinels) {
    if (name) throw new Error('REDIS_SENTINEL_NAME needs REDIS_SENTINELS: the sentinels to ask for that master');
    if (env.REDIS_USERNAME || env.REDIS_PASSWORD) {
      throw new Error('REDIS_USERNAME and REDIS_PASSWORD are for the nodes behind REDIS_SENTINELS; with REDIS_URL or REDIS_CLUSTER_NODES put them in the URLs');
    }
    return undefined;
  }
  if (!name) throw new Error('REDIS_SENTINELS needs REDIS_SENTINEL_NAME: the name of the master the sentinels watch');
  if (env.REDIS_USERNAME && !env.REDIS_PASSWORD) throw new Error('REDIS_USERNAME needs REDIS_PASSWORD');
  return { name, sentinels, username: env.REDIS_USERNAME || undefined, password: env.REDIS_PASSWORD || undefined };
}

/** One place for clients and tokens: one node, a Cluster or a Sentinel-watched master, never two. */
function oneRedis(env: Env): void {
  const set = (['REDIS_URL', 'REDIS_CLUSTER_NODES', 'REDIS_SENTINELS'] as const).filter((name) => env[name]);
  if (set.length > 1) throw new Error(`${set.join(' and ')} are set: choose one of them`);
}

function trustList(env: Env): string[] {
  const entries = (env.TRUST_PROXY || '').split(',').map((s) => s.trim()).filter(Boolean);
  parseTrustList(entries); // throws, naming the variable and the entry, at start
  return entries;
}

/** At least 16 characters when set: a short secret would be guessed from one cursor. */
function cursorSecret(env: Env): string {
  const raw = env.CURSOR_SECRET ?? '';
  if (raw !== '' && raw.length < 16) throw new Error('CURSOR_SECRET must be at least 16 characters (or unset)');
  return raw;
}

export function parseConfig(env: Env = process.env): Config {
  const siteUrl = siteUrlFrom(env);
  const deprecatedAt = date(env, 'API_DEPRECATED_AT');
  const sunsetAt = date(env, 'API_SUNSET_AT');
  if ((deprecatedAt === null) !== (sunsetAt === null)) throw new Error('API_DEPRECATED_AT and API_SUNSET_AT go together');
  if (deprecatedAt && sunsetAt && sunsetAt < deprecatedAt) throw new Error('API_SUNSET_AT must not be earlier than API_DEPRECATED_AT');
  const watch = env.READ_MODEL_WATCH || 'on';
  if (watch !== 'on' && watch !== 'off') throw new Error('READ_MODEL_WATCH must be on or off');
  const logLevel = env.LOG_LEVEL || 'info';
  oneRedis(env);
  if (logLevel !== 'silent' && logLevel !== 'error' && logLevel !== 'info') throw new Error(`LOG_LEVEL must be silent, error or info`);
  return {
    port: int(env, 'PORT', DEFAULT_PORT, 0),
    host: env.HOST || '127.0.0.1',
    siteUrl,
    baseUrl: siteUrl + API_BASE,
    redisUrl: redisUrl(env, 'REDIS_URL'),
    redisQuotaUrl: quotaUrl(env),
    redisCluster: clusterConfig(env),
    redisSentinel: sentinelConfig(env),
    keyPrefix: env.KEY_PREFIX || 'agentes',
    allowedHosts: parseAllowedHosts(env.ALLOWED_HOSTS),
    trustProxy: trustList(env),
    rateLimit: {
      anonymous: int(env, 'RATE_LIMIT_ANONYMOUS', 60),
      identified: int(env, 'RATE_LIMIT_IDENTIFIED', 600),
      windowSeconds: int(env, 'RATE_LIMIT_WINDOW', 60),
    },
    readPageMaxChars: int(env, 'READ_PAGE_MAX_CHARS', 20000, 1000),
    readModelDir: readModelDirFrom(env),
    cursorSecret: cursorSecret(env),
    readModelCacheBytes: int(env, 'READ_MODEL_CACHE_MB', 64, 0) * 1024 * 1024,
    readModelWatch: watch === 'on',
    distDir: distDirFrom(env),
    deprecation: deprecatedAt && sunsetAt ? { deprecatedAt, sunsetAt } : null,
    logLevel,
    metrics: env.METRICS_PORT ? { port: int(env, 'METRICS_PORT', 0, 0), host: env.METRICS_HOST || '127.0.0.1' } : null,
  };
}
