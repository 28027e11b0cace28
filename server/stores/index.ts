/**
 * Picks the store once at start: Redis when REDIS_URL is set (with the counters on
 * REDIS_QUOTA_URL's Redis when that is set too), otherwise the in-process one.
 */
import type { Config } from '../config.ts';
import type { Logger } from '../log.ts';
import { createMemoryStore } from './memory.ts';
import type { Clock, Store } from './types.ts';
import type { RedisObserver, RedisStoreOptions } from './redis.ts';

export { StoreUnavailableError } from './errors.ts';

/** What one Redis of the store keeps (redis.ts). */
export type Holds = NonNullable<RedisStoreOptions['holds']>;

export async function createStore(
  config: Pick<Config, 'redisUrl' | 'keyPrefix'> & Partial<Pick<Config, 'redisQuotaUrl'>>,
  options: { log: Logger; clock?: Clock; observe?: (holds: Holds) => RedisObserver },
): Promise<Store> {
  if (!config.redisUrl) return createMemoryStore(options.clock ? { clock: options.clock } : {});
  // Loaded only when used: the memory store needs no Redis client.
  const { createRedisStore } = await import('./redis.ts');
  const { log, observe } = options;
  const redis = (url: string, holds: Holds) =>
    createRedisStore({ url, keyPrefix: config.keyPrefix, log, holds, ...(observe ? { observer: observe(holds) } : {}) });
  if (!config.redisQuotaUrl) return redis(config.redisUrl, 'all');
  const { splitStore } = await import('./split.ts');
  const credentials = await redis(config.redisUrl, 'credentials');
  try {
    return splitStore(await redis(config.redisQuotaUrl, 'counters'), credentials);
  } catch (err) {
    await credentials.close();
    throw err;
  }
}
