/**
 * The compiled search lexicon of one build (formats/schemas/lexicon.ts), in the shapes the query
 * analysis looks things up in: phrases by their first word, longest first; filler and known words
 * as sets; the real-words filter.
 */
import type { CitySlug } from '../../formats/schemas/cities.ts';
import type { CompiledLexicon } from '../../formats/schemas/lexicon.ts';
import type { BloomFilter } from '../../formats/search/bloom.ts';
import { basqueBareForms } from './basque-endings.ts';
import { EditIndex, withinOneEdit } from '../../formats/search/vocabulary.ts';

export interface Phrase<T> { words: readonly string[]; value: T }

/** Phrases keyed by their first word, longest first, for a left-to-right longest match. */
export class PhraseTable<T> {
  private readonly byFirst = new Map<string, Phrase<T>[]>();

  constructor(entries: Iterable<Phrase<T>>) {
    for (const e of entries) {
      const list = this.byFirst.get(e.words[0]!);
      if (list) list.push(e);
      else this.byFirst.set(e.words[0]!, [e]);
    }
    for (const list of this.byFirst.values()) list.sort((a, b) => b.words.length - a.words.length);
  }

  /** The longest phrase starting at `tokens[i]`. */
  at(tokens: readonly string[], i: number): Phrase<T> | undefined {
    for (const p of this.byFirst.get(tokens[i]!) ?? []) {
      if (i + p.words.length > tokens.length) continue;
      let k = 1;
      while (k < p.words.length && tokens[i + k] === p.words[k]) k++;
      if (k === p.words.length) return p;
    }
    return undefined;
  }
}

/** A word and its other number: "cristal" and "cristales", "vidre" and "vidres". */
const sameWord = (a: string, b: string) => a === b || a === `${b}s` || b === `${a}s` || a === `${b}es` || b === `${a}es`;

/** What a not-offered phrase names: a thing the site never works on, or a setting its work may happen in (not-offered.json). */
export interface NotOffered { thing: boolean; setting: boolean }

/**
 * What the site does not offer, matched left to right. A phrase of several words matches them in
 * the singular or plural and across the words between them that say nothing (filler, one or two
 * letters), and a filler word of its own may be missing: "limpiar cristales" holds "limpiar bien
 * los cristales", as a not-offered sense of a trade's word is told by its neighbours. One word
 * matches only as written ("clase" is not "clases").
 */
export class NotOfferedTable {
  private readonly byFirst = new Map<string, Array<Phrase<NotOffered>>>();

  constructor(entries: Iterable<Phrase<NotOffered>>, private readonly empty: (w: string) => boolean) {
    for (const e of entries) {
      const list = this.byFirst.get(e.words[0]!);
      if (list) list.push(e);
      else this.byFirst.set(e.words[0]!, [e]);
    }
  }

  /** The longest span starting at `tokens[i]` that a phrase matches: its tokens as typed, and what the phrase names. */
  at(tokens: readonly string[], i: number): Phrase<NotOffered> | undefined {
    const t = tokens[i]!;
    let best: Phrase<NotOffered> | undefined;
    for (const first of new Set([t, `${t}s`, `${t}es`, t.replace(/s$/, ''), t.replace(/es$/, '')])) {
      for (const p of this.byFirst.get(first) ?? []) {
        const end = p.words.length > 1 ? this.span(p.words, tokens, i) : first === t ? i + 1 : i;
        if (end > i && (best === undefined || end - i > best.words.length)) best = { words: tokens.slice(i, end), value: p.value };
      }
    }
    return best;
  }

  /** Where a phrase of several words matched from `i` ends, or `i` when it does not. */
  private span(phrase: readonly string[], tokens: readonly string[], i: number): number {
    let j = 0;
    let k = i;
    while (j < phrase.length) {
      if (k < tokens.length && sameWord(phrase[j]!, tokens[k]!)) { j++; k++; continue; }
      if (k > i && k < tokens.length && this.empty(tokens[k]!)) { k++; continue; }
      if (j > 0 && j < phrase.length - 1 && this.empty(phrase[j]!)) { j++; continue; }
      return i;
    }
    return k;
  }
}

export interface Intent {
  /** Words a query must hold (as stems) for each phrase: its non-filler words and negations, or all when every word is filler. */
  phrases: ReadonlyArray<readonly string[]>;
  paths: readonly string[];
  services: readonly string[];
  /** A lexicon intent (the page answers the phrase), not a service name (the phrase names the trade). */
  strong: boolean;
  /** A service's tradesman ("fontanero"): the query asks for a person of that trade. */
  trade: boolean;
}

/** Place names of one word long enough to correct a typo in ("sevila" → sevilla). */
const PLACE_TYPO_MIN = 5;
/**
 * The same for a place the site does not serve, longer: a typo read as one finds nothing at all,
 * and the many short names abroad are one edit from a misspelt trade word.
 */
const UNSERVED_TYPO_MIN = 7;

export class Lexicon {
  readonly rewrites: PhraseTable<readonly string[]>;
  readonly places: PhraseTable<readonly CitySlug[]>;
  /** Synonym phrases → their group (index into `groups`). */
  readonly synonyms: PhraseTable<number>;
  readonly groups: ReadonlyArray<ReadonlyArray<readonly string[]>>;
  readonly intents: readonly Intent[];
  readonly filler: ReadonlySet<string>;
  readonly rooms: ReadonlySet<string>;
  /** Words that begin another clause ("porque", "but"). */
  readonly clauseBreaks: ReadonlySet<string>;
  /** Phrases naming what the site does not offer (their words count as unknown in a query), and whether each is a thing or a setting. */
  readonly notOffered: NotOfferedTable;
  /** Every word the lexicon uses: such a word is never a typo of something else. */
  private readonly known = new Set<string>();
  /** Known words a typo may be corrected to (four letters or more, no filler), by length. */
  private readonly correctable: EditIndex;
  private readonly onePlaceWords: Array<Phrase<readonly CitySlug[]>>;

