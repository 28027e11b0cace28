/**
 * What the Redis store needs from a connection, whatever the topology behind it (one node,
 * Cluster, Sentinel): one command at a time, routed by its key; every master, for the checks each
 * must pass; and two events, so the store can tell an outage from its end. One factory per
 * topology (redis-node.ts, redis-cluster.ts, redis-sentinel.ts) builds it from the shared client
 * options below.
 */
import type { RedisClientOptions } from 'redis';

export interface RedisConnection {
  /** Where it connects, as it may be logged: no user or password. */
  readonly where: string;
  /** One command; `key` is the key it touches, which picks the node on a Cluster. */
  send(key: string | undefined, args: string[]): Promise<unknown>;
  /** Each master (one unless on a Cluster), for commands every master must answer. */
  masters(): Promise<Array<{ where: string; send(args: string[]): Promise<unknown> }>>;
  connect(): Promise<void>;
  close(): Promise<void>;
  destroy(): void;
}

export interface ConnectionEvents {
  /** A connection to some node failed or broke. */
  error(err: Error): void;
  /** A connection is ready: at start, after a reconnection, after a failover. */
  ready(): void;
}

const CONNECT_TIMEOUT_MS = 1000;
const FIRST_CONNECT_ATTEMPTS = 5;
export const RECONNECT_MAX_MS = 500;
const QUEUE_MAX = 20_000;

/**
 * The options of every connection to a data node. `started` says whether the store has connected
 * once: before, a few quick tries and then fail loudly; after, retry forever with a capped
 * back-off while requests fail fast (offline queue disabled).
 */
export function nodeClientOptions(started: () => boolean, tls: boolean) {
  return {
    socket: {
      connectTimeout: CONNECT_TIMEOUT_MS,
      ...(tls ? { tls: true as const } : {}),
      reconnectStrategy: (retries: number, cause: Error) => {
        if (!started()) return retries < FIRST_CONNECT_ATTEMPTS ? 200 : cause;
        return Math.min(50 * 2 ** Math.min(retries, 4), RECONNECT_MAX_MS);
      },
    },
    disableOfflineQueue: true,
    commandsQueueMaxLength: QUEUE_MAX,
    // Redis Enterprise maintenance hand-offs would re-arm per-command timeouts; not used here.
    maintNotifications: 'disabled' as const,
  } satisfies RedisClientOptions;
}

/** node-redis's 5 s per-command timeout, off: the store bounds every wait itself (redis.ts). */
export const NO_COMMAND_TIMEOUT = { timeout: 0 };

/** The user and password a URL carries, decoded, for options that do not take a URL. */
export function credentialsOf(url: string): { username?: string; password?: string } {
  const u = new URL(url);
  return {
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
  };
}
