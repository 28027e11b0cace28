/** One Redis node (REDIS_URL, REDIS_QUOTA_URL). */
import { createClient } from 'redis';
import { redactUrl } from '../config.ts';
import { NO_COMMAND_TIMEOUT, nodeClientOptions, type ConnectionEvents, type RedisConnection } from './redis-connection.ts';

export function nodeConnection(options: { url: string; started: () => boolean; events: ConnectionEvents }): RedisConnection {
  const client = createClient({
    url: options.url,
    ...nodeClientOptions(options.started, false),
    commandOptions: NO_COMMAND_TIMEOUT,
  });
  client.on('error', options.events.error);
  client.on('ready', options.events.ready);
  const where = redactUrl(options.url);
  const send = (args: string[]) => client.sendCommand(args);
  return {
    where,
    send: (_key, args) => client.sendCommand(args),
    masters: async () => [{ where, send }],
    async connect() { await client.connect(); },
    async close() { if (client.isOpen) await client.close().catch(() => client.destroy()); },
    destroy() { client.destroy(); },
  };
}
