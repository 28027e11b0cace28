/**
 * A Redis Cluster (REDIS_CLUSTER_NODES): the nodes given are asked for the slots, and each command
 * goes to the master of its key's slot. Every key the store writes is one hash tag, so each
 * command touches one slot and the Lua scripts run on one node.
 *
 * Failover: a master handed over (CLUSTER FAILOVER) answers MOVED, and the client follows it at
 * once; a master that died stops answering, commands for its slots fail fast (the store counts
 * quotas locally meanwhile), and the slots are asked again every TOPOLOGY_REFRESH_MS while a node
 * is away, so the promoted replica is found within about a second of its election.
 */
import { createCluster } from 'redis';
import { redactUrl } from '../config.ts';
import { credentialsOf, NO_COMMAND_TIMEOUT, nodeClientOptions, type ConnectionEvents, type RedisConnection } from './redis-connection.ts';

const TOPOLOGY_REFRESH_MS = 1000;

export function clusterConnection(options: { nodes: string[]; started: () => boolean; events: ConnectionEvents }): RedisConnection {
  const first = options.nodes[0]!;
  const base = nodeClientOptions(options.started, new URL(first).protocol === 'rediss:');
  const cluster = createCluster({
    rootNodes: options.nodes.map((url) => ({ url })),
    // Discovered nodes get these, not the root nodes' URLs: the credentials go here too.
    defaults: { ...base, ...credentialsOf(first) },
    commandOptions: NO_COMMAND_TIMEOUT,
    topologyRefreshOnReconnectionAttemptStrategy: TOPOLOGY_REFRESH_MS,
  });
  // Failed topology discoveries come as 'error': without a listener they would end the process.
  cluster.on('error', options.events.error);
  cluster.on('node-error', options.events.error);
  cluster.on('node-ready', options.events.ready);
  return {
    where: `cluster ${options.nodes.map(redactUrl).join(',')}`,
    send: (key, args) => cluster.sendCommand(key, false, args),
    masters: () => Promise.all(cluster.masters.map(async (master) => {
      const client = await cluster.nodeClient(master);
      return { where: master.address, send: (args: string[]) => client.sendCommand(args) };
    })),
    async connect() { await cluster.connect(); },
    async close() { if (cluster.isOpen) await cluster.close().catch(() => cluster.destroy()); },
    destroy() { cluster.destroy(); },
  };
}
