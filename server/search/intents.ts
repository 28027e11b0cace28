/**
 * Which of the lexicon's intents a query holds: an intent matches when the query means every word
 * of one of its phrases (as stems, in any order: the words typed, their corrections and their
 * synonyms). The longest phrase matched says how sure the reading is; a phrase the words typed
 * complete only through synonyms is a weaker reading (no credit in precision.ts).
 */
import type { Intent } from './lexicon.ts';

export interface MatchedIntent {
  paths: readonly string[];
  services: readonly string[];
  /** Indexes of the topic terms the phrase covers. */
  covers: readonly number[];
  /** Words of the phrase that matched: a longer phrase is a surer reading. */
  size: number;
  /** A lexicon intent; false for a service's own name (lexicon.ts). */
  strong: boolean;
  /** A phrase matched by the words typed, not only through their synonyms. */
  direct: boolean;
  /** A service's tradesman: the query asks for a person of the trade (lexicon.ts). */
  trade: boolean;
}

/** What matchIntents needs of a topic term: the stems it stands for. */
export interface IntentTerm { stems: ReadonlySet<string> }

export function matchIntents(
  intents: readonly Intent[],
  terms: readonly IntentTerm[],
  meant: ReadonlySet<string>,
  bySynonym: ReadonlySet<string>,
): MatchedIntent[] {
  const out: MatchedIntent[] = [];
  for (const intent of intents) {
    const held = intent.phrases.filter((p) => p.every((s) => meant.has(s)));
    if (held.length === 0) continue;
    const covered = new Set(held.flat());
    out.push({
      paths: intent.paths,
      services: intent.services,
      covers: terms.flatMap((t, k) => ([...t.stems].some((s) => covered.has(s)) ? [k] : [])),
      size: Math.max(...held.map((p) => p.length)),
      strong: intent.strong,
      direct: held.some((p) => p.every((s) => !bySynonym.has(s))),
      trade: intent.trade,
    });
  }
  return out;
}
