/**
 * How a folded Spanish word sounds, as a key: words people misspell by ear share it ("halvañil" and
 * "albañil", "serrageria" and "cerrajería", "yabe" and "llave", "umedaz" and "humedad"). A word
 * written as it sounds is more than one edit from its spelling whenever two letters stand for one
 * sound, so typo correction (vocabulary.ts) compares these keys when one edit finds nothing.
 */

/** Spellings of one sound, in order: silent h, b/v, ll/y, c/z/s, qu/k/c, g/j, n/m before b and p. */
const SOUNDS: ReadonlyArray<readonly [RegExp, string]> = [
  [/ch/g, '\u0001'],
  [/h/g, ''],
  [/v|w/g, 'b'],
  [/ll/g, 'y'],
  [/y(?![aeiou])/g, 'i'],
  [/cc(?=[ei])/g, 's'],
  [/c(?=[ei])|z|x(?=[ei])/g, 's'],
  [/qu(?=[ei])|c|k|q/g, 'k'],
  [/gu(?=[ei])/g, '\u0002'],
  [/g(?=[ei])/g, 'j'],
  [/\u0002/g, 'g'],
  [/n(?=[bp])/g, 'm'],
  [/\u0001/g, 'ch'],
  // Final d is said as z (or not at all): "Madriz", "verdaz".
  [/d$/g, 's'],
  [/(.)\1+/g, '$1'],
];

/** The sound key of a folded word. */
export function soundKey(word: string): string {
  let k = word;
  for (const [from, to] of SOUNDS) k = k.replace(from, to);
  return k;
}
