/**
 * From what a person or agent typed to what is looked up, with the build's lexicon and vocabulary:
 *
 * 0. spacing (spacing.ts): words split or run together while typing are mended ("calde ra" →
 *    "caldera", "reformacocina" → "reforma cocina");
 * 1. rewrites: SMS spellings and English become the site's Spanish ("xq" → "porque",
 *    "plumber" → "fontanero");
 * 2. places: city, island, district, local names and demonyms are set aside as the cities the
 *    query names (a one-word name with one typo too: "sevila"); a place the site does not serve
 *    ("Donostia") names none, and is noted;
 * 3. each other word becomes a topic term, with its synonyms as weaker alternatives, or a soft
 *    term (filler: stop words, price and urgency words, "casa": they rank, never make a match),
 *    or an unknown word (a real word nothing on the site or in the lexicon answers: it keeps its
 *    weight, so "mudanza en madrid" finds nothing; so do the lexicon's not-offered words, which
 *    pages may mention in passing), or is corrected by one edit when it is not a real word
 *    ("fontanro"), or is dropped (nothing it could be); a query naming a thing the site never
 *    works on ("coche") is about it, so its other words are unknown too; a setting the work may
 *    happen in ("piso de alquiler") weighs nothing beside a job a service does;
 * 4. intents (intents.ts): lexicon phrases whose words the query holds name the pages that
 *    answer them;
 */
import type { CitySlug } from '../../formats/schemas/cities.ts';
import { matchIntents, type MatchedIntent } from './intents.ts';
import type { Lexicon } from './lexicon.ts';
import { mendSpacing } from './spacing.ts';
import { stem } from '../../formats/search/stem-es.ts';
import { words } from '../../formats/search/text.ts';
import { familyStems, type Vocabulary } from '../../formats/search/vocabulary.ts';

/** The normalized query that results are cached and cursors bound under: folded words, one space apart. */
export const normalizeQuery = (query: string): string => words(query).join(' ');

/** Synonyms match at this weight of the word typed. */
export const SYNONYM_WEIGHT = 0.8;
const TOO_SHORT = /^(?:[a-z]{1,2}|\d+)$/;
/** Filler words on more than this share of the pages are not looked up: they weigh next to nothing, and their postings are long ("de", "la"). */
const SOFT_MAX_PAGE_SHARE = 0.25;
/** Words shorter than this are not corrected. */
const TYPO_MIN = 4;
/**
 * Chat spellings of Spanish sounds, tried before a one-edit correction: "muxo" → "mucho",
 * "duxa" → "ducha", "kiero" → "quiero", "kasa" → "casa".
 */
const CHAT_SPELLINGS: ReadonlyArray<readonly [RegExp, string]> = [[/x/g, 'ch'], [/k(?=[ei])/g, 'qu'], [/k/g, 'c']];

