import path from 'node:path';
import { startChild, startServer } from '/work/main/bench/lib/processes.ts';
import { load } from '/work/main/bench/http/load.ts';
import { capture } from '/work/main/bench/http/scenarios.ts';
async function main(): Promise<void> {
  const p = process.argv[2]!;
  const req = { method: 'GET' as const, path: p, headers: { accept: 'application/json', 'accept-encoding': 'gzip, deflate, br' } };
  const srv = await startServer('s', { RATE_LIMIT_ANONYMOUS: '1000000000' });
  const c = await capture(srv.url, req);
  await srv.close();
  const base = await startChild('b', path.join('/work/main/bench/http/baseline-server.ts'), {}, ['--cpu-prof', '--cpu-prof-dir=/tmp/bx/bprof']);
  await base.send({ route: { method: 'GET', path: p, status: c.status, headers: c.headers, body: c.body.toString('base64') } });
  const cpu = base.cpuSeconds();
  const r = await load(base.url, req, { connections: 10, seconds: 8 });
  console.log(r.rps, r.count, 'cpu us/req', (base.cpuSeconds() - cpu) * 1e6 / r.count);
  await base.close();
}
main();
