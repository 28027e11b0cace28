/**
 * Picks the store once at start: Redis when REDIS_URL, REDIS_CLUSTER_NODES or REDIS_SENTINELS is
 * set (with the counters on REDIS_QUOTA_URL's Redis when that is set too), otherwise the
 * in-process one. The wrappers around it (coalesce-hits.ts, fallback.ts) are composed where the
 * server starts (main.ts).
 */
import type { Config } from '../config.ts';
import type { Logger } from '../log.ts';
import { createMemoryStore } from './memory.ts';
import type { AddsHits, Clock, Store } from './types.ts';
import type { RedisObserver, RedisStoreOptions, RedisTarget } from './redis.ts';

export { StoreUnavailableError } from './errors.ts';

/** What one Redis of the store keeps (redis.ts). */
export type Holds = NonNullable<RedisStoreOptions['holds']>;

type StoreConfig = Pick<Config, 'redisUrl' | 'keyPrefix'> & Partial<Pick<Config, 'redisQuotaUrl' | 'redisCluster' | 'redisSentinel'>>;

/** Where clients and tokens go, when not in the process. */
function sharedRedis(config: StoreConfig): RedisTarget | undefined {
  if (config.redisCluster) return { cluster: config.redisCluster };
  if (config.redisSentinel) return { sentinel: config.redisSentinel };
  return config.redisUrl ? { url: config.redisUrl } : undefined;
}

export async function createStore(
  config: StoreConfig,
  options: { log: Logger; clock?: Clock; observe?: (holds: Holds) => RedisObserver },
): Promise<Store & Partial<AddsHits>> {
  const target = sharedRedis(config);
  if (!target) return createMemoryStore(options.clock ? { clock: options.clock } : {});
  // Loaded only when used: the memory store needs no Redis client.
  const { createRedisStore } = await import('./redis.ts');
  const { log, observe } = options;
  const redis = (at: RedisTarget, holds: Holds) =>
    createRedisStore({ ...at, keyPrefix: config.keyPrefix, log, holds, ...(observe ? { observer: observe(holds) } : {}) });
  if (!config.redisQuotaUrl) return redis(target, 'all');
  const { splitStore } = await import('./split.ts');
  const credentials = await redis(target, 'credentials');
  try {
    return splitStore(await redis({ url: config.redisQuotaUrl }, 'counters'), credentials);
  } catch (err) {
    await credentials.close();
    throw err;
  }
}
