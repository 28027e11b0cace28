/**
 * Writes a build's search index (formats/search/index-file.ts) as pages come, in path order:
 * texts.txt a page at a time, in chunks (the texts of a large site are hundreds of MB), each page's
 * stems into flat columns, and at the end postings.bin, stem by stem, and index.bin.
 */
import fs from 'node:fs';
import path from 'node:path';
import { encodeStrings, writeBinaryFile } from '../../formats/read-model/binary-file.ts';
import { writeAt } from '../../formats/read-model/read-at.ts';
import { PageStemsBuilder } from '../../formats/search/page-stems.ts';
import { INDEX_FILE, INDEX_KIND, INDEX_SECTIONS, IndexHeadSchema, POSTINGS_FILE, TEXTS_FILE } from '../../formats/search/index-file.ts';
import { stem } from '../../formats/search/stem-es.ts';
import { wordsByStem } from '../../formats/search/vocabulary.ts';
import type { PageTerms } from './page-terms.ts';
import { VarintFile } from './varint-file.ts';

export interface IndexWriter {
  /** The next page, in path order. */
  add(pagePath: string, terms: PageTerms): void;
  /** Writes postings.bin and index.bin; `vocabulary`: folded word and the pages it is on, by word. */
  finish(input: { site_url: string; vocabulary: readonly (readonly [string, number])[] }): void;
  /** Closes texts.txt, if `finish` has not (a failed build); closing again does nothing. */
  close(): void;
}

