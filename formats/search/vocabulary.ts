/**
 * The words of one build and what counts as a real match for a query word.
 *
 * A page word matches a query word when their stems are equal, or when one stem is the other
 * plus a short derivational tail ("fontan|er": fontanero ↔ fontanería, "electr|ic": eléctrico ↔
 * electricista, "humed|ad": humedad ↔ humedades) and the shorter stem has at least five letters.
 * Never by prefix alone: "dentista" must not match "dentro", nor "agua" match "agudo".
 */
import { soundKey } from './phonetic.ts';
import { stem } from './stem-es.ts';

const TAILS = ['a', 'e', 'i', 'o', 'ad', 'ar', 'er', 'ir', 'or', 'ic'];
const MIN_BASE = 5;
/** Typo correction applies to words this long or longer (one edit). */
export const TYPO_MIN_LENGTH = 5;

/** Stems a query word `t` may match: its own, plus the derivational relatives of the rule above. */
export function familyStems(t: string): Set<string> {
  const s = stem(t);
  const out = new Set([s]);
  if (s.length >= MIN_BASE) for (const tail of TAILS) out.add(s + tail);
  for (const tail of TAILS) {
    if (s.length - tail.length >= MIN_BASE && s.endsWith(tail)) out.add(s.slice(0, -tail.length));
  }
  return out;
}

/** `a` from `ia` equals `b` from `ib`. (Module-level: tsx wraps every inner closure in a `__name` call.) */
function sameRest(a: string, b: string, ia: number, ib: number): boolean {
  if (a.length - ia !== b.length - ib) return false;
  while (ia < a.length) if (a.charCodeAt(ia++) !== b.charCodeAt(ib++)) return false;
  return true;
}

/** Optimal string alignment distance ≤ 1 (one insertion, deletion, substitution or swap). */
export function withinOneEdit(a: string, b: string): boolean {
  const la = a.length;
  const lb = b.length;
  if (la - lb > 1 || lb - la > 1) return false;
  let i = 0;
  while (i < la && i < lb && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i === la && i === lb) return true;
  if (la === lb) {
    if (sameRest(a, b, i + 1, i + 1)) return true;
    return a.charCodeAt(i) === b.charCodeAt(i + 1) && a.charCodeAt(i + 1) === b.charCodeAt(i) && sameRest(a, b, i + 2, i + 2);
  }
  return la > lb ? sameRest(a, b, i + 1, i) : sameRest(a, b, i, i + 1);
}

/** A bit per letter a string holds (by its code's low five bits: a–z get one each). */
function letterMask(s: string): number {
  let mask = 0;
  for (let i = 0; i < s.length; i++) mask |= 1 << (s.charCodeAt(i) & 31);
  return mask;
}

function bitCount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * Strings grouped by length with the letters each holds, for finding those one edit from a word:
 * only lengths n-1..n+1 are read, and of them only strings whose letters differ from the word's
 * in at most two (one edit adds a letter, drops one, or both) are compared.
 */
export class EditIndex {
  private readonly buckets = new Map<number, { strings: string[]; masks: Int32Array }>();

  constructor(list: Iterable<string>) {
    const byLength = new Map<number, string[]>();
    for (const w of list) {
      const bucket = byLength.get(w.length);
      if (bucket === undefined) byLength.set(w.length, [w]);
      else bucket.push(w);
    }
    for (const [n, strings] of byLength) this.buckets.set(n, { strings, masks: Int32Array.from(strings, letterMask) });
  }

  /** The strings one edit or less from `t` (withinOneEdit). */
  within(t: string): string[] {
    const mask = letterMask(t);
    const out: string[] = [];
    for (let n = t.length - 1; n <= t.length + 1; n++) {
      const bucket = this.buckets.get(n);
      if (bucket === undefined) continue;
      const { strings, masks } = bucket;
      for (let i = 0; i < strings.length; i++) {
        if (bitCount(masks[i]! ^ mask) <= 2 && withinOneEdit(t, strings[i]!)) out.push(strings[i]!);
      }
    }
    return out;
  }
}

/** Strings by number: a column of index.bin, or an array. */
export interface StringList {
  readonly size: number;
  get(i: number): string;
  /** String i against `key`, as `<` orders them (binary-file.ts `StringColumn.compare`). */
  compare?(i: number, key: string): number;
}

/**
 * A build's vocabulary as index.bin holds it: words sorted (UTF-16 order), the pages each
 * appears in, and the words of each stem in the order `family` lists them (`wordsByStem`).
 */
export interface VocabularyData {
  words: StringList;
  pages: ArrayLike<number>;
  /** Stem → its number: `byStem[byStemStarts[n] .. byStemStarts[n + 1])` are the words of stem n. */
  stemIds: ReadonlyMap<string, number>;
  byStemStarts: ArrayLike<number>;
  byStem: ArrayLike<number>;
}

