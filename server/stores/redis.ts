/**
 * Redis store (REDIS_URL, REDIS_CLUSTER_NODES or REDIS_SENTINELS): the same Store as memory.ts,
 * shared by every server process. The connection to one node, a Cluster or a Sentinel-watched
 * master comes from one factory per topology (redis-connection.ts); everything below holds for
 * each of them.
 *
 * Hot path: `hit` (and `addHits`, its `+n`) is ONE `EVALSHA` of a small Lua script (INCRBY,
 * expiry on the window's first hits, PTTL), so N processes sharing one Redis admit exactly the
 * limit and a request costs at most one round trip (DEVELOPERS.md records why one EVALSHA and not
 * MULTI/EXEC). The server wraps the store so that hits of one key arriving while its previous
 * EVALSHA is in flight go together as one `addHits` (coalesce-hits.ts, composed in main.ts).
 *
 * Bounded waits, without node-redis's per-command timeout. node-redis 6 wraps every command in
 * `AbortSignal.timeout(5000)` by default (a timer, a signal and a listener per command, a large
 * share of a command's cost), so it is switched off (`commandOptions.timeout: 0`) and a
 * request can still never hang on Redis for more than about a second:
 *   - connection down: `disableOfflineQueue` makes commands fail at once instead of queueing;
 *   - connecting: `connectTimeout` bounds each attempt; the first start gives up after a few tries;
 *   - connected but not answering (hung server, silent network partition): every command is
 *     registered in one FIFO of deadlines swept by a single unref'd interval, which rejects what
 *     is older than COMMAND_DEADLINE_MS — one array push per command instead of one timer — so no
 *     command waits longer than WAIT_BOUND_MS;
 *   - overload: `commandsQueueMaxLength` caps what may wait in node-redis's queue;
 *   - a server that answers but cannot serve (LOADING after a restart, BUSY script, READONLY
 *     replica after a failover, OOM, MISCONF, redirections a Cluster client did not follow):
 *     the same as down;
 *   - once a command missed its deadline, commands fail at once for BREAKER_MS, then one command
 *     probes (a circuit breaker): a hung Redis costs one request the bound per BREAKER_MS, not
 *     every request. (Down or answering errors, Redis fails commands fast by itself: no breaker.)
 * A failed command rejects with StoreUnavailableError: content quotas fall back to per-process
 * counting (stores/fallback.ts), token checks and OAuth answer 503 (never a hang,
 * never an unlimited pass). After an outage the client reconnects every RECONNECT_MAX_MS at most,
 * so service is back within about half a second of Redis.
 *
 * Keys: `${prefix}:{${key}}`. The braces are a Redis Cluster hash tag around the variable part;
 * every operation touches one key, so any key layout works on a cluster as well.
 */
import { createHash } from 'node:crypto';
import { ErrorReply } from 'redis';
import type { RedisClusterConfig, RedisSentinelConfig } from '../config.ts';
import type { Logger } from '../log.ts';
import { StoreUnavailableError } from './errors.ts';
import type { ConnectionEvents, RedisConnection } from './redis-connection.ts';
import { nodeConnection } from './redis-node.ts';
import { clusterConnection } from './redis-cluster.ts';
import { sentinelConnection } from './redis-sentinel.ts';
import type { AddsHits, Store, WindowCount } from './types.ts';

export const COMMAND_DEADLINE_MS = 950;
const SWEEP_MS = 50;
/** The longest a request waits on Redis: the deadline plus one sweep. */
export const WAIT_BOUND_MS = COMMAND_DEADLINE_MS + SWEEP_MS;
export const BREAKER_MS = 250;
/** Connection failures that are part of running against a network service: logged without a stack. */
const EXPECTED_SOCKET_ERROR = /ECONNREFUSED|ECONNRESET|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN|Socket closed unexpectedly|Connection timeout|socket hang up/i;
/** Error replies that mean "cannot serve now", not "bad command": treated as an outage. */
const UNAVAILABLE_REPLY = /^(LOADING|BUSY|READONLY|MASTERDOWN|CLUSTERDOWN|TRYAGAIN|NOREPLICAS|MISCONF|OOM|MOVED|ASK)\b/;

/**
 * KEYS[1] counter, ARGV[1] window in ms, ARGV[2] hits to add → {count, pttl}. The expiry is set by
 * the increment that created the key only.
 */
const HIT_SCRIPT = `
local n = tonumber(ARGV[2])
local c = redis.call('INCRBY', KEYS[1], n)
if c == n then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  return {c, tonumber(ARGV[1])}
end
local t = redis.call('PTTL', KEYS[1])
if t < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  t = tonumber(ARGV[1])
end
return {c, t}
`;

/** KEYS[1] counter → {count, pttl} without counting. */
const PEEK_SCRIPT = `
local c = tonumber(redis.call('GET', KEYS[1]) or '0') or 0
return {c, redis.call('PTTL', KEYS[1])}
`;

