/**
 * The postings writer's steps over one part of the work, as tasks a build worker runs
 * (tasks/worker.ts) or this thread does: the token ids of a run of pages, then the two passes
 * over a run of index chunks. Everything large goes between threads in shared memory.
 */
import { pageViews, tokenizeTexts, type SharedTokens, type TokenRun } from './page-tokens.ts';
import { scanChunks, type ScanResult } from './postings-scan.ts';
import { writeRecords, type RecordsWritten } from './postings-records.ts';
import { SharedPositions, type PositionMarks } from './shared-positions.ts';

export type PostingsTask =
  | { step: 'tokens'; file: string; places: Float64Array }
  | { step: 'scan'; bundle: string; hashes: string[]; tokens: SharedTokens }
  | { step: 'records'; bundle: string; hashes: string[]; tokens: SharedTokens; marks: PositionMarks; tables: Uint32Array; ends: Uint32Array; file: string };

export type PostingsResult = TokenRun | ScanResult | RecordsWritten;

/** Runs one step somewhere: in this thread (`runPostingsTask`) or in a build worker. */
export type PostingsMaker = (task: PostingsTask) => Promise<PostingsResult>;

export async function runPostingsTask(task: PostingsTask): Promise<PostingsResult> {
  switch (task.step) {
    case 'tokens': return tokenizeTexts(task.file, task.places);
    case 'scan': return scanChunks(task.bundle, task.hashes, pageViews(task.tokens));
    case 'records': {
      const pages = pageViews(task.tokens);
      const shared = new SharedPositions(pages.map((t) => t.length), task.marks);
      return writeRecords({ bundle: task.bundle, hashes: task.hashes, pages, shared, tables: task.tables, ends: task.ends, file: task.file });
    }
  }
}
