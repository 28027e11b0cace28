/**
 * A master watched by Redis Sentinel (REDIS_SENTINELS, REDIS_SENTINEL_NAME): the sentinels are
 * asked where the master is, at start and every TOPOLOGY_SCAN_MS, so after a failover commands go
 * to the promoted replica within about a second. node-redis 6 listens for the sentinels' events
 * too, but its pattern `switch-master` never matches their `+switch-master`: a failover that
 * leaves the old master up (SENTINEL FAILOVER) went unseen for the ten seconds until the
 * sentinel turned it into a replica, and meanwhile each process counted on whichever master it
 * knew. Until a process moves, the old master answers READONLY or nothing, which the store treats
 * as an outage (quotas counted locally, tokens and OAuth 503).
 */
import { createSentinel } from 'redis';
import type { RedisSentinelConfig } from '../config.ts';
import { redactUrl } from '../config.ts';
import { credentialsOf, NO_COMMAND_TIMEOUT, nodeClientOptions, type ConnectionEvents, type RedisConnection } from './redis-connection.ts';

const SENTINEL_CONNECT_TIMEOUT_MS = 1000;
/** One question to a sentinel per process and interval; commands wait for its answer (a few ms). */
const TOPOLOGY_SCAN_MS = 1000;
/**
 * Tries at finding the topology (one a second) before a start gives up: node-redis's 16 kept a
 * process that could not reach its master starting for 16 s. Commands never wait on these
 * anyway: the store's deadline bounds them (redis.ts).
 */
const DISCOVERY_ATTEMPTS = 4;

export function sentinelConnection(options: RedisSentinelConfig & { started: () => boolean; events: ConnectionEvents }): RedisConnection {
  const first = new URL(options.sentinels[0]!);
  const tls = first.protocol === 'rediss:';
  const sentinel = createSentinel({
    name: options.name,
    sentinelRootNodes: options.sentinels.map((url) => {
      const u = new URL(url);
      return { host: u.hostname.replace(/^\[|\]$/g, ''), port: Number(u.port) };
    }),
    nodeClientOptions: {
      ...nodeClientOptions(options.started, tls),
      ...(options.username ? { username: options.username } : {}),
      ...(options.password ? { password: options.password } : {}),
    },
    sentinelClientOptions: {
      ...credentialsOf(options.sentinels[0]!),
      socket: { connectTimeout: SENTINEL_CONNECT_TIMEOUT_MS, ...(tls ? { tls: true as const } : {}) },
    },
    commandOptions: NO_COMMAND_TIMEOUT,
    masterPoolSize: 1,
    scanInterval: TOPOLOGY_SCAN_MS,
    maxCommandRediscovers: DISCOVERY_ATTEMPTS,
  });
  sentinel.on('error', (err: unknown) => options.events.error(err instanceof Error ? err : new Error(String(err))));
  sentinel.on('client-error', (event: { error: Error }) => options.events.error(event.error));
  sentinel.on('ready', options.events.ready);
  const send = (args: string[]) => sentinel.sendCommand(false, args);
  return {
    where: `sentinel master ${options.name} via ${options.sentinels.map(redactUrl).join(',')}`,
    send: (_key, args) => send(args),
    masters: async () => [{ where: `master ${options.name}`, send }],
    async connect() { await sentinel.connect(); },
    async close() { if (sentinel.isOpen) await sentinel.close().catch(() => sentinel.destroy()); },
    destroy() { void sentinel.destroy(); },
  };
}