const sha1 = (s: string) => createHash('sha1').update(s).digest('hex');

interface Pending { deadline: number; done: boolean; reject: (e: Error) => void }

/** Where the store's Redis is: one node, a Cluster, or a master found through Sentinel. */
export type RedisTarget = { url: string } | { cluster: RedisClusterConfig } | { sentinel: RedisSentinelConfig };

function connectionFor(target: RedisTarget, started: () => boolean, events: ConnectionEvents): RedisConnection {
  if ('cluster' in target) return clusterConnection({ nodes: target.cluster.nodes, started, events });
  if ('sentinel' in target) return sentinelConnection({ ...target.sentinel, started, events });
  return nodeConnection({ url: target.url, started, events });
}

export type RedisStoreOptions = RedisTarget & {
  keyPrefix: string;
  log: Logger;
  /** What this Redis keeps: everything, or only the counters or only clients and tokens (split.ts). */
  holds?: 'all' | 'counters' | 'credentials';
  /** Told of the connection and the circuit breaker as they change, and of each answer's round trip. */
  observer?: RedisObserver;
};

/** What a Redis store tells as it runs: health probes and metrics read its state from it, with no command of their own. */
export interface RedisObserver {
  /** The connection is ready (true) or lost (false). */
  connection(ready: boolean): void;
  /** The circuit breaker opened (a command missed its deadline) or closed (a command answered). */
  breaker(open: boolean): void;
  /** A command answered, after this many seconds. */
  roundTrip(seconds: number): void;
}

/**
 * Says, at start and after each reconnection, when this Redis may evict registered clients and
 * tokens: every key has a time to live, so any policy but `noeviction` can drop them under
 * memory pressure (then 401 for a client that registered). A Redis that holds only counters may
 * evict. Where CONFIG is not allowed (managed services), says that it could not check, once.
 */
async function checkEviction(connection: RedisConnection, log: Logger, state: { unreadable: boolean }): Promise<void> {
  let masters: Awaited<ReturnType<RedisConnection['masters']>>;
  try {
    masters = await connection.masters();
  } catch {
    return; // not connected: checked again at the next 'ready'
  }
  await Promise.all(masters.map(async (master) => {
    let policy: string;
    try {
      const reply = await master.send(['CONFIG', 'GET', 'maxmemory-policy']);
      const pairs = Array.isArray(reply) ? reply.map(String) : Object.entries(reply as Record<string, unknown>).flat().map(String);
      policy = pairs[pairs.indexOf('maxmemory-policy') + 1] ?? '';
    } catch {
      if (!state.unreadable) log.info('redis maxmemory-policy could not be read (CONFIG not allowed); make sure it is noeviction', { redis: connection.where });
      state.unreadable = true;
      return;
    }
    if (policy !== '' && policy !== 'noeviction') {
      const which = masters.length > 1 ? ` (on the master at ${master.where})` : '';
      log.error(`redis maxmemory-policy is ${policy}: registered clients and tokens can be evicted when Redis is full. Use noeviction, or keep the quota counters on their own Redis (REDIS_QUOTA_URL); see README, "Redis".${which}`);
    }
  }));
}

