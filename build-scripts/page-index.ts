/**
 * The page files of a build as a server reads them (server/schemas/read-model.ts): every page's
 * JSON once more, back to back, in `pages.pack`, and `pages.ndjson`, one line per page sorted by
 * path, naming where its JSON lies in the pack. A server loads the index alone and keeps the pack
 * open: one descriptor per build whatever its size, and a pruned build's pages stay readable to a
 * server still holding it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PAGE_INDEX_FILE, PAGE_PACK_FILE, type PageIndexEntry, type ReadModelPage } from '../server/schemas/read-model.ts';
import { headingText } from '../server/search/plain-text.ts';

/** Where a page's JSON lies in the pack. */
export interface PackedAt { offset: number; length: number }

export function pageIndexEntry(page: ReadModelPage, at: PackedAt): PageIndexEntry {
  const { path: p, slug, title, description, city, kind, hash } = page;
  return { path: p, slug, title, description, city, kind, hash, headings: headingText(page.markdown), ...at };
}

export interface PageWriter {
  /** Writes `pages/<slug>.json` and appends the same bytes to the pack. */
  add(page: ReadModelPage): void;
  /** Closes the pack and writes the index. */
  finish(): void;
}

export function createPageWriter(buildDir: string): PageWriter {
  fs.mkdirSync(path.join(buildDir, 'pages'), { recursive: true });
  const pack = fs.openSync(path.join(buildDir, PAGE_PACK_FILE), 'w');
  const written: { page: ReadModelPage; at: PackedAt }[] = [];
  let offset = 0;
  return {
    add(page) {
      const json = Buffer.from(JSON.stringify(page) + '\n');
      fs.writeFileSync(path.join(buildDir, 'pages', `${page.slug}.json`), json);
      fs.writeSync(pack, json);
      written.push({ page, at: { offset, length: json.length } });
      offset += json.length;
    },
    finish() {
      fs.closeSync(pack);
      written.sort((a, b) => (a.page.path < b.page.path ? -1 : a.page.path > b.page.path ? 1 : 0));
      const fd = fs.openSync(path.join(buildDir, PAGE_INDEX_FILE), 'w');
      try {
        // In chunks: one string for 100,000 pages would be tens of megabytes at once.
        for (let i = 0; i < written.length; i += 1000) {
          fs.writeSync(fd, written.slice(i, i + 1000).map(({ page, at }) => JSON.stringify(pageIndexEntry(page, at)) + '\n').join(''));
        }
      } finally {
        fs.closeSync(fd);
      }
    },
  };
}

/** Writes every page, its pack and its index into `buildDir`. */
export function writePageFiles(buildDir: string, pages: readonly ReadModelPage[]): void {
  const writer = createPageWriter(buildDir);
  for (const page of pages) writer.add(page);
  writer.finish();
}
