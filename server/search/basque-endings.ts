/**
 * The bare forms a Basque noun may be under its case ending: a query says "hormako pitzadurak",
 * "sukaldean", "komunetik", and the lexicon lists a word's bare form (and a few of its forms),
 * never all of them. Tried on a word nothing else knows: the forms that a lexicon rewrite has
 * are what the word means.
 */

/**
 * Endings of the declension (definite singular and plural, indefinite): absolutive, ergative,
 * dative, genitives, inessive, allative, ablative, comitative, benefactive, instrumental. Shortest
 * first: the longest ending a bare form is found under is rarely the right one.
 */
const ENDINGS = [
  'a', 'k', 'n', 'ak', 'ek', 'an', 'en', 'ko', 'ra', 'ri', 'z', 'ez',
  'ari', 'ean', 'eko', 'era', 'tik', 'ren', 'rik',
  'aren', 'ekin', 'etan', 'etik', 'rako', 'etako', 'etara', 'arekin', 'etatik', 'entzat', 'arentzat',
];
/** Bare forms shorter than this are too easily another word. */
const MIN_BASE = 4;

/** The bare forms `word` may be under a case ending: without it, and with the article -a it drops before one. */
export function basqueBareForms(word: string): string[] {
  const out: string[] = [];
  for (const e of ENDINGS) {
    if (!word.endsWith(e) || word.length - e.length < MIN_BASE) continue;
    const base = word.slice(0, word.length - e.length);
    out.push(base);
    if (!base.endsWith('a')) out.push(`${base}a`);
  }
  return out;
}
