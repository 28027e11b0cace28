/**
 * The Snowball Spanish stemmer (snowballstem.org/algorithms/spanish/stemmer.html), run on
 * folded words (no diacritics, see text.ts): every suffix list is written without accents, so
 * "fontanería" and "fontaneria" stem alike. That is the one deviation from the published
 * algorithm; index and query go through the same function, which is all matching needs.
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

const STEP1: ReadonlyArray<readonly [readonly string[], (w: string, s: string, r: Regions) => string | null]> = [
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
const STEP1_ALL = STEP1.flatMap(([list]) => list);

const Y_VERB = ['ya', 'ye', 'yan', 'yen', 'yeron', 'yendo', 'yo', 'yas', 'yes', 'yais', 'yamos'];
const VERB_GU = ['en', 'es', 'eis', 'emos'];
const VERB = `arian arias aran aras ariais aria areis ariamos aremos ara are erian erias eran eras eriais
eria ereis eriamos eremos era ere irian irias iran iras iriais iria ireis iriamos iremos ira ire aba ada
ida ia ara iera ad ed id ase iese aste iste an aban ian aran ieran asen iesen aron ieron ado ido ando
iendo io ar er ir as abas adas idas ias aras ieras ases ieses is ais abais iais arais ierais aseis
ieseis asteis isteis ados idos amos abamos iamos imos aramos ieramos iesemos asemos`.split(/\s+/);
const VERB_ALL = [...new Set([...VERB_GU, ...VERB])];
const RESIDUAL = ['os', 'a', 'o', 'i', 'e'];

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

function verbSuffix(w: string, r: Regions): string | null {
  const y = longest(w, Y_VERB, r.rv);
  if (y !== undefined && cut(w, y).endsWith('u')) return cut(w, y);
  const s = longest(w, VERB_ALL, r.rv);
  if (s === undefined) return null;
  const x = cut(w, s);
  return VERB_GU.includes(s) && x.endsWith('gu') ? x.slice(0, -1) : x;
}

function residual(w: string, r: Regions): string {
  const s = longest(w, RESIDUAL);
  if (s === undefined || !inR(w, s, r.rv)) return w;
  const x = cut(w, s);
  if (s === 'e' && x.endsWith('gu') && x.length - 1 >= r.rv) return x.slice(0, -1);
  return x;
}

/**
 * Nouns the algorithm takes for verbs: "-ed" is a verb ending (vosotros imperative), so "pared"
 * would stem to "par" and match "para". Snowball keeps such lists for other languages too.
 */
const EXCEPTIONS: ReadonlyMap<string, string> = new Map(Object.entries({
  pared: 'pared', paredes: 'pared', red: 'red', redes: 'red', cesped: 'cesped', huesped: 'huesped', huespedes: 'huesped',
}));

/** Stem of one folded word. Regions are marked once, on the whole word, as the algorithm does. */
export function stem(word: string): string {
  // A Map, not an object: "constructor" or "tostring" are words too, not inherited properties.
  const exception = EXCEPTIONS.get(word);
  if (exception !== undefined) return exception;
  if (word.length < 3) return word;
  let w = word;
  const r = regions(w);
  w = attachedPronoun(w, r);
  let changed = false;
  const s1 = longest(w, STEP1_ALL);
  if (s1 !== undefined) {
    const rule = STEP1.find(([list]) => list.includes(s1))!;
    const x = rule[1](w, s1, r);
    if (x !== null) { w = x; changed = true; }
  }
  if (!changed) {
    const x = verbSuffix(w, r);
    if (x !== null) w = x;
  }
  return residual(w, r);
}
