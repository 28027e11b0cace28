import { createRedisStore } from '/work/main/server/stores/redis.ts';
import { createLogger } from '/work/main/server/log.ts';
import { startRedis } from '/work/main/bench/lib/redis.ts';
function m(): string { const u = process.memoryUsage(); return [u.rss, u.heapUsed, u.heapTotal, u.external].map((x) => Math.round(x / 1048576)).join(' '); }
async function main(): Promise<void> {
  const redis = await startRedis();
  const store = await createRedisStore({ url: redis.url, keyPrefix: 'x', log: createLogger('silent') });
  for (let round = 0; round < 6; round++) {
    for (let i = 0; i < 20000; i++) { const ps = []; for (let k = 0; k < 10; k++) ps.push(store.hit('rl:anonimo:127.0.0.1', 60)); await Promise.all(ps); }
    (globalThis as any).gc(); console.log(round, m());
  }
  await store.close(); await redis.close();
}
main();
