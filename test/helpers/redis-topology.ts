/** What the Redis Cluster and Sentinel helpers share: waiting for a topology to settle, and talking to its nodes. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient } from 'redis';

/**
 * A folder of its own for a topology's files (cluster and sentinel configurations, replication
 * dumps), removed by `remove()` or, when a test dies first, as the process exits.
 */
export function topologyDir(name: string): { dir: string; remove(): Promise<void> } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `agentes-${name}-`));
  const removeNow = () => fs.rmSync(dir, { recursive: true, force: true });
  process.once('exit', removeNow);
  return { dir, remove: async () => { process.off('exit', removeNow); removeNow(); } };
}

/**
 * The password of the topologies' data nodes (`requirepass`, `masterauth`): the servers must carry
 * it to every node they find, and never print it.
 */
export const TOPOLOGY_PASSWORD = 'topology-s3cret';
/** The arguments that make a redis-server ask for it and give it to its master. */
export const PASSWORD_ARGS = ['--requirepass', TOPOLOGY_PASSWORD, '--masterauth', TOPOLOGY_PASSWORD];

/** Ten times what forming a topology or failing over takes on an idle machine. */
export const SETTLE_MS = 30_000;

/** Resolves once `check` holds (a throw counts as not yet); fails naming `what` after SETTLE_MS. */
export async function settled(topology: string, what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = performance.now() + SETTLE_MS;
  while (!(await check().catch(() => false))) {
    if (performance.now() > deadline) throw new Error(`${topology}: ${what} not within ${SETTLE_MS} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A plain connection to one node of a topology, to set it up and watch it. */
export interface AdminConnection {
  send(args: string[]): Promise<unknown>;
  close(): Promise<void>;
}

/** To a data node (with the password) or, `sentinel`, to a sentinel (without). */
export async function adminConnection(port: number, { sentinel = false } = {}): Promise<AdminConnection> {
  const client = createClient({ url: `redis://127.0.0.1:${port}`, ...(sentinel ? {} : { password: TOPOLOGY_PASSWORD }) });
  client.on('error', () => {});
  await client.connect();
  return { send: (args) => client.sendCommand(args), close: () => client.close().catch(() => client.destroy()) };
}
