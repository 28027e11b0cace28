/**
 * The page files of a build as a server reads them (formats/schemas/read-model.ts): every page's
 * JSON once more, back to back, in `pages.pack`, and `pages.idx`, the page index sorted by path
 * (formats/read-model/page-index.ts), naming where each page's JSON lies in the pack. A server
 * loads the index alone and keeps the pack open: one descriptor per build whatever its size, and
 * a pruned build's pages stay readable to a server still holding it.
 */
import fs from 'node:fs';
import type { z } from 'zod';
import path from 'node:path';
import { PAGE_INDEX_FILE, PAGE_PACK_FILE, PageIndexHeadSchema, type PageIndexEntry, type ReadModelPage } from '../formats/schemas/read-model.ts';
import { encodeStrings, writeBinaryFile } from '../formats/read-model/binary-file.ts';
import { HASH_BYTES, PAGE_INDEX_KIND, PAGE_SECTIONS } from '../formats/read-model/page-index.ts';

/** Where a page's JSON lies in the pack. */
export interface PackedAt { offset: number; length: number }

export function pageIndexEntry(page: ReadModelPage, at: PackedAt): PageIndexEntry {
  const { path: p, slug, title, description, city, kind, hash } = page;
  return { path: p, slug, title, description, city, kind, hash, ...at };
}

/** `pages.idx` of `entries`, in their order (by path). */
export function writePageIndex(file: string, entries: readonly PageIndexEntry[]): void {
  const numbering = <T>(values: T[]) => new Map(values.map((v, i) => [v, i] as const));
  // Not checked here: the validate stage checks every entry, and a server the head.
  const head: z.infer<typeof PageIndexHeadSchema> = {
    pages: entries.length,
    cities: [...new Set(entries.map((e) => e.city))].sort(),
    kinds: [...new Set(entries.map((e) => e.kind))].sort(),
  };
  if (head.cities.length > 256 || head.kinds.length > 256) throw new Error('more than 256 cities or kinds: they are numbered in one byte');
  const cities = numbering(head.cities);
  const kinds = numbering(head.kinds);
  const strings = encodeStrings((function* () {
    for (const e of entries) yield* [e.path, e.slug, e.title, e.description];
  })());
  const codes = new Uint8Array(2 * entries.length);
  const hashes = Buffer.alloc(HASH_BYTES * entries.length);
  const offsets = new Float64Array(entries.length);
  const lengths = new Uint32Array(entries.length);
  entries.forEach((e, i) => {
    codes[2 * i] = cities.get(e.city)!;
    codes[2 * i + 1] = kinds.get(e.kind)!;
    if (hashes.write(e.hash, HASH_BYTES * i, HASH_BYTES, 'hex') !== HASH_BYTES) throw new Error(`${e.path}: its hash is not ${HASH_BYTES} bytes of hex`);
    offsets[i] = e.offset;
    lengths[i] = e.length;
  });
  const sections: Uint8Array[] = [];
  sections[PAGE_SECTIONS.head] = Buffer.from(JSON.stringify(head));
  sections[PAGE_SECTIONS.ends] = strings.ends;
  sections[PAGE_SECTIONS.heap] = strings.heap;
  sections[PAGE_SECTIONS.codes] = codes;
  sections[PAGE_SECTIONS.hashes] = hashes;
  sections[PAGE_SECTIONS.offsets] = new Uint8Array(offsets.buffer);
  sections[PAGE_SECTIONS.lengths] = new Uint8Array(lengths.buffer);
  writeBinaryFile(file, PAGE_INDEX_KIND, sections);
}

export interface PageWriter {
  /** Writes `pages/<slug>.json` and appends the same bytes to the pack; returns the page's index entry. */
  add(page: ReadModelPage): PageIndexEntry;
  /** Closes the pack and writes the index; returns its entries, by path. */
  finish(): PageIndexEntry[];
}

/** The read model's page order: by path, as JavaScript compares strings. */
export const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

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
      writePageIndex(path.join(buildDir, PAGE_INDEX_FILE), entries);
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
