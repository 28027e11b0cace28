/**
 * What the crawl read of each built page (tasks/page-read.ts), kept between builds and found by a
 * hash of everything it depends on: the page's HTML bytes, its URL (its links and images resolve
 * against it) and the build's code (code-version.ts names the folder). A page whose HTML is as it
 * was skips its parse and conversion, most of the crawl's cost, and yields what reading it again
 * would, by construction. An entry that cannot be read back is read again from the page.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { PageRead } from '../tasks/page-read.ts';
import { entryFile, loadJsonEntry, writeEntry } from './store.ts';

const EXT = '.json';

const Entry = z.object({
  hrefs: z.array(z.string()),
  ids: z.array(z.string()),
  redirect: z.string().nullable(),
  facts: z.object({
    title: z.string(),
    hasH1: z.boolean(),
    canonical: z.string().optional(),
    description: z.string().optional(),
    kind: z.string().optional(),
    city: z.string().optional(),
  }),
  markdown: z.string().nullable(),
  markdownError: z.string().optional(),
});

export const pageReadKey = (html: Uint8Array, url: string): string =>
  createHash('sha256').update(url).update('\0').update(html).digest('hex');

/** The entry of `key`: undefined when there is none, 'damaged' when it cannot be read back. */
export function loadPageRead(dir: string, key: string): PageRead | undefined | 'damaged' {
  return loadJsonEntry(dir, key, (value) => {
    const entry = Entry.parse(value);
    const { title, hasH1, canonical, description, kind, city } = entry.facts;
    const facts = { title, hasH1, canonical, description, kind, city };
    const read: PageRead = { hrefs: entry.hrefs, ids: new Set(entry.ids), redirect: entry.redirect, facts, markdown: entry.markdown };
    if (entry.markdownError !== undefined) read.markdownError = entry.markdownError;
    return read;
  });
}

export function storePageRead(dir: string, key: string, read: PageRead): void {
  const { hrefs, ids, redirect, facts, markdown, markdownError } = read;
  writeEntry(entryFile(dir, key, EXT), JSON.stringify({ hrefs, ids: [...ids], redirect, facts, markdown, markdownError }));
}
