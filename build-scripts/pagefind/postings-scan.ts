/**
 * The postings writer's first pass over a run of index chunks: the positions its locations
 * occupy (shared-positions.ts) and each word's token table (token-table.ts).
 */
import { forEachWord } from './index-words.ts';
import { PageEntries } from './page-entries.ts';
import { SharedPositions, type PositionMarks } from './shared-positions.ts';
import { TokenTable } from './token-table.ts';

export interface ScanResult {
  marks: PositionMarks;
  /** The words' token tables one after the other; `ends[i]`, where word i's ends. */
  tables: Uint32Array;
  ends: Uint32Array;
}

export function scanChunks(bundle: string, hashes: readonly string[], pages: readonly Uint32Array[]): ScanResult {
  const shared = new SharedPositions(pages.map((t) => t.length));
  const list = new PageEntries();
  const counter = new TokenTable();
  const tables: Uint32Array[] = [];
  forEachWord(bundle, hashes, (_word, r, parts) => {
    const lists = (): void => {
      for (let k = list.start(r); k > 0; k--) {
        list.next();
        const tokens = pages[list.page];
        if (tokens === undefined) throw new Error(`postings: page ${list.page} is not in the index's page list`);
        for (let j = 0; j < list.count; j++) shared.mark(list.page, list.positions[j]!);
        counter.add(tokens, list.positions, list.count);
      }
    };
    lists();
    const variants = parts >= 3 ? r.array() : 0;
    for (let v = 0; v < variants; v++) { r.array(); r.text(); lists(); }
    tables.push(counter.take());
  });
  const ends = new Uint32Array(tables.length);
  let end = 0;
  tables.forEach((t, i) => { ends[i] = end += t.length; });
  const flat = new Uint32Array(end);
  tables.forEach((t, i) => flat.set(t, ends[i]! - t.length));
  return { marks: shared.marks, tables: flat, ends };
}
