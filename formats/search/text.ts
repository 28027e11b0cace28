/**
 * Text analysis shared by the index build and the query side, so both see the same words:
 * fold (lower case, no diacritics: "Fontanería" → "fontaneria", "Coruña" → "coruna"), split on
 * anything that is not a letter or a digit. Which words carry no topic is content: the lexicon's
 * filler words (src/content/lexicon/filler.json).
 */

const MARKS = /\p{M}+/gu;
const NON_WORD = /[^\p{L}\p{N}]+/u;
const WORD_CHAR = /^[\p{L}\p{N}]$/u;

/** Lower case without diacritics. */
export function fold(text: string): string {
  return text.normalize('NFD').replace(MARKS, '').toLowerCase();
}

/** `words` by its definition: fold the whole text, split on what is neither letter nor digit. */
export function wordsByDefinition(text: string): string[] {
  const out: string[] = [];
  for (const w of fold(text).split(NON_WORD)) if (w !== '') out.push(w);
  return out;
}

/**
 * Folding is a per-character mapping but for two things: `toLowerCase` turns Σ into ς at the end
 * of a word, and a surrogate pair is one character. Any other character folds alone (NFD
 * decomposes each character by itself, and the marks it reorders are all dropped), so each is
 * folded once, its letters and digits kept and anything else made a space, and remembered.
 */
const NOT_PER_CHARACTER = /[\u03a3\ud800-\udfff]/;
const NOT_PLAIN = /[^a-z0-9 ]/g;
const folded = new Map<string, string>();
function foldCharacter(c: string): string {
  let f = folded.get(c);
  if (f === undefined) {
    f = '';
    for (const ch of fold(c)) f += WORD_CHAR.test(ch) ? ch : ' ';
    folded.set(c, f);
  }
  return f;
}

/**
 * Folded words of `text`, in order: the same as `wordsByDefinition`, without its unicode-class
 * split, which was most of the cost (the index build runs this over every page).
 */
export function words(text: string): string[] {
  if (NOT_PER_CHARACTER.test(text)) return wordsByDefinition(text);
  const out: string[] = [];
  for (const w of text.replace(NOT_PLAIN, foldCharacter).split(' ')) if (w !== '') out.push(w);
  return out;
}
