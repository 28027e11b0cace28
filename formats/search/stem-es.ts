/**
 * The Snowball Spanish stemmer (snowballstem.org/algorithms/spanish/stemmer.html), run on
 * folded words (no diacritics, see text.ts), with every suffix list written without accents, so
 * "fontanería" and "fontaneria" stem alike, and a few nouns kept whole. The index and the query
 * both go through it: one stemmer for both sides.
 */

const isVowel = (c: string | undefined): boolean =>
  c === 'a' || c === 'e' || c === 'i' || c === 'o' || c === 'u';

interface Regions { rv: number; r1: number; r2: number }

/** R1, R2 and RV as the algorithm defines them (positions where each region starts). */
function regions(w: string): Regions {
  const n = w.length;
  let rv = n;
  if (n >= 2) {
    if (!isVowel(w[1])) {
      for (let i = 2; i < n; i++) if (isVowel(w[i])) { rv = i + 1; break; }
    } else if (isVowel(w[0])) {
      for (let i = 2; i < n; i++) if (!isVowel(w[i])) { rv = i + 1; break; }
    } else {
      rv = Math.min(3, n);
    }
  }
  const after = (from: number): number => {
    for (let i = from + 1; i < n; i++) if (isVowel(w[i - 1]) && !isVowel(w[i])) return i + 1;
    return n;
  };
  const r1 = after(0);
  const r2 = r1 < n ? after(r1) : n;
  return { rv, r1, r2 };
}

/** Longest suffix of `w` among `list` that starts at or after `limit`. */
function longest(w: string, list: readonly string[], limit = 0): string | undefined {
  let best: string | undefined;
  for (const s of list) {
    if (s.length > w.length - limit || (best !== undefined && s.length <= best.length)) continue;
    if (w.endsWith(s)) best = s;
  }
  return best;
}

const PRONOUNS = ['me', 'se', 'sela', 'selo', 'selas', 'selos', 'la', 'le', 'lo', 'las', 'les', 'los', 'nos'];
const PRONOUN_HOSTS = ['iendo', 'ando', 'ar', 'er', 'ir', 'yendo'];

type Rule = readonly [readonly string[], (w: string, s: string, r: Regions) => string | null];

/** Step 1, its suffixes folded ("logía" → "logia"). */
const STEP1: readonly Rule[] = [
  [['anza', 'anzas', 'ico', 'ica', 'icos', 'icas', 'ismo', 'ismos', 'able', 'ables', 'ible', 'ibles', 'ista',
    'istas', 'oso', 'osa', 'osos', 'osas', 'amiento', 'amientos', 'imiento', 'imientos'],
  (w, s, r) => (inR(w, s, r.r2) ? cut(w, s) : null)],
  [['adora', 'ador', 'acion', 'adoras', 'adores', 'aciones', 'ante', 'antes', 'ancia', 'ancias'],
    (w, s, r) => {
      if (!inR(w, s, r.r2)) return null;
      const x = cut(w, s);
      return x.endsWith('ic') && x.length - 2 >= r.r2 ? x.slice(0, -2) : x;
    }],
  [['logia', 'logias'], (w, s, r) => (inR(w, s, r.r2) ? cut(w, s) + 'log' : null)],
  [['ucion', 'uciones'], (w, s, r) => (inR(w, s, r.r2) ? cut(w, s) + 'u' : null)],
  [['encia', 'encias'], (w, s, r) => (inR(w, s, r.r2) ? cut(w, s) + 'ente' : null)],
  [['amente'], (w, s, r) => {
    if (!inR(w, s, r.r1)) return null;
    let x = cut(w, s);
    if (x.endsWith('iv') && x.length - 2 >= r.r2) {
      x = x.slice(0, -2);
      if (x.endsWith('at') && x.length - 2 >= r.r2) x = x.slice(0, -2);
    } else {
      for (const t of ['os', 'ic', 'ad']) if (x.endsWith(t) && x.length - 2 >= r.r2) { x = x.slice(0, -2); break; }
    }
    return x;
  }],
  [['mente'], (w, s, r) => {
    if (!inR(w, s, r.r2)) return null;
    const x = cut(w, s);
    for (const t of ['ante', 'able', 'ible']) if (x.endsWith(t)) return x.length - 4 >= r.r2 ? x.slice(0, -4) : x;
    return x;
  }],
  [['idad', 'idades'], (w, s, r) => {
    if (!inR(w, s, r.r2)) return null;
    const x = cut(w, s);
    for (const t of ['abil', 'ic', 'iv']) if (x.endsWith(t)) return x.length - t.length >= r.r2 ? x.slice(0, -t.length) : x;
    return x;
  }],
  [['iva', 'ivo', 'ivas', 'ivos'], (w, s, r) => {
    if (!inR(w, s, r.r2)) return null;
    const x = cut(w, s);
    return x.endsWith('at') && x.length - 2 >= r.r2 ? x.slice(0, -2) : x;
  }],
];

