/**
 * The forms of a demonym, from the one form places.json lists: people write "pintor malagueña",
 * "fontaneros barceloneses" or "bilbotarrak" as often as the masculine singular, and listing every
 * gender and number by hand is where content goes wrong. The endings cover Spanish, Catalan,
 * Galician and Basque demonyms; a word with none of them is kept as written.
 */

/** Ending of the form given → the endings of the other forms (the given one is kept too). */
const ENDINGS: ReadonlyArray<readonly [string, readonly string[]]> = [
  // Basque: bilbotarra, bilbotarrak; bilbotar.
  ['arra', ['arrak']],
  ['ar', ['arra', 'arrak']],
  // Spanish, Galician: malagueño, malagueña, malagueños, malagueñas.
  ['o', ['a', 'os', 'as']],
  // Spanish, Galician: barcelonés, barcelonesa, barceloneses, barcelonesas; coruñés.
  ['és', ['esa', 'eses', 'esas']],
  ['ès', ['esa', 'esos', 'eses']],
  // Spanish: mallorquín, mallorquina, mallorquines, mallorquinas.
  ['ín', ['ina', 'ines', 'inas']],
  // Catalan: barceloní, barcelonina, barcelonins, barcelonines; valencià, valenciana.
  ['í', ['ina', 'ins', 'ines']],
  ['à', ['ana', 'ans', 'anes']],
  // Gender-invariant: ovetense, ovetenses; pamplonica, pamplonicas.
  ['e', ['es']],
  ['a', ['as']],
];

/** Every form of `demonym` (as written, then the derived ones). */
export function demonymForms(demonym: string): string[] {
  const word = demonym.trim();
  const lower = word.toLowerCase();
  const rule = ENDINGS.find(([ending]) => lower.endsWith(ending));
  if (rule === undefined) return [word];
  const stem = word.slice(0, word.length - rule[0].length);
  return [word, ...rule[1].map((ending) => stem + ending)];
}
