/**
 * The task module of the build's worker threads (pool/pool.ts): reads pages (crawl), analyses
 * slices of pages for the search index (search) and checks the packed pages (validate). Loaded
 * only inside workers; the stages reach it through `BuildContext.workers`.
 */
import { serveTasks } from '../pool/serve.ts';
import { readPage, type PageRead, type PageReadTask } from './page-read.ts';
import { indexPages, type IndexedSlice, type IndexPage } from '../search-index/page-terms.ts';
import type { CacheFolders } from '../cache/store.ts';
import { checkPackedPages, type PackCheckTask, type PackProblem } from '../stages/validate.ts';

export type WorkerTask = ({ kind: 'read' } & PageReadTask) | { kind: 'index'; pages: IndexPage[]; cache?: CacheFolders } | ({ kind: 'check' } & PackCheckTask);
export type WorkerTaskResult = PageRead | IndexedSlice | PackProblem | null;

serveTasks<WorkerTask, WorkerTaskResult>((task) => {
  switch (task.kind) {
    case 'read': return readPage(task);
    case 'index': return indexPages(task);
    case 'check': return checkPackedPages(task);
  }
});
