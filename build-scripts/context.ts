/** What the stages share while one build runs. */
import type { Dirent } from 'node:fs';
import type { ReadModelPage } from '../formats/schemas/read-model.ts';
import type { PageRead, PageReadTask } from './tasks/page-read.ts';
import type { IndexedSlice, IndexPage } from './search-index/page-terms.ts';
import type { PackCheckTask, PackProblem } from './stages/validate.ts';
import type { SpillRef, TextSpill } from './text-spill.ts';
import type { CacheFolders } from './cache/store.ts';
import type { SiblingCache } from './cache/siblings.ts';

/** The build's worker threads (tasks/worker.ts), as the stages use them. */
export interface BuildWorkers {
  /** Number of workers: how much work is worth having in flight. */
  readonly size: number;
  read(task: PageReadTask): Promise<PageRead>;
  /** What the search index holds of consecutive pages (search-index/page-terms.ts). */
  index(task: { pages: IndexPage[]; cache?: CacheFolders }): Promise<IndexedSlice>;
  /** Null when the packed pages are valid, else what is wrong with the first that is not. */
  check(task: PackCheckTask): Promise<PackProblem | null>;
}

export interface ProgressEvent {
  stage: string;
  done: number;
  /** Unknown (undefined) while a stage cannot tell how much is left. */
  total: number | undefined;
}

export interface BuildContext {
  /** Static site root (Astro's `dist/client`). */
  distDir: string;
  /** Read-model root (`current`, `builds/`). */
  outDir: string;
  /** Where this build is written before it is renamed to `builds/<id>`. */
  stagingDir: string;
  /** SITE_URL without trailing slash. */
  siteUrl: string;
  contentDir: string;
  buildId: string;
  log(line: string): void;
  warn(line: string): void;
  progress(done: number, total?: number): void;
  workers: BuildWorkers;
  /** Where the crawl leaves each page's Markdown for the stages after it (text-spill.ts). */
  spill: TextSpill;
  /** Aborted once a stage has failed: stages running beside it stop early. */
  signal: AbortSignal;
  /** The built site's listing (files.ts `listEntries`), made once for the site and crawl stages. */
  siteEntries(): readonly Dirent[];
  /** Where the crawl finds what earlier builds read of each page, and leaves what it reads afresh until the build is published (cache/page-reads.ts); none: every page is read afresh. */
  pageReadCache?: CacheFolders;
  /** Where the site stage finds and leaves the compressed siblings of its files (cache/siblings.ts); none: every file is compressed. */
  siblingCache?: SiblingCache;
  /** Where the search stage finds and leaves each page's terms (cache/page-terms.ts); none: every page is analysed. */
  pageTermsCache?: CacheFolders;
  /** The published build's folder, when made by the same code: files as it holds them are linked from it (cache/previous-build.ts). */
  previousBuild?: string;
}

export interface CrawledPage {
  /** `/servicios/fontaneria/`. */
  path: string;
  /** The built HTML file. */
  file: string;
  /** What extraction needs from the document, read while the crawler had it parsed. */
  facts: PageFacts;
  /** Its Markdown, converted from the same parse (tasks/page-read.ts), in `BuildContext.spill`; null when not converted. */
  markdown: SpillRef | null;
  /** Why the conversion failed: the pages stage reports it, naming the page. */
  markdownError?: string;
}

/** Raw facts of one document (extract.ts `readFacts`): the stage validates and derives from them. */
export interface PageFacts {
  /** The `<h1>` of the main content (else the first `<h1>`), else `<title>`, whitespace collapsed; '' when none. */
  title: string;
  hasH1: boolean;
  canonical: string | undefined;
  description: string | undefined;
  /** `agentes:kind` and `agentes:city` meta tags, when present. */
  kind: string | undefined;
  city: string | undefined;
}

/** A page after extraction: everything of the read-model page but its Markdown and hash. */
export type PageMeta = Omit<ReadModelPage, 'markdown' | 'hash'> & { hasH1: boolean };

export type { ReadModelPage };
