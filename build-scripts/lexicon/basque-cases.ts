/**
 * The Basque case forms of a one-word place name: a Basque speaker writes where, from where and
 * to where with the name's case ending ("iturgina Bilbon", "Gasteizko elektrizista", "Madrilera",
 * "Londresetik"), and listing each city's forms by hand is where content goes wrong. The build
 * adds them for every one-word place name, served or not (compile.ts), except the forms that are
 * words of their own.
 */

/** Endings after a vowel: inessive, local genitive, allative, ablative, destinative, terminative. */
const AFTER_VOWEL = ['n', 'ko', 'ra', 'tik', 'rako', 'raino'];
/** After a consonant the case takes an epenthetic e; after l and n the genitive is -go, the ablative -dik. */
const AFTER_CONSONANT = ['en', 'ko', 'era', 'etik', 'tik', 'erako', 'eraino'];
const AFTER_L_N = ['go', 'dik'];
/** Shorter names make forms that are too easily something else ("mad" → "maden"). */
const MIN_LENGTH = 4;

/** The case forms of a folded one-word place name (not the name itself); none for a short or several-word name. */
export function basqueCaseForms(name: string): string[] {
  if (name.length < MIN_LENGTH || !/^[a-z]+$/.test(name)) return [];
  const last = name[name.length - 1]!;
  if ('aeiou'.includes(last)) return AFTER_VOWEL.map((e) => name + e);
  const endings = 'ln'.includes(last) ? [...AFTER_CONSONANT, ...AFTER_L_N] : AFTER_CONSONANT;
  // A final r doubles before a vowel ("Eibarren", "Eibarko"); people write it single too.
  const doubled = last === 'r' ? endings.filter((e) => e.startsWith('e')).map((e) => `${name}r${e}`) : [];
  return [...endings.map((e) => name + e), ...doubled];
}
