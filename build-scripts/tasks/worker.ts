/**
 * The task module of the build's worker threads (pool/pool.ts): reads pages (crawl), runs Pagefind
 * sessions (search: each worker drives its own Pagefind process), makes a share of the postings
 * and of the common words' answers (search) and checks the packed pages (validate). Loaded only
 * inside workers; the stages reach it through `BuildContext.workers`.
 */
import { serveTasks } from '../pool/serve.ts';
import { readPage, type PageRead, type PageReadTask } from './page-read.ts';
import { endSessions, indexSession, type SessionResult, type SessionTask } from '../pagefind/search-index.ts';
import { checkPackedPages, type PackCheckTask, type PackProblem } from '../stages/validate.ts';
import { makeWordAnswers, type AnswersMade, type AnswersPart } from '../../formats/search/word-answers.ts';
import { runPostingsTask, type PostingsResult, type PostingsTask } from '../pagefind/postings-parts.ts';

export type WorkerTask =
  | ({ kind: 'read' } & PageReadTask) | ({ kind: 'index' } & SessionTask) | { kind: 'end-sessions' } | ({ kind: 'check' } & PackCheckTask)
  | ({ kind: 'answers'; searchDir: string } & AnswersPart) | { kind: 'postings'; task: PostingsTask };
export type WorkerTaskResult = PageRead | SessionResult | PackProblem | AnswersMade | PostingsResult | null | void;

serveTasks<WorkerTask, WorkerTaskResult>((task) => {
  switch (task.kind) {
    case 'read': return readPage(task);
    case 'index': return indexSession(task);
    case 'end-sessions': return endSessions();
    case 'check': return checkPackedPages(task);
    case 'answers': return makeWordAnswers(task.searchDir, task);
    case 'postings': return runPostingsTask(task.task);
  }
});
