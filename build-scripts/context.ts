/** What the stages share while one build runs. */
import type { Root } from 'hast';
import type { ReadModelPage } from '../server/schemas/read-model.ts';

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
}

export interface CrawledPage {
  /** `/servicios/fontaneria/`. */
  path: string;
  file: string;
  /** Parsed document; released once converted to Markdown. */
  tree: Root | null;
}

/** A page after extraction: everything of the read-model page but its Markdown and hash. */
export type PageMeta = Omit<ReadModelPage, 'markdown' | 'hash'> & { hasH1: boolean };

export type { ReadModelPage };
