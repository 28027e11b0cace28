import { startServer } from '/work/main/bench/lib/processes.ts';
import { startRedis } from '/work/main/bench/lib/redis.ts';
import { load } from '/work/main/bench/http/load.ts';
async function main(): Promise<void> {
  const redis = await startRedis();
  const srv = await startServer('s', { RATE_LIMIT_ANONYMOUS: '1000000000', ...(process.argv[3] === 'redis' ? { REDIS_URL: redis.url } : {}) }, (process.argv[4] ?? '').split(' ').filter(Boolean));
  const req = { method: 'GET' as const, path: process.argv[2]!, headers: { accept: 'application/json', 'accept-encoding': 'gzip, deflate, br' } };
  const mb = () => (srv.memory().rss / 1048576).toFixed(0);
  console.log('start', mb());
  for (let i = 0; i < Number(process.env.N ?? 8); i++) { const r = await load(srv.url, req, { connections: 10, seconds: 2, tool: 'wrk', expectStatus: 200 }); console.log(i, Math.round(r.rps), 'rss', mb()); }
  await srv.close(); await redis.close();
}
main();
