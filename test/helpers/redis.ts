/** A private redis-server for one test file (scripts/lib/redis-server.ts), refused to unit tests. */
import { startRedisServer, type RedisOptions, type RedisServer } from '../../scripts/lib/redis-server.ts';
import { refuseInUnitTier } from '../tiers.ts';

export type TestRedis = RedisServer;

export function startRedis(options: RedisOptions = {}): Promise<TestRedis> {
  refuseInUnitTier('A Redis server');
  return startRedisServer(options);
}
