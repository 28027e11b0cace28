/**
 * The indexed texts of one build (search/texts.txt), read by offset when a search needs a page's
 * words — to check Pagefind's matched positions and to cut excerpts — and kept split in a
 * byte-bounded LRU, so a server's memory does not grow with the site.
 *
 * Reads are synchronous positioned reads on one descriptor held open while the build is served:
 * a text is a few KB out of the page cache, and a search checks thousands of them in one go,
 * where a round trip through the thread pool per text would cost more than the read itself.
 */
import fs from 'node:fs';
import { splitWords, wordAt, type Words } from './excerpt.ts';
import { Lru } from './lru.ts';
import { readInto } from '../read-model/read-at.ts';

/** V8 may hold a text as two bytes a character; its word starts are four bytes each. */
const weightOf = (w: Words) => 2 * w.text.length + 4 * w.starts.length;

const SPACE = 0x20;

export class TextPack {
  private readonly cache: Lru<number, Words>;
  private fd: number | null;
  /** Scratch for `wordsAt`: the bytes of one text, and where its words start. */
  private bytes = Buffer.alloc(64 * 1024);
  private starts = new Int32Array(4096);

  /** Whether every text fits the cache at once (a small site): then every text read is kept. */
  private readonly keepAll: boolean;

  /** `offsets`: where text i starts in the file (sidecar.ts `textOffsets`); `cacheBytes`: the LRU's bound. */
  constructor(file: string, private readonly offsets: Float64Array, cacheBytes: number) {
    this.fd = fs.openSync(file, 'r');
    this.cache = new Lru(cacheBytes);
    // Weight per byte of text: two for the string, at most two for word starts (a word every two bytes).
    this.keepAll = 4 * (offsets[offsets.length - 1] ?? 0) <= cacheBytes;
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

  /**
   * The words at `positions` of text `i` (undefined past its end), as `wordAt` of its split words
   * gives them, without splitting or caching it: checking where Pagefind matched a word reads
   * thousands of texts once each, which would only churn the cache.
   */
  wordsAt(i: number, positions: readonly number[]): Array<string | undefined> {
    const known = this.keepAll ? this.words(i) : this.cache.get(i);
    if (known !== undefined) return positions.map((p) => wordAt(known, p));
    const length = this.lengthOf(i);
    if (this.bytes.length < length) this.bytes = Buffer.alloc(Math.max(length, 2 * this.bytes.length));
    const text = this.readInto(i, this.bytes, length).subarray(0, length);
    let last = -1;
    for (const p of positions) if (p > last) last = p;
    if (this.starts.length < last + 2) this.starts = new Int32Array(Math.max(last + 2, 2 * this.starts.length));
    // Words whose start is known, up to the one after the last asked for (its start ends that one).
    let n = 0;
    if (length > 0) {
      this.starts[n++] = 0;
      for (let at = 0; n <= last + 1;) {
        const space = text.indexOf(SPACE, at);
        if (space === -1) break;
        this.starts[n++] = at = space + 1;
      }
    }
    return positions.map((p) => (p < 0 || p >= n ? undefined
      : text.toString('utf8', this.starts[p]!, p + 1 < n ? this.starts[p + 1]! - 1 : length)));
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
