/**
 * What the build relies on from Astro's content store (the installed Astro's own MutableDataStore):
 * an entry saved while an earlier write of the store is still in flight reaches the file. The
 * pages are bundled from that file, so a store that let the earlier write win (Astro 5 retried
 * with the snapshot of the write in flight) published a large site's old pages and exited 0.
 * The larger the store, the longer a write is in flight; here the overlap is made directly, by
 * firing the store's debounce timer by hand.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { astroStoreClass, storeFile } from '../helpers/astro-store.ts';

const EDIT = 'Si gotea el tragaluz';

/** Holds the timers set while `fn` runs: the test fires them (`fire`) instead of the clock. */
async function withHeldTimers<T>(fn: (fire: () => Promise<void>) => Promise<T>): Promise<T> {
  const held = new Map<number, () => unknown>();
  let next = 0;
  const saved = { setTimeout: globalThis.setTimeout, clearTimeout: globalThis.clearTimeout };
  globalThis.setTimeout = ((callback: () => unknown) => { held.set(++next, callback); return next; }) as unknown as typeof setTimeout;
  globalThis.clearTimeout = ((id: number) => { held.delete(id); }) as unknown as typeof clearTimeout;
  /** Runs the oldest held timer's callback, resolving when it has finished. */
  const fire = async () => {
    const [id, callback] = held.entries().next().value!;
    held.delete(id);
    await callback();
  };
  try {
    return await fn(fire);
  } finally {
    Object.assign(globalThis, saved);
  }
}

test('an entry saved while a write of the store is in flight is in the file once the save completes', async () => {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'agentes-astro-store-'));
  try {
    const Store = await astroStoreClass();
    const file = storeFile(root);
    const first = await Store.fromFile(file);
    first.scopedStore('guides').set({ id: 'tragaluz', data: { title: 'Tragaluz' }, body: 'Revisa el sellado.', digest: 'a' });
    await first.waitUntilSaveComplete();

    // The next build: its sync changes a meta key, whose debounced write is in flight when the
    // edited guide is set and the sync asks for every save to complete.
    const store = await Store.fromFile(file);
    await withHeldTimers(async (fire) => {
      store.metaStore().set('astro-version', 'next');
      const inFlight = fire(); // the debounce is over: the meta write starts, and awaits the disk
      store.scopedStore('guides').set({ id: 'tragaluz', data: { title: 'Tragaluz' }, body: `Revisa el sellado. ${EDIT}`, digest: 'b' });
      const saved = store.waitUntilSaveComplete();
      await inFlight;
      await saved;
    });
    assert.ok((await fs.readFile(file, 'utf8')).includes(EDIT), 'the edit is in the store once the save has completed');
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
});

test.run();
