/**
 * What in a compiled lexicon is valid but probably not what its editor meant, as build warnings:
 * a word two synonym groups claim (it would expand both ways), a phrase of the not-offered list
 * that intents or synonyms also use (the query would be refused and answered at once), a rewrite
 * whose source is a place name (the place would never be seen), and an intent phrase that comes
 * down to a single very short word (it would fire on nearly any query holding it).
 */
import type { CompiledLexicon } from '../../formats/schemas/lexicon.ts';

const SHORT = 3;

export function lintLexicon(lexicon: CompiledLexicon): string[] {
  const out: string[] = [];
  const filler = new Set(lexicon.filler);
  const negations = new Set(lexicon.negations);

  const groupOf = new Map<string, number>();
  lexicon.synonyms.forEach((group, g) => {
    for (const phrase of group) {
      const key = phrase.join(' ');
      const other = groupOf.get(key);
      if (other !== undefined && other !== g) out.push(`synonyms: "${key}" is in two groups (#${other} and #${g})`);
      groupOf.set(key, g);
    }
  });

  const used = new Set<string>([...groupOf.keys()]);
  for (const intent of lexicon.intents) for (const p of intent.phrases) used.add(p.join(' '));
  for (const p of lexicon.not_offered) {
    const key = p.join(' ');
    if (used.has(key)) out.push(`not-offered: "${key}" is also a synonym or an intent phrase`);
  }

  const places = new Set(lexicon.places.map(([words]) => words.join(' ')));
  for (const [from] of lexicon.rewrites) {
    if (places.has(from.join(' '))) out.push(`rewrites: "${from.join(' ')}" is a place name, which the rewrite would hide`);
  }

  lexicon.intents.forEach((intent, i) => {
    for (const p of intent.phrases) {
      const meaningful = p.filter((w) => !filler.has(w) || negations.has(w));
      if (meaningful.length === 1 && meaningful[0]!.length < SHORT) {
        out.push(`intents: #${i} phrase "${p.join(' ')}" comes down to "${meaningful[0]}"`);
      }
    }
  });
  return out;
}
