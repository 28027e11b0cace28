/**
 * A build's page index (`pages.idx`, written by build-scripts/page-index.ts): every page's index
 * fields, sorted by path, as columns in one binary file (binary-file.ts). A server reads it whole
 * and keeps it as it lies: strings are decoded when asked for, and paths and slugs are found
 * through two open-addressing hash tables over the file's bytes, so a load makes no object per
 * page and holds a few dozen bytes a page beside the strings themselves.
 *
 * Sections: 0 head (JSON, PageIndexHeadSchema); 1–2 the strings, four a page (path, slug, title,
 * description: binary-file.ts `encodeStrings`); 3 city and kind of each page, two bytes (their
 * numbers in the head's lists); 4 each page's content hash, 32 bytes; 5 where its JSON starts in
 * `pages.pack` (f64); 6 its length there (u32).
 */
import { PageIndexHeadSchema, type PageIndexEntry } from '../schemas/read-model.ts';
import { readBinaryFile, StringColumn, type BinaryKind } from './binary-file.ts';

export const PAGE_INDEX_KIND: BinaryKind = { magic: 'AGPAGIDX', format: 1 };
export const PAGE_SECTIONS = { head: 0, ends: 1, heap: 2, codes: 3, hashes: 4, offsets: 5, lengths: 6 } as const;
/** Strings of each page, in this order. */
export const PAGE_STRINGS = 4;
const PATH = 0;
const SLUG = 1;
const TITLE = 2;
const DESCRIPTION = 3;
export const HASH_BYTES = 32;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

export class PageIndex {
  readonly size: number;
  private readonly byPathSlots: Int32Array;
  private readonly bySlugSlots: Int32Array;
  private readonly mask: number;

  private constructor(
    private readonly strings: StringColumn,
    private readonly codes: Uint8Array,
    private readonly cities: readonly PageIndexEntry['city'][],
    private readonly kinds: readonly PageIndexEntry['kind'][],
    private readonly hashes: Buffer,
    private readonly offsets: Float64Array,
    private readonly lengths: Uint32Array,
    private readonly name: string,
  ) {
    this.size = lengths.length;
    // At most half full: a miss ends at the first empty slot after a probe or two.
    let slots = 16;
    while (slots < 2 * this.size) slots *= 2;
    this.mask = slots - 1;
    this.byPathSlots = this.table(PATH, 'path');
    this.bySlugSlots = this.table(SLUG, 'slug');
  }

  /** Reads and checks `file`; throws naming it and what is wrong. */
  static async open(file: string): Promise<PageIndex> {
    const s = await readBinaryFile(file, PAGE_INDEX_KIND);
    const name = s.label;
    const head = s.head(PAGE_SECTIONS.head, PageIndexHeadSchema);
    const n = head.pages;
    const strings = new StringColumn(s.u32(PAGE_SECTIONS.ends, PAGE_STRINGS * n + 1), s.bytes(PAGE_SECTIONS.heap), name);
    const codes = s.bytes(PAGE_SECTIONS.codes);
    if (codes.length !== 2 * n) throw new Error(`${name}: ${codes.length / 2} city and kind pairs for ${n} pages`);
    for (let i = 0; i < n; i++) {
      if (codes[2 * i]! >= head.cities.length || codes[2 * i + 1]! >= head.kinds.length) throw new Error(`${name}: page ${i} names a city or kind not in its head`);
    }
    const hashes = s.bytes(PAGE_SECTIONS.hashes);
    if (hashes.length !== HASH_BYTES * n) throw new Error(`${name}: ${hashes.length} bytes of hashes for ${n} pages`);
    return new PageIndex(strings, codes, head.cities, head.kinds, hashes, s.f64(PAGE_SECTIONS.offsets, n), s.u32(PAGE_SECTIONS.lengths, n), name);
  }

  path(i: number): string { return this.strings.get(PAGE_STRINGS * i + PATH); }
  slug(i: number): string { return this.strings.get(PAGE_STRINGS * i + SLUG); }
  title(i: number): string { return this.strings.get(PAGE_STRINGS * i + TITLE); }
  description(i: number): string { return this.strings.get(PAGE_STRINGS * i + DESCRIPTION); }
  /** One string per city, shared by every page of it. */
  city(i: number): PageIndexEntry['city'] { return this.cities[this.codes[2 * i]!]!; }
  kind(i: number): PageIndexEntry['kind'] { return this.kinds[this.codes[2 * i + 1]!]!; }
  hash(i: number): string { return this.hashes.toString('hex', HASH_BYTES * i, HASH_BYTES * (i + 1)); }
  offset(i: number): number { return this.offsets[i]!; }
  length(i: number): number { return this.lengths[i]!; }

  /** Every field of page `i` (the build checks what it wrote with this). */
  entry(i: number): PageIndexEntry {
    return {
      path: this.path(i), slug: this.slug(i), title: this.title(i), description: this.description(i),
      city: this.city(i), kind: this.kind(i), hash: this.hash(i), offset: this.offset(i), length: this.length(i),
    };
  }

  /** The number of the page with this path, or -1. */
  findPath(key: string): number {
    return this.find(this.byPathSlots, PATH, key);
  }

  /** The number of the page with this slug, or -1. */
  findSlug(key: string): number {
    return this.find(this.bySlugSlots, SLUG, key);
  }

  /** Paths and slugs are ASCII (the schema's patterns), so their bytes are their characters. */
  private find(slots: Int32Array, field: number, key: string): number {
    let h = FNV_OFFSET;
    for (let k = 0; k < key.length; k++) {
      const c = key.charCodeAt(k);
      if (c > 0x7f) return -1;
      h = Math.imul(h ^ c, FNV_PRIME);
    }
    const { ends, heap } = this.strings;
    for (let at = h & this.mask; ; at = (at + 1) & this.mask) {
      const page = slots[at]!;
      if (page < 0) return -1;
      const from = ends[PAGE_STRINGS * page + field]!;
      if (ends[PAGE_STRINGS * page + field + 1]! - from !== key.length) continue;
      let k = 0;
      while (k < key.length && heap[from + k] === key.charCodeAt(k)) k++;
      if (k === key.length) return page;
    }
  }

  /** The hash table of one field; throws on two pages with the same value, or a value not ASCII. */
  private table(field: number, what: string): Int32Array {
    const slots = new Int32Array(this.mask + 1).fill(-1);
    const { ends, heap } = this.strings;
    for (let page = 0; page < this.size; page++) {
      const from = ends[PAGE_STRINGS * page + field]!;
      const to = ends[PAGE_STRINGS * page + field + 1]!;
      let h = FNV_OFFSET;
      for (let b = from; b < to; b++) {
        if (heap[b]! > 0x7f) throw new Error(`${this.name}: page ${page} has a ${what} that is not ASCII`);
        h = Math.imul(h ^ heap[b]!, FNV_PRIME);
      }
      for (let at = h & this.mask; ; at = (at + 1) & this.mask) {
        const other = slots[at]!;
        if (other < 0) { slots[at] = page; break; }
        const start = ends[PAGE_STRINGS * other + field]!;
        if (ends[PAGE_STRINGS * other + field + 1]! - start === to - from && heap.compare(heap, start, start + to - from, from, to) === 0) {
          throw new Error(`${this.name}: two pages have the ${what} ${heap.toString('latin1', from, to)}`);
        }
      }
    }
    return slots;
  }
}
