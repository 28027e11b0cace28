/**
 * A build's postings (index-file.ts): each stem's pages and counts, read from postings.bin by a
 * positioned read on a descriptor held open while the build is served, so a large site's
 * postings stay on disk until a query needs them.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { readInto } from '../read-model/read-at.ts';
import { POSTINGS_FILE, type SearchIndexFile } from './index-file.ts';
import { Varints } from './varints.ts';

/** One stem's postings: page k is `pages[k]` (ascending), where the stem occurs `counts[k]` times. */
export interface StemPostings {
  readonly pages: Int32Array;
  readonly counts: Uint32Array;
}

const NONE: StemPostings = { pages: new Int32Array(0), counts: new Uint32Array(0) };

type Index = Pick<SearchIndexFile, 'postingsAt' | 'stemPages' | 'size' | 'postingsSha256'>;

export class PostingsFile {
  private bytes = Buffer.allocUnsafe(64 * 1024);

  private constructor(private fd: number | null, private readonly index: Index) {}

  /** Opens postings.bin once its digest is the one index.bin names: a damaged build fails here, not in a search. */
  static async open(searchDir: string, index: Index): Promise<PostingsFile> {
    const file = path.join(searchDir, POSTINGS_FILE);
    const digest = createHash('sha256');
    for await (const chunk of fs.createReadStream(file)) digest.update(chunk as Buffer);
    if (digest.digest('hex') !== index.postingsSha256) throw new Error(`read model ${POSTINGS_FILE}: damaged (its digest is not the one index.bin names): rebuild the read model (npm run build)`);
    return new PostingsFile(fs.openSync(file, 'r'), index);
  }

  /** The postings of stem number `stem`; throws when the file does not hold what index.bin says. */
  read(stem: number): StemPostings {
    if (this.fd === null) throw new Error('postings: the file is closed');
    const n = this.index.stemPages[stem] ?? 0;
    if (n === 0) return NONE;
    const from = this.index.postingsAt[stem]!;
    const length = this.index.postingsAt[stem + 1]! - from;
    // One buffer for every read: a common word's postings are large and read often.
    if (this.bytes.length < length) this.bytes = Buffer.allocUnsafe(Math.max(length, 2 * this.bytes.length));
    if (readInto(this.fd, this.bytes, length, from) !== length) throw new Error(`postings: stem ${stem} is cut short`);
    const v = new Varints(this.bytes);
    const pages = new Int32Array(n);
    let page = 0;
    for (let k = 0; k < n; k++) {
      const gap = v.uint();
      if (k > 0 && gap === 0) throw new Error(`postings: stem ${stem} names a page twice`);
      page += gap;
      pages[k] = page;
    }
    if (page >= this.index.size) throw new Error(`postings: stem ${stem} names page ${page} of ${this.index.size}`);
    const counts = new Uint32Array(n);
    for (let k = 0; k < n; k++) counts[k] = v.uint();
    v.endsAt(length, `stem ${stem}`);
    return { pages, counts };
  }

  close(): void {
    if (this.fd !== null) fs.closeSync(this.fd);
    this.fd = null;
  }
}
