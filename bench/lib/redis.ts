/**
 * A private redis-server for a benchmark run (random port, nothing on disk), never the machine's
 * Redis on 6379. The tests' helper already does exactly this; the benchmarks reuse it.
 */
export { startRedis, type TestRedis as BenchRedis } from '../../test/helpers/redis.ts';
