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
  /** Writes `pages/<slug>.json` and appends the same bytes to the pack; returns the page's index entry. */
  add(page: ReadModelPage): PageIndexEntry;
  /** Closes the pack and writes the index; returns its entries, by path. */
  finish(): PageIndexEntry[];
}

const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

export function createPageWriter(buildDir: string): PageWriter {
  fs.mkdirSync(path.join(buildDir, 'pages'), { recursive: true });
  const pack = fs.openSync(path.join(buildDir, PAGE_PACK_FILE), 'w');
  // The index entries only: the pages' Markdown is not kept once written.
  const entries: PageIndexEntry[] = [];
  let offset = 0;
  return {
    add(page) {
      const json = Buffer.from(JSON.stringify(page) + '\n');
      fs.writeFileSync(path.join(buildDir, 'pages', `${page.slug}.json`), json);
      fs.writeSync(pack, json);
      const entry = pageIndexEntry(page, { offset, length: json.length });
      entries.push(entry);
      offset += json.length;
      return entry;
    },
    finish() {
      fs.closeSync(pack);
      entries.sort(byPath);
      const fd = fs.openSync(path.join(buildDir, PAGE_INDEX_FILE), 'w');
      try {
        // In chunks: one string for 100,000 pages would be tens of megabytes at once.
        for (let i = 0; i < entries.length; i += 1000) {
          fs.writeSync(fd, entries.slice(i, i + 1000).map((entry) => JSON.stringify(entry) + '\n').join(''));
        }
      } finally {
        fs.closeSync(fd);
      }
      return entries;
    },
  };
}

/** Writes every page, its pack and its index into `buildDir`. */
export function writePageFiles(buildDir: string, pages: readonly ReadModelPage[]): void {
  const writer = createPageWriter(buildDir);
  for (const page of pages) writer.add(page);
  writer.finish();
}
