/**
 * Picks the store once at start: Redis when REDIS_URL, REDIS_CLUSTER_NODES or REDIS_SENTINELS is
 * set (with the counters on REDIS_QUOTA_URL's Redis when that is set too), otherwise the
 * in-process one.
 */
import type { Config } from '../config.ts';
import type { Logger } from '../log.ts';
import { createMemoryStore } from './memory.ts';
import type { RedisTarget } from './redis.ts';
import type { Clock, Store } from './types.ts';

export { StoreUnavailableError } from './errors.ts';

type StoreConfig = Pick<Config, 'redisUrl' | 'keyPrefix'> & Partial<Pick<Config, 'redisQuotaUrl' | 'redisCluster' | 'redisSentinel'>>;

/** Where clients and tokens go, when not in the process. */
function sharedRedis(config: StoreConfig): RedisTarget | undefined {
  if (config.redisCluster) return { cluster: config.redisCluster };
  if (config.redisSentinel) return { sentinel: config.redisSentinel };
  return config.redisUrl ? { url: config.redisUrl } : undefined;
}

export async function createStore(config: StoreConfig, options: { log: Logger; clock?: Clock }): Promise<Store> {
  const target = sharedRedis(config);
  if (!target) return createMemoryStore(options.clock ? { clock: options.clock } : {});
  // Loaded only when used: the memory store needs no Redis client.
  const { createRedisStore } = await import('./redis.ts');
  const { log } = options;
  if (!config.redisQuotaUrl) return createRedisStore({ ...target, keyPrefix: config.keyPrefix, log, holds: 'all' });
  const { splitStore } = await import('./split.ts');
  const credentials = await createRedisStore({ ...target, keyPrefix: config.keyPrefix, log, holds: 'credentials' });
  try {
    return splitStore(await createRedisStore({ url: config.redisQuotaUrl, keyPrefix: config.keyPrefix, log, holds: 'counters' }), credentials);
  } catch (err) {
    await credentials.close();
    throw err;
  }
}
