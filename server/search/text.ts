/**
 * Text analysis shared by the index build and the query side, so both see the same words:
 * fold (lower case, no diacritics: "Fontanería" → "fontaneria", "Coruña" → "coruna"), split on
 * anything that is not a letter or a digit, and drop Spanish stop words from queries.
 */

const MARKS = /\p{M}+/gu;
const NON_WORD = /[^\p{L}\p{N}]+/u;

/** Lower case without diacritics. The same folding Pagefind applies to queries when `exactDiacritics` is off. */
export function fold(text: string): string {
  return text.normalize('NFD').replace(MARKS, '').toLowerCase();
}

/** Folded words of `text`, in order. */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const w of fold(text).split(NON_WORD)) if (w !== '') out.push(w);
  return out;
}

/**
 * Folded Spanish function words (Snowball's Spanish list, trimmed to what never names a service,
 * a problem or a place) plus the request phrasing people put around a query ("necesito un
 * fontanero"). Alone they never match anything.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(`
a al algo algun alguna algunas alguno algunos ante antes como con contra cual cuales cuando de del
desde donde durante e el ella ellas ellos en entre era eres es esa esas ese eso esos esta estas este
esto estos fue ha hay hasta la las le les lo los mas me mi mis mucho muy nada ni no nos nosotros o
os otra otro para pero poco por porque que quien se sea ser si sin sobre su sus tambien te tengo
tiene todo todos tu tus un una unas uno unos usted ustedes vosotros y ya yo
necesito necesita necesitamos busco buscamos buscando quiero queremos quisiera quisieramos
`.split(/\s+/).filter(Boolean));
