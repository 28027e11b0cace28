/**
 * `node --import tsx bench/compare/redis-store.ts <tree A> <tree B>`: the Redis store's `hit` (the
 * one store call on every counted request) of two checkouts, on one private Redis in one process,
 * in interleaved rounds of 200 waves of 50 concurrent hits on distinct keys; prints the median µs
 * per hit of each and B/A. What a change of the store's command path costs, beside the noise of
 * a shared machine.
 */
import path from 'node:path';
import { startRedisServer } from '../../scripts/lib/redis-server.ts';

const [a, b] = process.argv.slice(2).map((p) => path.resolve(p));
if (!a || !b) throw new Error('usage: redis-store.ts <tree A> <tree B>');
const ROUNDS = 10;
const WAVES = 200;
const WIDTH = 50;

type Hit = { hit(key: string, windowSeconds: number): unknown; close(): Promise<void> };
const redis = await startRedisServer();
const log = { info() {}, error() {} };
const stores: Record<'A' | 'B', Hit> = {
  A: await (await import(`${a}/server/stores/redis.ts`)).createRedisStore({ url: redis.url, keyPrefix: 'cmp-a', log }),
  B: await (await import(`${b}/server/stores/redis.ts`)).createRedisStore({ url: redis.url, keyPrefix: 'cmp-b', log }),
};
const perHit: Record<'A' | 'B', number[]> = { A: [], B: [] };
try {
  for (let r = 0; r < ROUNDS; r++) {
    for (const tree of r % 2 ? ['A', 'B'] as const : ['B', 'A'] as const) {
      const t = performance.now();
      for (let w = 0; w < WAVES; w++) await Promise.all(Array.from({ length: WIDTH }, (_, i) => stores[tree].hit(`k${i}`, 60)));
      perHit[tree].push(((performance.now() - t) / (WAVES * WIDTH)) * 1000);
    }
  }
} finally {
  await stores.A.close();
  await stores.B.close();
  await redis.close();
}
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
console.log(`A ${median(perHit.A).toFixed(2)} µs per hit, B ${median(perHit.B).toFixed(2)} µs per hit, B/A ${(median(perHit.B) / median(perHit.A)).toFixed(3)}`);
