/** The worker side of pool.ts: answers each task message with the handler's result or error message. */
import { parentPort } from 'node:worker_threads';
import { messageOf } from '../errors.ts';

export function serveTasks<T, R>(handler: (task: T) => R | Promise<R>): void {
  const port = parentPort;
  if (!port) throw new Error('serveTasks runs in a worker thread (pool.ts)');
  port.on('message', async ({ id, task }: { id: number; task: T }) => {
    try {
      port.postMessage({ id, ok: true, result: await handler(task) });
    } catch (err) {
      port.postMessage({ id, ok: false, error: messageOf(err) });
    }
  });
}