const bytesOf = (a: Uint32Array | Int32Array | Float64Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** Texts appended to texts.txt in chunks of about a megabyte. */
const TEXT_CHUNK = 1 << 20;

/** A growing column of unsigned 32-bit numbers. */
class Column {
  data = new Uint32Array(1 << 12);
  length = 0;
  push(v: number): void {
    if (this.length === this.data.length) {
      const bigger = new Uint32Array(2 * this.data.length);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = v;
  }
  get view(): Uint32Array { return this.data.subarray(0, this.length); }
}

export function createIndexWriter(outDir: string): IndexWriter {
  const fd = fs.openSync(path.join(outDir, TEXTS_FILE), 'w');
  let chunk = '';
  let written = 0;
  let open = true;
  const append = () => {
    const bytes = Buffer.from(chunk, 'utf8');
    writeAt(fd, bytes, written);
    written += bytes.length;
    chunk = '';
  };
  const paths: string[] = [];
  const textBytes = new Column();
  const tokens = new Column();
  // Titles, headings, text stems and vocabulary words share one numbering of stems.
  const titles = new PageStemsBuilder();
  const heads = new PageStemsBuilder(titles.ids);
  const ids = titles.ids;
  // Each page's text stems and counts, page after page.
  const bodyStems = new Column();
  const bodyCounts = new Column();
  const close = () => {
    if (!open) return;
    open = false;
    try { if (chunk !== '') append(); } finally { fs.closeSync(fd); }
  };
  return {
    add(pagePath, terms) {
      if (paths.length > 0 && !(paths[paths.length - 1]! < pagePath)) throw new Error(`pages to index must come in path order: ${pagePath} after ${paths[paths.length - 1]}`);
      chunk += `${terms.text}\n`;
      if (chunk.length >= TEXT_CHUNK) append();
      paths.push(pagePath);
      textBytes.push(Buffer.byteLength(terms.text));
      tokens.push(terms.tokens);
      titles.add(terms.titleStems);
      heads.add(terms.headStems);
      terms.stems.forEach((s, k) => {
        let id = ids.get(s);
        if (id === undefined) ids.set(s, (id = ids.size));
        bodyStems.push(id);
        bodyCounts.push(terms.counts[k]!);
      });
      bodyStems.push(0xffffffff);
      bodyCounts.push(0);
    },
    finish(input) {
      close();
      const wordStems = Uint32Array.from(input.vocabulary, ([word]) => {
        const s = stem(word);
        let id = ids.get(s);
        if (id === undefined) ids.set(s, (id = ids.size));
        return id;
      });
      const postings = writePostings(outDir, ids.size, bodyStems.view, bodyCounts.view);
      const head = IndexHeadSchema.parse({
        site_url: input.site_url, pages: paths.length, words: input.vocabulary.length, stems: ids.size, postings_sha256: postings.sha256,
      });
      const t = titles.finish();
      const h = heads.finish();
      const S = INDEX_SECTIONS;
      const sections: Uint8Array[] = [];
      const strings = (ends: number, heap: number, list: Iterable<string>) => {
        const encoded = encodeStrings(list);
        sections[ends] = encoded.ends;
        sections[heap] = encoded.heap;
      };
      sections[S.head] = Buffer.from(JSON.stringify(head));
      strings(S.pathEnds, S.pathHeap, paths);
      sections[S.textBytes] = bytesOf(textBytes.view);
      sections[S.pageTokens] = bytesOf(tokens.view);
      strings(S.wordEnds, S.wordHeap, input.vocabulary.map(([w]) => w));
      sections[S.wordPages] = bytesOf(Uint32Array.from(input.vocabulary, ([, n]) => n));
      sections[S.wordStems] = bytesOf(wordStems);
      strings(S.stemEnds, S.stemHeap, ids.keys());
      sections[S.titleStarts] = bytesOf(t.starts);
      sections[S.titleStems] = bytesOf(t.stems);
      sections[S.headStarts] = bytesOf(h.starts);
      sections[S.headStems] = bytesOf(h.stems);
      const byStem = wordsByStem(input.vocabulary.map(([w]) => w), input.vocabulary.map(([, n]) => n), wordStems, ids.size);
      sections[S.byStemStarts] = bytesOf(byStem.starts);
      sections[S.byStem] = bytesOf(byStem.order);
      sections[S.postingsAt] = bytesOf(postings.at);
      sections[S.stemPages] = bytesOf(postings.pages);
      writeBinaryFile(path.join(outDir, INDEX_FILE), INDEX_KIND, sections);
    },
    close,
  };
}

/**
 * postings.bin from the pages' stems laid out page after page (each page's list ended by 0xffffffff):
 * the entries are ordered by stem with a counting sort, which keeps each stem's pages ascending.
 */
function writePostings(outDir: string, stems: number, bodyStems: Uint32Array, bodyCounts: Uint32Array): { at: Float64Array; pages: Uint32Array; sha256: string } {
  const pages = new Uint32Array(stems);
  for (const s of bodyStems) if (s !== 0xffffffff) pages[s]!++;
  const start = new Uint32Array(stems + 1);
  for (let s = 0; s < stems; s++) start[s + 1] = start[s]! + pages[s]!;
  const next = start.slice(0, stems);
  const pageOf = new Uint32Array(start[stems]!);
  const countOf = new Uint32Array(start[stems]!);
  for (let i = 0, page = 0; i < bodyStems.length; i++) {
    const s = bodyStems[i]!;
    if (s === 0xffffffff) { page++; continue; }
    const k = next[s]!++;
    pageOf[k] = page;
    countOf[k] = bodyCounts[i]!;
  }
  const at = new Float64Array(stems + 1);
  const fd = fs.openSync(path.join(outDir, POSTINGS_FILE), 'w');
  let sha256: string;
  try {
    const out = new VarintFile(fd);
    for (let s = 0; s < stems; s++) {
      at[s] = out.position;
      for (let k = start[s]!, prev = 0; k < start[s + 1]!; k++) { out.uint(pageOf[k]! - prev); prev = pageOf[k]!; }
      for (let k = start[s]!; k < start[s + 1]!; k++) out.uint(countOf[k]!);
    }
    at[stems] = out.position;
    out.flush();
    sha256 = out.digest.digest('hex');
  } finally {
    fs.closeSync(fd);
  }
  return { at, pages, sha256 };
}

