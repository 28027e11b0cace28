/**
 * The last suite of a test file that started a Redis topology once for all its suites: three
 * server processes on it (environment `env`), started before the suite's tests and stopped after
 * them, with the topology.
 */
import { suite } from 'uvu';
import { startFixtureServers, type ServerProcess } from './cluster.ts';

export function processesOn(name: string, env: Record<string, string>, topology: { close(): Promise<void> }) {
  const test = suite<{ servers: ServerProcess[] }>(name);
  let close: (() => Promise<void>) | undefined;
  test.before(async (ctx) => {
    try {
      const started = await startFixtureServers(3, { TRUST_PROXY: '127.0.0.1', LOG_LEVEL: 'info', ...env });
      ctx.servers = started.servers;
      close = started.close;
    } catch (err) {
      await topology.close();
      throw err;
    }
  });
  test.after(async () => {
    await close?.();
    await topology.close();
  });
  return test;
}