  constructor(compiled: CompiledLexicon, private readonly realWords: { spanish: BloomFilter; english: BloomFilter }, stemOf: (w: string) => string) {
    this.filler = new Set(compiled.filler);
    this.rooms = new Set(compiled.rooms);
    this.clauseBreaks = new Set(compiled.clause_breaks ?? []);
    const things = new Set((compiled.not_offered_things ?? []).map((p) => p.join(' ')));
    const settings = new Set((compiled.not_offered_settings ?? []).map((p) => p.join(' ')));
    this.notOffered = new NotOfferedTable(compiled.not_offered.map((words) => ({ words, value: { thing: things.has(words.join(' ')), setting: settings.has(words.join(' ')) } })),
      (w) => this.filler.has(w) || /^[a-z0-9]{1,2}$/.test(w));
    const negations = new Set(compiled.negations);
    this.rewrites = new PhraseTable(compiled.rewrites.map(([words, value]) => ({ words, value })));
    // A place the site does not serve names no city: the empty list.
    const places = [...compiled.places, ...(compiled.unserved ?? []).map((words): [string[], CitySlug[]] => [words, []])];
    this.places = new PhraseTable(places.map(([words, value]) => ({ words, value })));
    this.onePlaceWords = places.filter(([w, cities]) => w.length === 1 && w[0]!.length >= (cities.length > 0 ? PLACE_TYPO_MIN : UNSERVED_TYPO_MIN))
      .map(([words, value]) => ({ words, value }));
    this.groups = compiled.synonyms;
    this.synonyms = new PhraseTable(compiled.synonyms.flatMap((group, g) => group.map((words) => ({ words, value: g }))));
    this.intents = compiled.intents.map((intent) => ({
      phrases: intent.phrases.map((p) => {
        const meaningful = p.filter((w) => !this.filler.has(w) || negations.has(w));
        return (meaningful.length > 0 ? meaningful : p).map(stemOf);
      }),
      paths: intent.paths,
      services: intent.services,
      strong: intent.strong,
      trade: intent.trade === true,
    }));
    for (const [from, to] of compiled.rewrites) for (const w of [...from, ...to]) this.known.add(w);
    for (const group of compiled.synonyms) for (const p of group) for (const w of p) this.known.add(w);
    for (const intent of compiled.intents) for (const p of intent.phrases) for (const w of p) this.known.add(w);
    for (const w of [...compiled.filler, ...compiled.rooms]) this.known.add(w);
    for (const p of compiled.not_offered) for (const w of p) this.known.add(w);
    // A word only places use is never what a typo meant: a misspelt place is placeTypo's, and the
    // case forms of place names (build-scripts/lexicon/basque-cases.ts) are one edit from many words.
    const correctable = [...this.known].filter((k) => k.length >= 4 && !this.filler.has(k));
    for (const [p] of places) for (const w of p) this.known.add(w);
    this.correctable = new EditIndex(correctable);
  }

  /** The rewrites applied left to right; a phrase naming what the site does not offer is left as typed ("moving company"). */
  rewrite(tokens: readonly string[]): string[] {
    const out: string[] = [];
    for (let i = 0; i < tokens.length;) {
      const kept = this.notOffered.at(tokens, i);
      if (kept) { out.push(...kept.words); i += kept.words.length; continue; }
      const r = this.rewrites.at(tokens, i);
      if (r) { out.push(...r.value); i += r.words.length; continue; }
      const t = tokens[i++]!;
      out.push(...(this.declined(t) ?? [t]));
    }
    return out;
  }

  /** What a Basque noun under a case ending means ("pitzadurak", "sukaldean"): its bare form's one-word rewrite, for a word nothing knows. */
  private declined(word: string): readonly string[] | undefined {
    if (word.length < 5 || this.isReal(word)) return undefined;
    for (const bare of basqueBareForms(word)) {
      const r = this.rewrites.at([bare], 0);
      if (r !== undefined) return r.value;
    }
    return undefined;
  }

  /** A word the lexicon itself uses. */
  knows(word: string): boolean {
    return this.known.has(word);
  }

  /** A real Spanish or English word (or one of the lexicon's). */
  isReal(word: string): boolean {
    return this.language(word) !== undefined;
  }

  /** Which language a real word is (Spanish when both), or undefined. */
  language(word: string): 'es' | 'en' | undefined {
    if (this.known.has(word) || this.realWords.spanish.has(word)) return 'es';
    return this.realWords.english.has(word) ? 'en' : undefined;
  }

  /** The cities a one-word place name one edit from `word` names ("sevila", "bilvao"). */
  placeTypo(word: string): readonly CitySlug[] | undefined {
    if (word.length < PLACE_TYPO_MIN) return undefined;
    for (const p of this.onePlaceWords) if (withinOneEdit(word, p.words[0]!)) return p.value;
    return undefined;
  }

  /** A lexicon word one edit from `word` ("retrte" → "retrete"), for words the site does not use. */
  correct(word: string): string | undefined {
    let best: string | undefined;
    for (const k of this.correctable.within(word)) if (best === undefined || k < best) best = k;
    return best;
  }
}
