/**
 * Pagefind's search of one term, answered from the build's postings (postings-index.ts) instead
 * of Pagefind's WebAssembly: the same pages, scores (pagefind-score.ts) and matched positions
 * Pagefind 1.5.2 returns with every index chunk loaded. As Pagefind does, the term is stemmed
 * (Snowball Spanish), every index word that starts with the stem matches, and when none does, the
 * longest index word the stem starts with.
 */
import type { RawHit, TermSearch } from './term-search.ts';
import { averagePageLength, diacriticBonus, idf, lengthBonus, metaBoost, wordScore } from './pagefind-score.ts';
import { PostingsIndex, type PagePosting } from './postings-index.ts';
import { sortUnstable } from './rust-sort.ts';
import { snowballStem } from './stem-es.ts';

/** One page of one matching word form, in Pagefind's order (words in byte order, each word's own form first). */
interface Entry {
  word: number;
  posting: PagePosting;
  bonus: { length: number; diacritic: number };
}

const MARKS = /\p{M}/gu;

/** The words of the term that match: those extending the stem, else the longest the stem extends. */
function matchingWords(index: PostingsIndex, stem: string): number[] {
  const words = index.extensions(stem);
  if (words.length > 0) return words;
  for (let n = stem.length - 1; n > 0; n--) {
    const word = index.find(stem.slice(0, n));
    if (word >= 0) return [word];
  }
  return [];
}

export class PostingsSearch implements TermSearch {
  private readonly avgLength: number;

  constructor(private readonly index: PostingsIndex) {
    this.avgLength = averagePageLength(index.wordCounts);
  }

  /** Pagefind's answer for `term`, a single word (the engine asks for one word prefix at a time). */
  search(term: string): Promise<RawHit[]> {
    return Promise.resolve(this.searchNow(term));
  }

  searchNow(term: string): RawHit[] {
    const typed = term.toLowerCase().trim();
    const folded = typed.normalize('NFD').replace(MARKS, '');
    if (folded === '') return [];
    const stem = snowballStem(folded);
    const entries: Entry[] = [];
    const byPage = new Map<number, number[]>();
    for (const word of matchingWords(this.index, stem)) {
      const postings = this.index.postings(word);
      const name = this.index.words[word]!;
      const length = lengthBonus(name, stem);
      [name, ...postings.forms].forEach((form, k) => {
        const bonus = { length, diacritic: diacriticBonus(typed, form) };
        for (const posting of postings.pages[k]!) {
          let list = byPage.get(posting.page);
          if (list === undefined) byPage.set(posting.page, list = []);
          list.push(entries.length);
          entries.push({ word, posting, bonus });
        }
      });
    }
    const termIdf = idf(this.index.header.pages, byPage.size);
    const hits: { page: number; hit: RawHit }[] = [];
    for (const [page, list] of byPage) hits.push({ page, hit: this.pageHit(page, list.map((i) => entries[i]!), termIdf) });
    // By score; Pagefind leaves the order of equal scores to its sort, here it is the page order.
    return hits.sort((a, b) => b.hit.score - a.hit.score || a.page - b.page).map((h) => h.hit);
  }

  private pageHit(page: number, entries: Entry[], termIdf: number): RawHit {
    // Locations of every matching word on the page, by position; a position two words share
    // counts for the one Rust's unstable sort leaves first, as in Pagefind.
    const locations: { at: number; weight: number; entry: Entry }[] = [];
    for (const entry of entries) {
      const l = entry.posting.locations;
      for (let i = 0; i < l.length; i += 2) locations.push({ weight: l[i]!, at: l[i + 1]!, entry });
    }
    sortUnstable(locations, (a, b) => a.at < b.at);
    const positions: number[] = [];
    const weights = new Map<number, number>();
    for (const loc of locations) {
      if (positions.length > 0 && positions[positions.length - 1] === loc.at) continue;
      positions.push(loc.at);
      weights.set(loc.entry.word, (weights.get(loc.entry.word) ?? 0) + loc.weight);
    }
    let score = 0;
    for (const word of [...weights.keys()].sort((a, b) => a - b)) {
      const first = entries.find((e) => e.word === word)!;
      score = Math.fround(score + wordScore(weights.get(word)!, first.bonus, this.index.wordCounts[page]!, this.avgLength, termIdf));
    }
    const fieldWords = new Map<number, Set<number>>();
    for (const entry of entries) {
      for (const field of entry.posting.metaFields) {
        let set = fieldWords.get(field);
        if (set === undefined) fieldWords.set(field, set = new Set());
        set.add(entry.word);
      }
    }
    let boost = 0;
    for (const [field, words] of [...fieldWords].sort((a, b) => a[0] - b[0])) {
      const name = this.index.header.fields[field];
      if (name !== undefined) boost = Math.fround(boost + metaBoost(name, words.size, termIdf));
    }
    return { id: this.index.ids[page]!, score: Math.fround(score + boost), words: positions };
  }

  close(): Promise<void> {
    this.index.close();
    return Promise.resolve();
  }
}

/** The postings search of the build whose `search/` folder is `searchDir`. */
export async function openPostingsSearch(searchDir: string): Promise<PostingsSearch> {
  return new PostingsSearch(await PostingsIndex.open(searchDir));
}