const compareWords = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Most frequent first, then the shorter, then alphabetical: the order a stem's words are tried in. */
function byRank(pages: ArrayLike<number>, word: (i: number) => string): (a: number, b: number) => number {
  return (a, b) => (pages[b]! - pages[a]!) || (word(a).length - word(b).length) || compareWords(word(a), word(b));
}

/** Word numbers grouped by stem number (`stemOf[i]` of word i), each group in rank order. */
export function wordsByStem(words: readonly string[], pages: ArrayLike<number>, stemOf: ArrayLike<number>, stems: number): { starts: Uint32Array; order: Uint32Array } {
  const starts = new Uint32Array(stems + 1);
  for (let i = 0; i < words.length; i++) starts[stemOf[i]! + 1]!++;
  for (let s = 0; s < stems; s++) starts[s + 1]! += starts[s]!;
  const order = new Uint32Array(words.length);
  const next = starts.slice(0, stems);
  for (let i = 0; i < words.length; i++) order[next[stemOf[i]!]!++] = i;
  const rank = byRank(pages, (i) => words[i]!);
  for (let s = 0; s < stems; s++) order.subarray(starts[s]!, starts[s + 1]!).sort(rank);
  return { starts, order };
}

/** The vocabulary data of `entries` (word, pages, stem when known), made in memory. */
function dataOf(entries: Iterable<readonly [string, number, string?]>): VocabularyData {
  const sorted = [...entries].sort((a, b) => compareWords(a[0], b[0]));
  const words = sorted.map(([w]) => w);
  const pages = sorted.map(([, n]) => n);
  const stemIds = new Map<string, number>();
  const stemOf = sorted.map(([w, , known]) => {
    const s = known ?? stem(w);
    let id = stemIds.get(s);
    if (id === undefined) stemIds.set(s, (id = stemIds.size));
    return id;
  });
  const { starts, order } = wordsByStem(words, pages, stemOf, stemIds.size);
  return { words: { size: words.length, get: (i) => words[i]! }, pages, stemIds, byStemStarts: starts, byStem: order };
}

/** Letters a sound key is made of (folded words, phonetic.ts). */
const KEY_LETTERS = 'abcdefghijklmnopqrstuvwxyzñ0123456789';

/** FNV-1a of a string's UTF-16 code units. */
function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** The strings one deletion, substitution, insertion or swap of neighbours from `key` (KEY_LETTERS). */
function oneEditVariants(key: string): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i <= key.length; i++) {
    const head = key.slice(0, i);
    if (i < key.length) {
      out.add(head + key.slice(i + 1));
      if (i + 1 < key.length) out.add(head + key[i + 1] + key[i] + key.slice(i + 2));
    }
    for (const c of KEY_LETTERS) {
      out.add(head + c + key.slice(i));
      if (i < key.length) out.add(head + c + key.slice(i + 1));
    }
  }
  return out;
}

/**
 * Page words by the sound key they have: word numbers in the order of their keys' hashes, beside
 * those hashes. Two numbers a word, where a map of keys would hold a string per word.
 */
export class SoundIndex {
  private readonly hashes: Uint32Array;
  private readonly ids: Int32Array;

  constructor(private readonly words: readonly string[]) {
    const ids: number[] = [];
    const hashes: number[] = [];
    words.forEach((w, i) => { if (w.length >= SOUND_MIN) { ids.push(i); hashes.push(hash32(soundKey(w))); } });
    const order = Int32Array.from(ids.keys()).sort((a, b) => hashes[a]! - hashes[b]!);
    this.hashes = Uint32Array.from(order, (k) => hashes[k]!);
    this.ids = Int32Array.from(order, (k) => ids[k]!);
  }

  /** The words whose sound key is `key`. */
  get(key: string): string[] {
    const h = hash32(key);
    let lo = 0;
    let hi = this.hashes.length;
    while (lo < hi) { const mid = (lo + hi) >>> 1; if (this.hashes[mid]! < h) lo = mid + 1; else hi = mid; }
    const out: string[] = [];
    for (let i = lo; i < this.hashes.length && this.hashes[i] === h; i++) {
      const w = this.words[this.ids[i]!]!;
      if (soundKey(w) === key) out.push(w);
    }
    return out;
  }

  /** The words whose sound key is one edit from `key`, or is `key`. */
  near(key: string): string[] {
    return [...oneEditVariants(key).add(key)].flatMap((k) => this.get(k));
  }
}

/** Words shorter than this are not matched by sound: short words sound like too many others. */
const SOUND_MIN = 4;
/** Sound keys this long or longer may differ by one edit too. */
const SOUND_EDIT_MIN = 7;

export class Vocabulary {
  private readonly data: VocabularyData;
  /** For typo correction, made on its first use (or at `prepare`): every word and stem. */
  private edits: { words: EditIndex; stems: EditIndex; sounds: SoundIndex } | undefined;
  /** correct() answers, bounded: a query word is looked up on every search that has it. */
  private readonly corrections = new Map<string, string | null>();