export async function createRedisStore(options: RedisStoreOptions): Promise<Store & AddsHits> {
  const { log } = options;
  const prefix = options.keyPrefix + ':{';
  const k = (key: string) => prefix + key + '}';

  /** Connected once: from then on a lost connection is retried forever (redis-connection.ts). */
  let started = false;
  // One log line per outage, not one per failed reconnection attempt; an expected failure (refused,
  // reset, unreachable, timed out) by its message, without a stack.
  let down = false;
  const observer = options.observer;
  // Circuit breaker: 0 closed; else commands fail at once until then, and the first one after probes.
  let openUntil = 0;
  const policyState = { unreadable: false };
  const holdsCredentials = (options.holds ?? 'all') !== 'counters';
  const connection: RedisConnection = connectionFor(options, () => started, {
    error(err) {
      if (down) return;
      down = true;
      observer?.connection(false);
      if (EXPECTED_SOCKET_ERROR.test(`${(err as { code?: string }).code ?? ''} ${err.message}`)) log.error(`redis connection error: ${err.message}`);
      else log.error('redis connection error', err);
    },
    ready() {
      if (openUntil !== 0) observer?.breaker(false);
      openUntil = 0;
      observer?.connection(true);
      if (down) { down = false; log.info('redis connection restored'); }
      // On a reconnection only (a Cluster's nodes each get ready at start): the first start
      // checks once connect() has returned (below).
      if (started && holdsCredentials) void checkEviction(connection, log, policyState);
    },
  });

  try {
    await connection.connect();
  } catch (err) {
    connection.destroy();
    throw new StoreUnavailableError(`cannot connect to Redis at ${connection.where}`, { cause: err });
  }
  started = true;
  if (holdsCredentials) await checkEviction(connection, log, policyState);

  // Deadlines: every command gets the same delay, so the FIFO is in deadline order whichever node
  // answers first; a moving head suffices.
  let pending: Pending[] = [];
  let head = 0;
  const sweeper = setInterval(() => {
    const now = Date.now();
    while (head < pending.length) {
      const p = pending[head]!;
      if (!p.done) {
        if (p.deadline > now) break;
        p.done = true;
        if (openUntil === 0) observer?.breaker(true);
        openUntil = now + BREAKER_MS;
        p.reject(new StoreUnavailableError(`Redis did not answer within ${COMMAND_DEADLINE_MS} ms`));
      }
      head++;
    }
    if (head > 1024 && head * 2 > pending.length) { pending = pending.slice(head); head = 0; }
  }, SWEEP_MS);
  sweeper.unref();

  const send = <T>(key: string | undefined, args: string[]): Promise<T> => {
    const now = Date.now();
    if (openUntil !== 0) {
      if (now < openUntil) return Promise.reject(new StoreUnavailableError('Redis is unavailable (failed recently)'));
      openUntil = now + BREAKER_MS; // this command probes; the others keep failing fast meanwhile
    }
    return new Promise<T>((resolve, reject) => {
      const entry: Pending = { deadline: now + COMMAND_DEADLINE_MS, done: false, reject };
      pending.push(entry);
      const sent = observer ? performance.now() : 0;
      (connection.send(key, args) as Promise<T>).then(
        (value) => {
          if (entry.done) return;
          entry.done = true;
          if (observer) {
            observer.roundTrip((performance.now() - sent) / 1000);
            if (openUntil !== 0) observer.breaker(false);
          }
          openUntil = 0;
          resolve(value);
        },
        (err: unknown) => {
          if (entry.done) return;
          entry.done = true;
          // Replies from Redis (wrong type, NOSCRIPT…) pass through; transport failures and
          // "cannot serve now" replies are an outage.
          reject(isReplyError(err) && !UNAVAILABLE_REPLY.test(String((err as Error).message))
            ? err
            : new StoreUnavailableError('Redis is unavailable', { cause: err }));
        },
      );
    });
  };

  const hitSha = sha1(HIT_SCRIPT);
  const peekSha = sha1(PEEK_SCRIPT);
  /** EVALSHA, and EVAL once when the server lost its script cache (restart, SCRIPT FLUSH). */
  const script = (sha: string, source: string, key: string, ...args: string[]): Promise<unknown> => {
    const tail = [key, ...args];
    // One promise step on the hot path: no async function around it.
    return send(key, ['EVALSHA', sha, '1', ...tail]).catch((err: unknown) => {
      if (!isReplyError(err) || !String((err as Error).message).startsWith('NOSCRIPT')) throw err;
      return send(key, ['EVAL', source, '1', ...tail]);
    });
  };

  const toWindow = (reply: unknown, windowSeconds: number): WindowCount => {
    const [count, pttl] = reply as [number, number];
    if (pttl <= 0) return { count: Number(count), resetSeconds: windowSeconds };
    return { count: Number(count), resetSeconds: Math.max(1, Math.ceil(Number(pttl) / 1000)) };
  };

  const addHits = (key: string, n: number, windowSeconds: number): Promise<WindowCount> =>
    script(hitSha, HIT_SCRIPT, k(key), String(windowSeconds * 1000), String(n)).then((reply) => toWindow(reply, windowSeconds));

  return {
    hit: (key, windowSeconds) => addHits(key, 1, windowSeconds),
    addHits,
    async peek(key, windowSeconds) {
      const w = toWindow(await script(peekSha, PEEK_SCRIPT, k(key)), windowSeconds);
      return w.count === 0 ? { count: 0, resetSeconds: windowSeconds } : w;
    },
    async get(key) {
      const v = await send<string | null>(k(key), ['GET', k(key)]);
      return v === null ? null : String(v);
    },
    async set(key, value, ttlSeconds) {
      await send(k(key), ['SET', k(key), value, 'EX', String(ttlSeconds)]);
    },
    async setIfAbsent(key, value, ttlSeconds) {
      return (await send<string | null>(k(key), ['SET', k(key), value, 'NX', 'EX', String(ttlSeconds)])) !== null;
    },
    async touch(key, ttlSeconds) {
      return Number(await send(k(key), ['EXPIRE', k(key), String(ttlSeconds)])) === 1;
    },
    async del(key) {
      return Number(await send(k(key), ['DEL', k(key)])) > 0;
    },
    async close() {
      clearInterval(sweeper);
      for (let i = head; i < pending.length; i++) {
        const p = pending[i]!;
        if (!p.done) { p.done = true; p.reject(new StoreUnavailableError('store closed')); }
      }
      pending = [];
      head = 0;
      await connection.close();
    },
  };
}

/** An answer from the server (SimpleError, BlobError…), not a transport failure. */
const isReplyError = (err: unknown): boolean => err instanceof ErrorReply;


