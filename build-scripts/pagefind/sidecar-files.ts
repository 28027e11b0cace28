/**
 * Writes the sidecar (server/search/sidecar.ts): texts.txt a page at a time — the texts of a large
 * site are hundreds of MB, and one string of them all would double that — and sidecar.bin, with
 * the pages' title and heading stems (computed by the sessions) and each vocabulary word's stem
 * numbered into one stem list, so a server opening the build stems and parses nothing.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { encodeStrings, writeBinaryFile } from '../../server/read-model/binary-file.ts';
import { PageStemsBuilder } from '../../server/search/page-stems.ts';
import { SIDECAR_FILE, SIDECAR_KIND, SIDECAR_SECTIONS, SidecarHeadSchema, TEXTS_FILE } from '../../server/search/sidecar.ts';
import { stem } from '../../server/search/stem-es.ts';
import { wordsByStem } from '../../server/search/vocabulary.ts';

export interface SidecarInput {
  site_url: string;
  /**
   * In the order they are stored (the caller sorts them); read once, a page at a time. `titleStems`
   * and `headStems`: page-stems.ts `fieldStems` of the title, and of the headings and description.
   */
  pages: Iterable<{ id: string; path: string; text: string; titleStems: readonly string[]; headStems: readonly string[] }>;
  /** Folded word and the number of pages it appears in, by word. */
  vocabulary: readonly (readonly [string, number])[];
}

/** Appends strings to a file in chunks of about a megabyte. */
async function chunkedWriter(file: string) {
  const out = await fs.open(file, 'w');
  let chunk = '';
  return {
    async add(s: string) {
      chunk += s;
      if (chunk.length >= 1 << 20) { await out.write(chunk); chunk = ''; }
    },
    async close() {
      try { if (chunk !== '') await out.write(chunk); } finally { await out.close(); }
    },
  };
}

const bytesOf = (a: Uint32Array | Int32Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

export async function writeSidecarFiles(outDir: string, input: SidecarInput): Promise<void> {
  const texts = await chunkedWriter(path.join(outDir, TEXTS_FILE));
  const ids: string[] = [];
  const paths: string[] = [];
  const textBytes: number[] = [];
  // Titles, headings and vocabulary words share one numbering of stems.
  const titles = new PageStemsBuilder();
  const heads = new PageStemsBuilder(titles.ids);
  try {
    for (const page of input.pages) {
      await texts.add(`${page.text}\n`);
      ids.push(page.id);
      paths.push(page.path);
      textBytes.push(Buffer.byteLength(page.text));
      titles.add(page.titleStems);
      heads.add(page.headStems);
    }
  } finally {
    await texts.close();
  }
  const stemIds = titles.ids;
  const wordStems = Uint32Array.from(input.vocabulary, ([word]) => {
    const s = stem(word);
    let id = stemIds.get(s);
    if (id === undefined) stemIds.set(s, (id = stemIds.size));
    return id;
  });
  const head = SidecarHeadSchema.parse({ site_url: input.site_url, pages: ids.length, words: input.vocabulary.length, stems: stemIds.size });
  const t = titles.finish();
  const h = heads.finish();
  const S = SIDECAR_SECTIONS;
  const sections: Uint8Array[] = [];
  const strings = (ends: number, heap: number, list: Iterable<string>) => {
    const encoded = encodeStrings(list);
    sections[ends] = encoded.ends;
    sections[heap] = encoded.heap;
  };
  sections[S.head] = Buffer.from(JSON.stringify(head));
  strings(S.idEnds, S.idHeap, ids);
  strings(S.pathEnds, S.pathHeap, paths);
  sections[S.textBytes] = bytesOf(Uint32Array.from(textBytes));
  strings(S.wordEnds, S.wordHeap, input.vocabulary.map(([w]) => w));
  sections[S.wordPages] = bytesOf(Uint32Array.from(input.vocabulary, ([, n]) => n));
  sections[S.wordStems] = bytesOf(wordStems);
  strings(S.stemEnds, S.stemHeap, stemIds.keys());
  sections[S.titleStarts] = bytesOf(t.starts);
  sections[S.titleStems] = bytesOf(t.stems);
  sections[S.headStarts] = bytesOf(h.starts);
  sections[S.headStems] = bytesOf(h.stems);
  const byStem = wordsByStem(input.vocabulary.map(([w]) => w), input.vocabulary.map(([, n]) => n), wordStems, stemIds.size);
  sections[S.byStemStarts] = bytesOf(byStem.starts);
  sections[S.byStem] = bytesOf(byStem.order);
  writeBinaryFile(path.join(outDir, SIDECAR_FILE), SIDECAR_KIND, sections);
}
