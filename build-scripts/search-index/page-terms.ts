/**
 * What the index holds of one page (formats/search/index-file.ts), made in the build's workers: the
 * text indexed, the stems of its title and of its headings and description, each stem of its text
 * with how often it occurs, its token count and its distinct words (the vocabulary's page counts).
 */
import type { ReadModelPage } from '../../formats/schemas/read-model.ts';
import { headingText, markdownToText, withoutLinkLists } from '../../formats/search/plain-text.ts';
import { fieldStems } from '../../formats/search/page-stems.ts';
import { stem } from '../../formats/search/stem-es.ts';
import { words } from '../../formats/search/text.ts';
import { loadPageTerms, pageTermsKey, storePageTerms } from '../cache/page-terms.ts';
import type { CacheFolders } from '../cache/store.ts';

/** What the index needs of a page. */
export type IndexPage = Pick<ReadModelPage, 'path' | 'title' | 'city' | 'description' | 'markdown'>;

export interface PageTerms {
  /** The text indexed: texts.txt holds it, excerpts are cut from it. */
  text: string;
  titleStems: string[];
  headStems: string[];
  /** The text's stems, each once, with `counts[k]` occurrences of `stems[k]`. */
  stems: string[];
  counts: number[];
  /** Tokens of the text (its words between single spaces). */
  tokens: number;
  /** Distinct folded words of the title and text. */
  words: string[];
}

/**
 * The text indexed for a page: its description (when the body does not already say it), then the
 * body without its lists of links (plain-text.ts `withoutLinkLists`).
 */
export function indexedText(page: Pick<ReadModelPage, 'description' | 'markdown'>): string {
  const body = markdownToText(withoutLinkLists(page.markdown));
  const description = page.description.replace(/\s+/g, ' ').trim();
  return description === '' || body.includes(description) ? body : `${description} ${body}`;
}

/** Folded word → stem, kept by each thread across its pages (a site's words recur). */
const memo = new Map<string, string>();

function stemOf(word: string): string {
  let s = memo.get(word);
  if (s === undefined) {
    s = stem(word);
    if (memo.size >= 100_000) memo.clear();
    memo.set(word, s);
  }
  return s;
}

export function pageTerms(page: IndexPage): PageTerms {
  const text = indexedText(page);
  const bodyWords = words(text);
  const counts = new Map<string, number>();
  for (const w of bodyWords) {
    const s = stemOf(w);
    counts.set(s, (counts.get(s) ?? 0) + 1);
  }
  return {
    text,
    titleStems: fieldStems(page.title, memo),
    headStems: fieldStems(`${headingText(page.markdown)} ${page.description}`, memo),
    stems: [...counts.keys()],
    counts: [...counts.values()],
    tokens: text === '' ? 0 : text.split(' ').length,
    words: [...new Set([...words(page.title), ...bodyWords])],
  };
}

/** A slice's terms, page by page, and how it used the cache when it was given one. */
export interface IndexedSlice {
  terms: PageTerms[];
  cache?: { keys: string[]; hits: number };
}

/**
 * The terms of consecutive pages: one task of a build worker. With `cache` (cache/page-terms.ts),
 * a page as an earlier build indexed it comes from there, and the others are left in its new entries.
 */
export function indexPages(task: { pages: IndexPage[]; cache?: CacheFolders }): IndexedSlice {
  const { cache } = task;
  if (cache === undefined) return { terms: task.pages.map(pageTerms) };
  const keys: string[] = [];
  let hits = 0;
  const terms = task.pages.map((page) => {
    const key = pageTermsKey(page);
    keys.push(key);
    const known = loadPageTerms(cache.dir, key);
    if (known !== undefined && known !== 'damaged') {
      hits++;
      return known;
    }
    const made = pageTerms(page);
    storePageTerms(cache.newDir, key, made);
    return made;
  });
  return { terms, cache: { keys, hits } };
}