/** Alternatives that match the same pages (inflections of one word) are looked up once. */
function distinct(alternatives: Alternative[]): Alternative[] {
  const seen = new Set<string>();
  return alternatives.filter((a) => {
    const key = a.words.map((w) => [...familyStems(w)].sort().join('|')).join(' ');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** One way of matching a term: every word must be on the page. */
export interface Alternative { words: readonly string[]; weight: number }

export interface Term {
  /** The word (or phrase) as analysed, for logs and tests. */
  text: string;
  alternatives: Alternative[];
  /** Stems the term stands for, to see which intents cover it. */
  stems: ReadonlySet<string>;
}

/** A real word nothing on the site answers, or one naming what the site does not offer. */
export interface Unknown {
  text: string;
  /** A share of the rarest word's weight (UNKNOWN_WEIGHTS). */
  weight: number;
}

/**
 * How much of the rarest word's weight an unknown word carries: a word naming what the site does
 * not offer is surely the topic; a real Spanish word the site never uses may be ("gestoría") or
 * may be an aside ("en el pasillo", "desde ayer"); an English one the lexicon lacks, less so.
 */
export const UNKNOWN_WEIGHTS = {
  notOffered: 1.25,
  spanish: 0.35,
  english: 0.2,
};

export interface Analysis {
  /** The cities the query names; of a place several cities have, those it also names otherwise ("delicias zaragoza"). */
  cities: CitySlug[];
  /** The query names a place the site does not serve. */
  elsewhere: boolean;
  terms: Term[];
  soft: Term[];
  unknown: Unknown[];
  intents: MatchedIntent[];
  /**
   * The words read, in the query's order, as runs that place names, not-offered words and words
   * nothing on the site has break: what a page's own phrase is looked for in (phrase.ts).
   */
  runs: string[][];
}

/** What a normalized query means, read with the build's lexicon and vocabulary (see the module's comment). */
export function analyze(normalized: string, lexicon: Lexicon, vocabulary: Vocabulary): Analysis {
  // Words split or run together while typing ("calde ra", "reformacocina") are mended first (spacing.ts).
  const typed = mendSpacing(normalized === '' ? [] : normalized.split(' '), {
    answered: (w) => vocabulary.pages(w) > 0 || lexicon.knows(w) || lexicon.rewrite([w]).join(' ') !== w,
    real: (w) => lexicon.isReal(w),
    topic: (w) => vocabulary.pages(w) > 0 && lexicon.knows(w),
    // A place the site does not serve is no part of a word ("calieta" is not "cali eta").
    known: (w) => vocabulary.pages(w) > 0 || (lexicon.knows(w) && lexicon.places.at([w], 0)?.value.length !== 0),
    typo: (w) => w.length >= TYPO_MIN && (vocabulary.soundsLike(w) ?? vocabulary.correct(w, TYPO_MIN)) !== undefined,
    filler: (w) => lexicon.filler.has(w),
  });
  const tokens = lexicon.rewrite(typed);
  /** Each city named, with how many of the query's place names name it. */
  const named = new Map<CitySlug, number>();
  let elsewhere = false;
  /** Words that are nothing: the query may be about anything, so its filler stays filler. */
  let dropped = 0;
  const addCities = (list: readonly CitySlug[]) => {
    if (list.length === 0) elsewhere = true;
    for (const c of list) named.set(c, (named.get(c) ?? 0) + 1);
  };
  const terms: Term[] = [];
  const soft: Term[] = [];
  const unknown: Unknown[] = [];
  const runs: string[][] = [[]];
  const read = (...ws: readonly string[]) => runs[runs.length - 1]!.push(...ws);
  const breakRun = () => { if (runs[runs.length - 1]!.length > 0) runs.push([]); };
  /** Every word the query means, as stems: what intent phrases are matched against. */
  const meant = new Set<string>();
  /** The clause being read ("…el coche | porque la puerta del garaje no abre"), and by clause the stems meant in it and the terms it holds. */
  let clause = 0;
  const meantIn: Set<string>[] = [new Set()];
  const termClause = new Map<string, number>();
  const mean = (s: string) => {
    meant.add(s);
    meantIn[clause]!.add(s);
  };
  /** The things the query names that the site never works on (a car), with their stems and clause. */
  const things: Array<{ unknown: Unknown; stems: string[]; clause: number }> = [];
  const noteThing = (u: Unknown, words: readonly string[]) => things.push({ unknown: u, stems: words.filter((w) => !lexicon.filler.has(w)).map(stem), clause });
  /** The settings the query names that the site's work may happen in (a flat to let). */
  const settings: Unknown[] = [];
  /** Of them, the synonyms of the words typed (an intent they complete is a weaker reading). */
  const bySynonym = new Set<string>();
  const onSite = (w: string) => vocabulary.family(w).length > 0;

  const alternativesOf = (group: number, typed: readonly string[] | undefined): Alternative[] => {
    const out: Alternative[] = [];
    for (const phrase of lexicon.groups[group]!) {
      const words = phrase.filter((w) => !lexicon.filler.has(w) && !TOO_SHORT.test(w));
      if (words.length === 0 || !words.every(onSite)) continue;
      const same = typed !== undefined && phrase.length === typed.length && phrase.every((w, k) => w === typed[k]);
      out.push({ words, weight: same ? 1 : SYNONYM_WEIGHT });
    }
    return distinct(out.sort((a, b) => b.weight - a.weight));
  };
  const addTerm = (text: string, alternatives: Alternative[], words: readonly string[]) => {
    // A term stands for its synonyms too: "vidriero" holds the intents of "cristalero".
    const typed = new Set(words.map(stem));
    const stems = new Set([...typed, ...alternatives.filter((a) => a.words.length === 1).map((a) => stem(a.words[0]!))]);
    for (const s of stems) {
      if (!typed.has(s) && !meant.has(s)) bySynonym.add(s);
      mean(s);
      if (typed.has(s)) bySynonym.delete(s);
    }
    if (terms.some((t) => t.text === text)) return;
    terms.push({ text, alternatives, stems });
    termClause.set(text, clause);
  };
  const word = (w: string): void => {
    const group = lexicon.synonyms.at([w], 0)?.value;
    if (group !== undefined) {
      const alts = alternativesOf(group, [w]);
      if (onSite(w) && !TOO_SHORT.test(w) && !alts.some((a) => a.weight === 1)) alts.unshift({ words: [w], weight: 1 });
      addTerm(w, distinct(alts), [w]);
    } else if (onSite(w)) addTerm(w, [{ words: [w], weight: 1 }], [w]);
    else addTerm(w, [], [w]);
  };

  for (let i = 0; i < tokens.length;) {
    if (lexicon.clauseBreaks.has(tokens[i]!)) {
      clause++;
      meantIn.push(new Set());
    }
    const place = lexicon.places.at(tokens, i);
    if (place) { addCities(place.value); breakRun(); i += place.words.length; continue; }
    const elsewhere = lexicon.notOffered.at(tokens, i);
    if (elsewhere) {
      const u = { text: elsewhere.words.join(' '), weight: UNKNOWN_WEIGHTS.notOffered };
      unknown.push(u);
      breakRun();
      for (const w of elsewhere.words) mean(stem(w));
      if (elsewhere.value.thing) noteThing(u, elsewhere.words);
      if (elsewhere.value.setting) settings.push(u);
      i += elsewhere.words.length;
      continue;
    }
    const phrase = lexicon.synonyms.at(tokens, i);
    if (phrase && phrase.words.length > 1) {
      addTerm(phrase.words.join(' '), alternativesOf(phrase.value, phrase.words), phrase.words.filter((w) => !lexicon.filler.has(w)));
      read(...phrase.words);
      i += phrase.words.length;
      continue;
    }
    const w = tokens[i++]!;
    if (onSite(w)) read(w);
    else if (TOO_SHORT.test(w) || lexicon.filler.has(w) || vocabulary.pages(w) > 0 || lexicon.knows(w) || lexicon.language(w) !== undefined) breakRun();
    // Numbers and one- or two-letter words say nothing a page could be found by ("18 grados",
    // "no", "ya").
    // A short word the lexicon groups with others ("wc", "ac") stands for them.
    if (TOO_SHORT.test(w)) {
      if (lexicon.synonyms.at([w], 0) !== undefined) word(w);
      else mean(stem(w));
      continue;
    }
    if (lexicon.filler.has(w)) {
      mean(stem(w));
      if (onSite(w) && !soft.some((t) => t.text === w)) soft.push({ text: w, alternatives: [{ words: [w], weight: 1 }], stems: new Set([stem(w)]) });
      continue;
    }
    if (vocabulary.pages(w) > 0 || lexicon.knows(w)) { word(w); continue; }
    const language = lexicon.language(w);
    if (language !== undefined) {
      if (onSite(w)) word(w);
      else unknown.push({ text: w, weight: language === 'en' ? UNKNOWN_WEIGHTS.english : UNKNOWN_WEIGHTS.spanish });
      mean(stem(w));
      continue;
    }
    // Not a word: a typo of a place, a chat spelling, a typo of a word, or an inflection the
    // dictionaries lack ("fontaneras"); a stem shared by chance ("desgue", "desgaste") comes last.
    const typoCities = lexicon.placeTypo(w);
    if (typoCities) { addCities(typoCities); continue; }
    const spelled = CHAT_SPELLINGS.map(([from, to]) => w.replace(from, to)).find((x) => x !== w && (onSite(x) || lexicon.knows(x)));
    // A page word said as it is written ("yabe", "serrageria") is what was meant rather than any
    // one edit away; a word one edit from such a word ("calefazzion") comes last.
    const fixed = spelled ?? (w.length >= TYPO_MIN
      ? (vocabulary.soundsLike(w) ?? vocabulary.correct(w, TYPO_MIN) ?? lexicon.correct(w) ?? vocabulary.soundsLike(w, true))
      : undefined);
    // A misspelt word for what the site does not offer ("mudansas") is not offered either.
    const misspelt = fixed === undefined ? undefined : lexicon.notOffered.at([fixed], 0);
    if (fixed !== undefined && misspelt !== undefined) {
      const u = { text: fixed, weight: UNKNOWN_WEIGHTS.notOffered };
      unknown.push(u);
      mean(stem(fixed));
      if (misspelt.value.thing) noteThing(u, [fixed]);
    } else if (fixed !== undefined) word(fixed);
    else if (onSite(w)) word(w);
    else dropped++;
    if (!onSite(w)) {
      if (fixed !== undefined && onSite(fixed)) read(fixed);
      else breakRun();
    }
  }

  // Rooms say where: topics only when nothing else is.
  if (terms.some((t) => !lexicon.rooms.has(t.text))) {
    for (let k = terms.length - 1; k >= 0; k--) {
      const t = terms[k]!;
      if (!lexicon.rooms.has(t.text)) continue;
      terms.splice(k, 1);
      if (t.alternatives.length > 0 && !soft.some((x) => x.text === t.text)) soft.push(t);
    }
  }

  // A thing the site never works on is what its clause is about, the clause's other words the
  // thing's parts ("el cristal del coche"), not offered either. When another clause holds topics of
  // its own ("…el coche porque la puerta del garaje no abre"), the thing is an aside there: it weighs
  // as one not-offered word and its parts as nothing. An intent phrase the query holds, or a synonym
  // of a word typed, that names it says the site serves it in that sense ("recarga coche",
  // "wallbox"), and it weighs nothing.
  const served = (stems: readonly string[]) => lexicon.intents.some((it) => it.phrases.some((p) => p.some((x) => stems.includes(x)) && p.every((x) => meant.has(x))))
    || terms.some((t) => t.alternatives.some((a) => a.words.some((w) => stems.includes(stem(w)))));
  const thingClauses = new Set<number>();
  for (const t of things) {
    if (served(t.stems)) unknown.splice(unknown.indexOf(t.unknown), 1);
    else thingClauses.add(t.clause);
  }
  const parts = terms.filter((t) => thingClauses.has(termClause.get(t.text)!));
  for (const t of parts) terms.splice(terms.indexOf(t), 1);
  if (terms.length === 0) for (const t of parts) unknown.push({ text: t.text, weight: UNKNOWN_WEIGHTS.notOffered });
  const meantElsewhere = thingClauses.size === 0 ? meant : new Set(meantIn.filter((_, c) => !thingClauses.has(c)).flatMap((m) => [...m]));
  const intents = thingClauses.size > 0 && terms.length === 0 ? [] : matchIntents(lexicon.intents, terms, meantElsewhere, bySynonym);
  // A question about the site told by one word alone ("trabajáis en"), read beside a service's or
  // a tradesman's own name, is more often that word's other sense ("trabajos de fontanería", "a
  // small job"): its general pages keep their place among the answers, not above the trade's.
  // A setting beside a job a service does is where the job is ("pintar el piso de alquiler"):
  // it weighs nothing.
  if (intents.some((it) => it.direct && it.services.length > 0)) for (const u of settings) { const at = unknown.indexOf(u); if (at >= 0) unknown.splice(at, 1); }
  const general = intents.filter((it) => it.strong && it.services.length === 0 && it.paths.every((p) => !p.startsWith('/guias/')));
  if (intents.some((it) => !it.strong && it.direct && it.services.length > 0) && general.length > 0
    && general.every((it) => it.size === 1) && new Set(general.flatMap((it) => it.covers)).size === 1) {
    for (const it of general) it.strong = false;
  }
  const lookedUp = (t: Term) => vocabulary.size === 0
    || t.alternatives.every((a) => a.words.every((w) => vocabulary.familyPages(w) <= SOFT_MAX_PAGE_SHARE * vocabulary.size));
  // English words the lexicon lacks are mostly the grammar around the words it translates: together
  // they weigh no more than one unknown Spanish word.
  const english = unknown.filter((u) => u.weight === UNKNOWN_WEIGHTS.english);
  if (english.length * UNKNOWN_WEIGHTS.english > UNKNOWN_WEIGHTS.spanish) {
    for (const u of english) u.weight = UNKNOWN_WEIGHTS.spanish / english.length;
  }
  const most = Math.max(0, ...named.values());
  const cities = [...named].filter(([, n]) => n === most).map(([c]) => c);
  return { cities, elsewhere, terms, soft: soft.filter((t) => !terms.includes(t) && lookedUp(t)), unknown, intents, runs: runs.filter((r) => r.length > 0) };
}
