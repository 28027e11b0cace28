/**
 * A private Sentinel set for one test file: a master, one replica of it and one sentinel watching
 * them (quorum 1), each a redis-server on a free port (test/helpers/redis.ts). Fails loudly when
 * one does not start or the sentinel does not see the replica; never touches another Redis.
 *
 * The master cannot be made a replica (REPLICAOF renamed away): after a failover it stays a
 * master with its clients connected, as a partitioned old master does, so a client that does not
 * follow the sentinels keeps writing there instead of being turned away seconds later. Hence one
 * failover per set.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { startRedis, type TestRedis } from './redis.ts';
import { adminConnection, topologyDir, PASSWORD_ARGS, settled, TOPOLOGY_PASSWORD, type AdminConnection } from './redis-topology.ts';

export const SENTINEL_MASTER_NAME = 'agentes-test';

export interface TestRedisSentinel {
  master: TestRedis;
  replica: TestRedis;
  sentinel: TestRedis;
  /** For REDIS_SENTINELS. */
  sentinels: string;
  name: string;
  /** The port of the master the sentinel names now. */
  masterPort(): Promise<number>;
  /** SENTINEL FAILOVER (once): resolves once the sentinel names the replica and it is a master. */
  failover(): Promise<void>;
  close(): Promise<void>;
}

/** A reply's field map, whether it came as a RESP3 map or as RESP2's flat list. */
function fieldsOf(reply: unknown): Record<string, string> {
  if (!Array.isArray(reply)) return Object.fromEntries(Object.entries(reply as object).map(([k, v]) => [k, String(v)]));
  const fields: Record<string, string> = {};
  for (let i = 0; i + 1 < reply.length; i += 2) fields[String(reply[i])] = String(reply[i + 1]);
  return fields;
}

export async function startRedisSentinel(): Promise<TestRedisSentinel> {
  const { dir, remove } = topologyDir('sentinel');
  const servers: TestRedis[] = [];
  const clients: AdminConnection[] = [];
  const close = async () => {
    await Promise.all(clients.map((c) => c.close()));
    await Promise.all(servers.map((s) => s.close()));
    await remove();
  };
  const connect = async (port: number, options?: { sentinel: boolean }) => {
    const client = await adminConnection(port, options);
    clients.push(client);
    return client;
  };
  try {
    // Replication writes an RDB file, in the test's folder.
    const master = await startRedis({ args: ['--dir', dir, ...PASSWORD_ARGS, '--rename-command', 'REPLICAOF', '', '--rename-command', 'SLAVEOF', ''] });
    servers.push(master);
    const replica = await startRedis({ args: ['--dir', dir, ...PASSWORD_ARGS, '--replicaof', '127.0.0.1', String(master.port)] });
    servers.push(replica);
    // A sentinel rewrites its configuration file: one of its own, in the test's folder.
    const configFile = path.join(dir, 'sentinel.conf');
    await fs.writeFile(configFile, [
      `sentinel monitor ${SENTINEL_MASTER_NAME} 127.0.0.1 ${master.port} 1`,
      `sentinel auth-pass ${SENTINEL_MASTER_NAME} ${TOPOLOGY_PASSWORD}`,
      // Failovers are the test's (SENTINEL FAILOVER): a master slowed by a busy machine must not start one.
      `sentinel down-after-milliseconds ${SENTINEL_MASTER_NAME} 60000`,
      `sentinel failover-timeout ${SENTINEL_MASTER_NAME} 10000`,
      '',
    ].join('\n'));
    const sentinel = await startRedis({ configFile, args: ['--sentinel', '--dir', dir] });
    servers.push(sentinel);

    const ask = await connect(sentinel.port, { sentinel: true });
    const nodes = new Map([[master.port, await connect(master.port)], [replica.port, await connect(replica.port)]]);
    const role = async (port: number) => /role:(\w+)/.exec(String(await nodes.get(port)!.send(['INFO', 'replication'])))?.[1];
    const masterPort = async () => Number((await ask.send(['SENTINEL', 'GET-MASTER-ADDR-BY-NAME', SENTINEL_MASTER_NAME]) as string[])[1]);
    const replicaReady = async (port: number) => {
      const replicas = await ask.send(['SENTINEL', 'REPLICAS', SENTINEL_MASTER_NAME]) as unknown[];
      return replicas.map(fieldsOf).some((f) => f.port === String(port) && f.flags === 'slave' && f['master-link-status'] === 'ok');
    };
    await settled('Redis Sentinel', 'the sentinel seeing the replica in sync', () => replicaReady(replica.port));

    return {
      master,
      replica,
      sentinel,
      sentinels: `127.0.0.1:${sentinel.port}`,
      name: SENTINEL_MASTER_NAME,
      masterPort,
      async failover() {
        const from = await masterPort();
        const to = from === master.port ? replica.port : master.port;
        await settled('Redis Sentinel', `the sentinel seeing ${to} as a replica in sync`, () => replicaReady(to));
        await ask.send(['SENTINEL', 'FAILOVER', SENTINEL_MASTER_NAME]);
        await settled('Redis Sentinel', `${to} promoted and named by the sentinel`, async () => (await masterPort()) === to && (await role(to)) === 'master');
      },
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
