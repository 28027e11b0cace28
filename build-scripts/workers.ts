/**
 * The build's worker threads as the stages see them (`BuildContext.workers`): one pool per build,
 * started by the pipeline when the read-model stages begin (the astro stage needs none; started
 * then, the workers load their code while the crawl lists the site) or on first use, and closed by
 * the pipeline when the build ends.
 */
import type { BuildWorkers } from './context.ts';
import type { WorkerTask, WorkerTaskResult } from './tasks/worker.ts';
import { createPool, defaultPoolSize, type Pool } from './pool/pool.ts';
import type { PageRead } from './tasks/page-read.ts';
import type { IndexedSlice } from './search-index/page-terms.ts';
import type { PackProblem } from './stages/validate.ts';

const SCRIPT = new URL('./tasks/worker.ts', import.meta.url);
/**
 * A task holds one page's tree, or one slice of pages to index with every word of their texts: a
 * bounded old generation makes V8 collect sooner instead of growing each worker's heap far beyond
 * what its tasks hold, which counts against the build's memory target, with room for a worker's
 * two tasks at once and its memo of stems.
 */
const WORKER_OLD_SPACE_MB = 512;

export function createBuildWorkers(size = defaultPoolSize()): BuildWorkers & { start(): void; close(): Promise<void> } {
  let pool: Pool<WorkerTask, WorkerTaskResult> | undefined;
  const started = () => (pool ??= createPool(SCRIPT, { size, resourceLimits: { maxOldGenerationSizeMb: WORKER_OLD_SPACE_MB } }));
  const run = (task: WorkerTask) => started().run(task);
  return {
    size,
    start: () => { started(); },
    read: (task) => run({ kind: 'read', ...task }) as Promise<PageRead>,
    index: (task) => run({ kind: 'index', ...task }) as Promise<IndexedSlice>,
    check: (task) => run({ kind: 'check', ...task }) as Promise<PackProblem | null>,
    close: async () => { await pool?.close(); },
  };
}
