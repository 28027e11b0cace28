/**
 * A private Redis Cluster for one test file: three masters holding every slot and one replica of
 * the first master, each a `redis-server --cluster-enabled yes` on a free port (test/helpers/
 * redis.ts), joined by `redis-cli --cluster`. Fails loudly when a server or redis-cli does not
 * start or the cluster does not form; never touches another Redis.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { startRedis, type TestRedis } from './redis.ts';
import { adminConnection, topologyDir, PASSWORD_ARGS, settled, SETTLE_MS, TOPOLOGY_PASSWORD, type AdminConnection } from './redis-topology.ts';

const run = promisify(execFile);
/**
 * What a cluster waits before it calls a silent node failed: short, so a killed master's replica
 * takes over in seconds, but not so short that a busy machine's scheduling fails a live node.
 */
const NODE_TIMEOUT_MS = 3000;

export interface TestRedisCluster {
  /** The three masters at start (the first is the one with a replica). */
  masters: TestRedis[];
  replica: TestRedis;
  /** The first master and its replica: the shard that fails over. */
  shard: TestRedis[];
  /** For REDIS_CLUSTER_NODES: every node, as a URL with the password (TOPOLOGY_PASSWORD). */
  nodes: string;
  /** The port of the master that serves `key` now. */
  masterOf(key: string): Promise<number>;
  /** Sends a command to the node on `port`. */
  command(port: number, args: string[]): Promise<unknown>;
  /**
   * CLUSTER FAILOVER on the replica: the first master's slots move to it, with their keys. Resolves
   * once every node sees the replica as their master.
   */
  failover(): Promise<void>;
  /**
   * Kills the shard's master (SIGKILL): the cluster marks it failed after its node timeout and
   * promotes the other. Resolves once the other serves and the cluster is ok again.
   */
  killMaster(): Promise<void>;
  close(): Promise<void>;
}

async function cli(args: string[]): Promise<string> {
  try {
    const { stdout } = await run('redis-cli', ['-a', TOPOLOGY_PASSWORD, '--no-auth-warning', ...args], { timeout: SETTLE_MS });
    return stdout;
  } catch (err) {
    const e = err as { message: string; stdout?: string; stderr?: string };
    throw new Error(`redis-cli ${args.join(' ')} failed (is redis-cli installed?): ${e.message}\n${e.stdout ?? ''}${e.stderr ?? ''}`);
  }
}

export async function startRedisCluster(): Promise<TestRedisCluster> {
  const { dir, remove } = topologyDir('cluster');
  const servers: TestRedis[] = [];
  const clients = new Map<number, Promise<AdminConnection>>();
  const close = async () => {
    await Promise.all([...clients.values()].map(async (c) => (await c.catch(() => null))?.close()));
    await Promise.all(servers.map((s) => s.close()));
    await remove();
  };
  try {
    for (let i = 0; i < 4; i++) {
      servers.push(await startRedis({
        args: ['--cluster-enabled', 'yes', '--cluster-config-file', path.join(dir, `nodes-${i}.conf`), '--dir', dir,
          '--cluster-node-timeout', String(NODE_TIMEOUT_MS), ...PASSWORD_ARGS],
      }));
    }
    const [first, second, third, replica] = servers as [TestRedis, TestRedis, TestRedis, TestRedis];
    const address = (s: TestRedis) => `127.0.0.1:${s.port}`;
    await cli(['--cluster', 'create', address(first), address(second), address(third), '--cluster-replicas', '0', '--cluster-yes']);
    const firstId = (await cli(['-p', String(first.port), 'CLUSTER', 'MYID'])).trim();
    await cli(['--cluster', 'add-node', address(replica), address(first), '--cluster-slave', '--cluster-master-id', firstId]);

    const command = async (port: number, args: string[]) => {
      let client = clients.get(port);
      if (!client) clients.set(port, client = adminConnection(port));
      return (await client).send(args);
    };
    const info = async (port: number, section: string) => String(await command(port, ['INFO', section]));
    const state = async (port: number) => /cluster_state:ok/.test(String(await command(port, ['CLUSTER', 'INFO'])));
    const replicaSynced = async () => /master_link_status:up/.test(await info(replica.port, 'replication'));
    await settled('Redis Cluster', 'every node sees the cluster as ok and the replica in sync', async () =>
      (await Promise.all(servers.map((s) => state(s.port)))).every(Boolean) && await replicaSynced());

    const masterOf = async (key: string) => {
      // The second master never fails over: it answers for the cluster throughout.
      const slot = Number(await command(second.port, ['CLUSTER', 'KEYSLOT', key]));
      const ranges = await command(second.port, ['CLUSTER', 'SLOTS']) as unknown as Array<[number, number, [string, number, ...unknown[]]]>;
      const range = ranges.find(([from, to]) => slot >= Number(from) && slot <= Number(to));
      if (!range) throw new Error(`no master serves slot ${slot}`);
      return Number(range[2][1]);
    };
    /** `heir` is a master, and every node in `live` sees it so and the cluster as ok. */
    const promoted = async (heir: TestRedis, live: TestRedis[]) => {
      await settled('Redis Cluster', `${heir.port} taking over`, async () => /role:master/.test(await info(heir.port, 'replication')));
      await settled('Redis Cluster', `every node seeing ${heir.port} as a master`, async () => {
        for (const s of live) {
          const nodes = String(await command(s.port, ['CLUSTER', 'NODES']));
          const line = nodes.split('\n').find((l) => l.includes(`:${heir.port}@`));
          if (!line || !/\bmaster\b/.test(line)) return false;
        }
        return (await Promise.all(live.map((s) => state(s.port)))).every(Boolean);
      });
    };
    return {
      masters: [first, second, third],
      replica,
      shard: [first, replica],
      nodes: servers.map((s) => `redis://:${TOPOLOGY_PASSWORD}@${address(s)}`).join(','),
      masterOf,
      command,
      async failover() {
        await command(replica.port, ['CLUSTER', 'FAILOVER']);
        await promoted(replica, servers);
      },
      async killMaster() {
        const roles = await Promise.all([first, replica].map(async (s) => /role:master/.test(await info(s.port, 'replication'))));
        const [dying, heir] = roles[0] ? [first, replica] : [replica, first];
        await dying.stop();
        await promoted(heir, servers.filter((s) => s !== dying));
      },
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
