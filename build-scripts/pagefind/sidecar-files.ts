/**
 * Writes the sidecar (formats/search/sidecar.ts): texts.txt a page at a time — the texts of a large
 * site are hundreds of MB, and one string of them all would double that — and sidecar.bin, with
 * the pages' title and heading stems (computed by the sessions) and each vocabulary word's stem
 * numbered into one stem list, so a server opening the build stems and parses nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { encodeStrings, writeBinaryFile } from '../../formats/read-model/binary-file.ts';
import { writeAt } from '../../formats/read-model/read-at.ts';
import { PageStemsBuilder } from '../../formats/search/page-stems.ts';
import { SIDECAR_FILE, SIDECAR_KIND, SIDECAR_SECTIONS, SidecarHeadSchema, TEXTS_FILE } from '../../formats/search/sidecar.ts';
import { stem } from '../../formats/search/stem-es.ts';
import { wordsByStem } from '../../formats/search/vocabulary.ts';

export interface SidecarInput {
  site_url: string;
  /** In the order they are stored (the caller sorts them); read once, a page at a time. */
  pages: Iterable<SidecarPage>;
  /** Folded word and the number of pages it appears in, by word. */
  vocabulary: readonly (readonly [string, number])[];
}

/** One page of the sidecar. `titleStems`, `headStems`: page-stems.ts `fieldStems` of the title, and of the headings and description. */
export interface SidecarPage { id: string; path: string; text: string; titleStems: readonly string[]; headStems: readonly string[] }

export interface SidecarWriter {
  /** The next page, in the order pages are stored (by path). */
  add(page: SidecarPage): void;
  /** Writes sidecar.bin; `vocabulary` holds the folded words and the number of pages each appears in, by word. */
  finish(input: Omit<SidecarInput, 'pages'>): void;
  /** Closes texts.txt, if `finish` has not (a failed build); closing again does nothing. */
  close(): void;
}

const bytesOf = (a: Uint32Array | Int32Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** Texts appended to texts.txt in chunks of about a megabyte. */
const TEXT_CHUNK = 1 << 20;

/**
 * The sidecar, written a page at a time as pages come (texts.txt at once, in chunks), and
 * sidecar.bin at the end: the search stage adds each session's pages as the merge takes it, so
 * only the vocabulary's part is left for the stage's single-threaded end.
 */
export function createSidecarWriter(outDir: string): SidecarWriter {
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
  const ids: string[] = [];
  const paths: string[] = [];
  const textBytes: number[] = [];
  // Titles, headings and vocabulary words share one numbering of stems.
  const titles = new PageStemsBuilder();
  const heads = new PageStemsBuilder(titles.ids);
  const close = () => {
    if (!open) return;
    open = false;
    try { if (chunk !== '') append(); } finally { fs.closeSync(fd); }
  };
  return {
    add(page) {
      chunk += `${page.text}\n`;
      if (chunk.length >= TEXT_CHUNK) append();
      ids.push(page.id);
      paths.push(page.path);
      textBytes.push(Buffer.byteLength(page.text));
      titles.add(page.titleStems);
      heads.add(page.headStems);
    },
    finish(input) {
      close();
      writeSidecarBin(outDir, input, { ids, paths, textBytes, titles, heads });
    },
    close,
  };
}

export async function writeSidecarFiles(outDir: string, input: SidecarInput): Promise<void> {
  const writer = createSidecarWriter(outDir);
  try {
    for (const page of input.pages) writer.add(page);
  } catch (err) {
    writer.close();
    throw err;
  }
  writer.finish(input);
}

function writeSidecarBin(outDir: string, input: Omit<SidecarInput, 'pages'>, pages: {
  ids: string[]; paths: string[]; textBytes: number[]; titles: PageStemsBuilder; heads: PageStemsBuilder;
}): void {
  const { ids, paths, textBytes, titles, heads } = pages;
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
