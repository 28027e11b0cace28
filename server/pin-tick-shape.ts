/**
 * Keeps one `process.nextTick` tick object alive for the life of the process.
 *
 * Why: Node builds every tick object with one object literal keyed by symbols, and V8 keeps the
 * map transitions of that shape only while an object of it is alive. A full garbage collection
 * that finds none (loading the read model or warming the search allocates for seconds with no
 * tick pending) drops them, and Node's stream functions optimized afterwards define each tick
 * object through slow runtime calls on every HTTP response, for as long as the process lives.
 * One live tick object keeps
 * the shape's maps, so the transitions stay. An init hook is the only way to see a tick object;
 * it is enabled for the one `nextTick` below and disabled at once, so nothing later pays for it.
 */
import { createHook } from 'node:async_hooks';

let pinned: object | null = null;

/** Pins a tick object (once per process) and returns it. */
export function pinTickShape(): object {
  if (pinned !== null) return pinned;
  const hook = createHook({
    init(_id, type, _trigger, resource) {
      if (type === 'TickObject' && pinned === null) pinned = resource as object;
    },
  });
  hook.enable();
  try {
    process.nextTick(() => {});
  } finally {
    hook.disable();
  }
  if (pinned === null) throw new Error('no tick object seen: process.nextTick no longer reports its resource to async hooks');
  return pinned;
}
