/** Picks the store once at start: Redis when REDIS_URL is set, otherwise the in-process one. */
import type { Config } from '../config.ts';
import type { Logger } from '../log.ts';
import { createMemoryStore } from './memory.ts';
import type { Clock, Store } from './types.ts';

export { StoreUnavailableError } from './errors.ts';

export async function createStore(
  config: Pick<Config, 'redisUrl' | 'keyPrefix'>,
  options: { log: Logger; clock?: Clock },
): Promise<Store> {
  if (!config.redisUrl) return createMemoryStore(options.clock ? { clock: options.clock } : {});
  // Loaded only when used: the memory store needs no Redis client.
  const { createRedisStore } = await import('./redis.ts');
  return createRedisStore({ url: config.redisUrl, keyPrefix: config.keyPrefix, log: options.log });
}
