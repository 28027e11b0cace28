/**
 * A Bloom filter of folded words: whether a word is a real Spanish or English word, in ~1 MB for
 * ~900,000 dictionary words (1 % false positives). The search uses it to tell a real word the site
 * does not use ("mudanza") from a typo of one it does ("fontanro"): only the typo is corrected, and
 * a real word nothing on the site answers keeps its weight in the query.
 *
 * Hashing is FNV-1a (32-bit) twice with different offsets, combined as h1 + i·h2: the same bits on
 * every machine, so the same content builds the same file.
 */

const FNV_PRIME = 0x01000193;

function fnv1a(word: string, seed: number): number {
  let h = seed >>> 0;
  for (let i = 0; i < word.length; i++) {
    h ^= word.charCodeAt(i);
    h = Math.imul(h, FNV_PRIME) >>> 0;
  }
  return h >>> 0;
}

const SEED_1 = 0x811c9dc5;
const SEED_2 = 0x5bd1e995;
const HEADER = 8;

export class BloomFilter {
  private constructor(private readonly bits: Uint8Array, private readonly size: number, private readonly hashes: number) {}

  /** A filter for `count` words at `falsePositiveRate`. */
  static sized(count: number, falsePositiveRate = 0.01): BloomFilter {
    const m = Math.max(64, Math.ceil((-Math.max(1, count) * Math.log(falsePositiveRate)) / (Math.LN2 * Math.LN2)));
    const k = Math.max(1, Math.round((m / Math.max(1, count)) * Math.LN2));
    return new BloomFilter(new Uint8Array(Math.ceil(m / 8)), m, k);
  }

  /** Reads what `bytes()` wrote; throws on a file that cannot be one. */
  static from(data: Uint8Array): BloomFilter {
    if (data.length < HEADER) throw new Error('bloom filter: file too short');
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    const size = view.getUint32(0, true);
    const hashes = view.getUint32(4, true);
    if (hashes < 1 || hashes > 32 || Math.ceil(size / 8) !== data.length - HEADER) throw new Error('bloom filter: bad header');
    return new BloomFilter(data.subarray(HEADER), size, hashes);
  }

  add(word: string): void {
    const h1 = fnv1a(word, SEED_1);
    const h2 = fnv1a(word, SEED_2) | 1;
    for (let i = 0; i < this.hashes; i++) {
      const bit = (h1 + Math.imul(i, h2)) >>> 0;
      const at = bit % this.size;
      this.bits[at >>> 3]! |= 1 << (at & 7);
    }
  }

  has(word: string): boolean {
    const h1 = fnv1a(word, SEED_1);
    const h2 = fnv1a(word, SEED_2) | 1;
    for (let i = 0; i < this.hashes; i++) {
      const at = ((h1 + Math.imul(i, h2)) >>> 0) % this.size;
      if ((this.bits[at >>> 3]! & (1 << (at & 7))) === 0) return false;
    }
    return true;
  }

  /** Header (bit count, hash count; little-endian u32) and bits. */
  bytes(): Uint8Array {
    const out = new Uint8Array(HEADER + this.bits.length);
    const view = new DataView(out.buffer);
    view.setUint32(0, this.size, true);
    view.setUint32(4, this.hashes, true);
    out.set(this.bits, HEADER);
    return out;
  }
}