  /**
   * `entries`: folded word, the number of pages it appears in, and its stem when known; or the
   * data as index.bin holds it (nothing made per word at open). `size`: pages in the build (0: unknown).
   */
  constructor(entries: Iterable<readonly [string, number, string?]> | VocabularyData, readonly size = 0) {
    this.data = 'stemIds' in entries ? entries : dataOf(entries);
  }

  /** The number of `word`, or -1 (binary search of the sorted words). */
  private find(word: string): number {
    const words = this.data.words;
    let lo = 0;
    let hi = words.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const c = words.compare ? words.compare(mid, word) : compareWords(words.get(mid), word);
      if (c === 0) return mid;
      if (c < 0) lo = mid + 1;
      else hi = mid;
    }
    return -1;
  }

  /** Pages the word appears in (0 when the build does not have it). */
  pages(word: string): number {
    const i = this.find(word);
    return i < 0 ? 0 : this.data.pages[i]!;
  }

  /** Pages the words of a query word's family appear in, at most (the largest count of any of them). */
  familyPages(t: string): number {
    let max = 0;
    this.eachOfFamily(t, (i) => { max = Math.max(max, this.data.pages[i]!); });
    return max;
  }

  /** The first word in the vocabulary's order, decoded alone. */
  first(): string | undefined {
    return this.data.words.size > 0 ? this.data.words.get(0) : undefined;
  }

  /** Every word of the build, alphabetically. */
  words(): string[] {
    return Array.from({ length: this.data.words.size }, (_, i) => this.data.words.get(i));
  }

  /** Page words a query word matches (empty when it matches nothing in this build). */
  family(t: string): string[] {
    const out: string[] = [];
    this.eachOfFamily(t, (i) => { out.push(this.data.words.get(i)); });
    return out;
  }

  private eachOfFamily(t: string, each: (word: number) => void): void {
    const { stemIds, byStemStarts, byStem } = this.data;
    for (const s of familyStems(t)) {
      const n = stemIds.get(s);
      if (n === undefined) continue;
      for (let k = byStemStarts[n]!; k < byStemStarts[n + 1]!; k++) each(byStem[k]!);
    }
  }

  /**
   * The word a misspelt query word most likely meant: a page word one edit away, or failing that a
   * word whose stem is one edit from the query word's stem ("cerrajro" → "cerrajero"); the most
   * frequent wins, then the shorter, then the alphabetically first. Undefined if none.
   */
  correct(t: string, minLength = TYPO_MIN_LENGTH): string | undefined {
    if (t.length < minLength) return undefined;
    let known = this.corrections.get(t);
    if (known === undefined) {
      if (this.corrections.size >= 10_000) this.corrections.clear();
      known = this.closest(t) ?? null;
      this.corrections.set(t, known);
    }
    return known ?? undefined;
  }

  /** Makes what typo correction reads, so the first misspelt query does not wait for it. */
  prepare(): { words: EditIndex; stems: EditIndex; sounds: SoundIndex } {
    if (this.edits === undefined) {
      const { stemIds, byStemStarts } = this.data;
      // Stems with words only: the list holds the stems of titles and headings too.
      const stems = [...stemIds].filter(([, n]) => byStemStarts[n + 1]! > byStemStarts[n]!).map(([s]) => s);
      const words = this.words();
      this.edits = { words: new EditIndex(words), stems: new EditIndex(stems), sounds: new SoundIndex(words) };
    }
    return this.edits;
  }

  /**
   * A page word that sounds as `t` does (phonetic.ts), or with `near` one sound key edit from it,
   * for a longer word ("calefazzion"): for misspellings by ear, more than one edit from the
   * spelling. The most frequent wins.
   */
  soundsLike(t: string, near = false): string | undefined {
    if (t.length < SOUND_MIN) return undefined;
    const key = soundKey(t);
    if (near && key.length < SOUND_EDIT_MIN) return undefined;
    const { sounds } = this.prepare();
    let best: string | undefined;
    for (const w of near ? sounds.near(key) : sounds.get(key)) if (best === undefined || this.rank(w, best) < 0) best = w;
    return best;
  }

  private closest(t: string): string | undefined {
    const edits = this.prepare();
    let best: string | undefined;
    for (const w of edits.words.within(t)) if (best === undefined || this.rank(w, best) < 0) best = w;
    if (best !== undefined) return best;
    const st = stem(t);
    if (st.length < MIN_BASE) return undefined;
    const { stemIds, byStemStarts, byStem } = this.data;
    for (const s of edits.stems.within(st)) {
      if (s.length < MIN_BASE) continue;
      const w = this.data.words.get(byStem[byStemStarts[stemIds.get(s)!]!]!);
      if (best === undefined || this.rank(w, best) < 0) best = w;
    }
    return best;
  }

  private rank(a: string, b: string): number {
    return (this.pages(b) - this.pages(a)) || (a.length - b.length) || compareWords(a, b);
  }
}
