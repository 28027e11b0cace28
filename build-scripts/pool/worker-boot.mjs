// Entry of every pool worker (pool.ts). Plain JavaScript on purpose: a worker does not inherit
// the parent's `--import tsx` loader (Node 20 fails on the `.ts` entry with "Unknown file
// extension"), so this registers tsx in the worker's own thread, then loads the TypeScript task
// module named in workerData.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.script);
