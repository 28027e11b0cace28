import { createMemoryStore } from '../../../server/stores/memory.ts';
import { storeSuite } from './store-suite.ts';

storeSuite('memory store', async () => {
  let now = Date.now();
  const store = createMemoryStore({ clock: () => now });
  return {
    store,
    advance: async (ms) => { now += ms; },
    close: () => store.close(),
  };
}).run();