const Y_VERB = ['ya', 'ye', 'yan', 'yen', 'yeron', 'yendo', 'yo', 'yas', 'yes', 'yais', 'yamos'];
const VERB_GU = ['en', 'es', 'eis', 'emos'];
/** Verb suffixes the algorithm writes without accents… */
const VERB_PLAIN = `aremos eremos iremos aba ada ida ara iera ad ed id ase iese aste iste an aban aran ieran asen
iesen aron ieron ado ido ando iendo ar er ir as abas adas idas aras ieras ases ieses abais arais ierais
aseis ieseis asteis isteis ados idos amos imos`.split(/\s+/);
/** …and those it writes accented ("arían", "ía", "éis"), here folded. */
const VERB_FOLDED = `arian arias aran aras ariais aria areis ariamos ara are erian erias eran eras eriais eria ereis
eriamos era ere irian irias iran iras iriais iria ireis iriamos ira ire ia ian io ias is ais iais abamos
iamos aramos ieramos iesemos asemos eis`.split(/\s+/);

const inR = (w: string, s: string, start: number): boolean => w.length - s.length >= start;
const cut = (w: string, s: string): string => w.slice(0, w.length - s.length);

function attachedPronoun(w: string, r: Regions): string {
  const p = longest(w, PRONOUNS);
  if (p === undefined) return w;
  const before = cut(w, p);
  const host = longest(before, PRONOUN_HOSTS);
  if (host === undefined || !inR(before, host, r.rv)) return w;
  if (host === 'yendo' && !cut(before, host).endsWith('u')) return w;
  return before;
}

function verbSuffix(w: string, r: Regions, verbs: readonly string[]): string | null {
  const y = longest(w, Y_VERB, r.rv);
  if (y !== undefined && cut(w, y).endsWith('u')) return cut(w, y);
  const s = longest(w, verbs, r.rv);
  if (s === undefined) return null;
  const x = cut(w, s);
  return VERB_GU.includes(s) && x.endsWith('gu') ? x.slice(0, -1) : x;
}

function residual(w: string, r: Regions, residuals: readonly string[]): string {
  const s = longest(w, residuals);
  if (s === undefined || !inR(w, s, r.rv)) return w;
  const x = cut(w, s);
  if (s === 'e' && x.endsWith('gu') && x.length - 1 >= r.rv) return x.slice(0, -1);
  return x;
}

/**
 * Nouns the algorithm takes for verbs: "-ed" is a verb ending (vosotros imperative), so "pared"
 * would stem to "par" and match "para". Snowball keeps such lists for other languages too.
 */
const EXCEPTIONS: Readonly<Record<string, string>> = {
  pared: 'pared', paredes: 'pared', red: 'red', redes: 'red', cesped: 'cesped', huesped: 'huesped', huespedes: 'huesped',
};

interface Variant {
  step1: readonly Rule[];
  verbs: readonly string[];
  /** Residual suffixes ("í", "á", "ó" and "é" are accented in the algorithm). */
  residuals: readonly string[];
  exceptions: Readonly<Record<string, string>>;
  /** Words shorter than this are kept whole. */
  minLength: number;
}

/** A stemmer of folded words; regions are marked once, on the whole word, as the algorithm does. */
function stemmer({ step1: rules, verbs, residuals, exceptions, minLength }: Variant): (word: string) => string {
  const all = rules.flatMap(([list]) => list);
  return (word) => {
    if (Object.hasOwn(exceptions, word)) return exceptions[word]!;
    if (word.length < minLength) return word;
    let w = word;
    const r = regions(w);
    w = attachedPronoun(w, r);
    let changed = false;
    const s1 = longest(w, all);
    if (s1 !== undefined) {
      const rule = rules.find(([list]) => list.includes(s1))!;
      const x = rule[1](w, s1, r);
      if (x !== null) { w = x; changed = true; }
    }
    if (!changed) {
      const x = verbSuffix(w, r, verbs);
      if (x !== null) w = x;
    }
    return residual(w, r, residuals);
  };
}

/** Stem of one folded word, as the index and the query analysis take it. */
export const stem = stemmer({
  step1: STEP1, verbs: [...new Set([...VERB_GU, ...VERB_PLAIN, ...VERB_FOLDED])],
  residuals: ['os', 'a', 'o', 'i', 'e'], exceptions: EXCEPTIONS, minLength: 3,
});
