/** The words of a Pagefind 1.5.2 bundle's index chunks, in order, read one chunk at a time. */
import path from 'node:path';
import { CborReader } from './cbor.ts';
import { readPayload } from './files.ts';

/** Each word of the chunks named by `hashes`, in order: `visit` reads its page lists from the reader. */
export function forEachWord(bundle: string, hashes: readonly string[], visit: (word: string, r: CborReader, parts: number) => void): void {
  for (const hash of hashes) {
    const r = new CborReader(readPayload(path.join(bundle, 'index', `${hash}.pf_index`)));
    if (r.array() !== 1) throw new Error(`postings: unexpected index chunk layout in ${hash}`);
    const n = r.array();
    for (let i = 0; i < n; i++) {
      const parts = r.array();
      visit(r.text(), r, parts);
    }
    if (!r.done) throw new Error(`postings: trailing bytes in index chunk ${hash}`);
  }
}
