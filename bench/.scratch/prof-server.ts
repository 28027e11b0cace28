import { startServer } from '/work/main/bench/lib/processes.ts';
import { load } from '/work/main/bench/http/load.ts';
async function main(): Promise<void> {
  const path = process.argv[2]!;
  const srv = await startServer('s', { RATE_LIMIT_ANONYMOUS: process.argv[3] ?? '1000000000', RATE_LIMIT_WINDOW: '3600', ...(process.argv[4] ? { REDIS_URL: process.argv[4] } : {}) }, ['--cpu-prof', '--cpu-prof-dir=/tmp/bx/sprof', '--cpu-prof-interval=100']);
  const req = { method: 'GET' as const, path, headers: { accept: 'application/json', 'accept-encoding': 'gzip, deflate, br' } };
  await load(srv.url, req, { connections: 10, seconds: 2, tool: 'wrk', expectStatus: Number(process.argv[5] ?? 200) });
  const cpu = srv.cpuSeconds();
  const r = await load(srv.url, req, { connections: 10, seconds: 6, tool: 'wrk', expectStatus: Number(process.argv[5] ?? 200) });
  console.log(r, 'cpu us/req', (srv.cpuSeconds() - cpu) * 1e6 / r.count);
  await srv.close();
}
main();
