/**
 * Picks the store once at start: Redis when REDIS_URL is set (with the counters on
 * REDIS_QUOTA_URL's Redis when that is set too), otherwise the in-process one.
 */
import type { Config } from '../config.ts';
import type { Logger } from '../log.ts';
import { createMemoryStore } from './memory.ts';
import type { Clock, Store } from './types.ts';

export { StoreUnavailableError } from './errors.ts';

export async function createStore(
  config: Pick<Config, 'redisUrl' | 'keyPrefix'> & Partial<Pick<Config, 'redisQuotaUrl'>>,
  options: { log: Logger; clock?: Clock },
): Promise<Store> {
  if (!config.redisUrl) return createMemoryStore(options.clock ? { clock: options.clock } : {});
  // Loaded only when used: the memory store needs no Redis client.
  const { createRedisStore } = await import('./redis.ts');
  const { log } = options;
  if (!config.redisQuotaUrl) return createRedisStore({ url: config.redisUrl, keyPrefix: config.keyPrefix, log, holds: 'all' });
  const { splitStore } = await import('./split.ts');
  const credentials = await createRedisStore({ url: config.redisUrl, keyPrefix: config.keyPrefix, log, holds: 'credentials' });
  try {
    return splitStore(await createRedisStore({ url: config.redisQuotaUrl, keyPrefix: config.keyPrefix, log, holds: 'counters' }), credentials);
  } catch (err) {
    await credentials.close();
    throw err;
  }
}
