/**
 * The indexed texts of one build (search/texts.txt), read by offset when a search cuts a page's
 * excerpt, and kept split in a byte-bounded LRU, so a server's memory does not grow with the site.
 *
 * Reads are synchronous positioned reads on one descriptor held open while the build is served:
 * a text is a few KB out of the page cache, where a round trip through the thread pool would
 * cost more than the read itself.
 */
import fs from 'node:fs';
import { splitWords, type Words } from './excerpt.ts';
import { Lru } from '../../formats/search/lru.ts';
import { readInto } from '../../formats/read-model/read-at.ts';

/** V8 may hold a text as two bytes a character; its word starts are four bytes each. */
const weightOf = (w: Words) => 2 * w.text.length + 4 * w.starts.length;

export class TextPack {
  private readonly cache: Lru<number, Words>;
  private fd: number | null;

  /** `offsets`: where text i starts in the file (index-file.ts `textOffsets`); `cacheBytes`: the LRU's bound. */
  constructor(file: string, private readonly offsets: Float64Array, readonly cacheBytes: number) {
    this.fd = fs.openSync(file, 'r');
    this.cache = new Lru(cacheBytes);
  }

  /** Texts in the pack. */
  get size(): number {
    return this.offsets.length - 1;
  }

  /** Bytes the cache holds now (by the weight above). */
  get cachedBytes(): number {
    return this.cache.weight;
  }

  /** Text `i` split into words, from the cache or read now. */
  words(i: number): Words {
    const known = this.cache.get(i);
    if (known !== undefined) return known;
    const split = splitWords(this.read(i));
    this.cache.set(i, split, weightOf(split));
    return split;
  }

  private lengthOf(i: number): number {
    if (!(i >= 0 && i < this.size)) throw new RangeError(`search text ${i} of ${this.size}`);
    // The newline after each text is not part of it.
    return this.offsets[i + 1]! - this.offsets[i]! - 1;
  }

  private readInto(i: number, buf: Buffer, length: number): Buffer {
    if (this.fd === null) throw new Error('search texts are closed');
    const start = this.offsets[i]!;
    if (readInto(this.fd, buf, length, start) < length) throw new Error(`search texts end before text ${i} does (${start + length} bytes)`);
    return buf;
  }

  private read(i: number): string {
    const length = this.lengthOf(i);
    return this.readInto(i, Buffer.allocUnsafe(length), length).toString('utf8');
  }

  close(): void {
    if (this.fd === null) return;
    fs.closeSync(this.fd);
    this.fd = null;
    this.cache.clear();
  }
}
