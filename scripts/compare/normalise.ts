/**
 * What two identical servers may answer differently, listed here and nowhere else; everything
 * not named here must match byte for byte.
 *
 * - `Date`: the clock (header dropped).
 * - Random values by protocol: the captures named in the request set's `random` (client ids and
 *   secrets, access tokens), each replaced by `<name>` wherever the answer echoes it.
 * - Clock-derived numbers: seconds left in a quota window and epoch seconds of issue and expiry.
 *   Each is replaced by `<t>` and its value kept: the two servers' values may differ by at most
 *   CLOCK_TOLERANCE seconds (the two runs are a few milliseconds apart, but a second may tick between them).
 * - On the metrics listener: the process's own samples (`process_*`, `nodejs_*`: memory, CPU,
 *   GC), which are dropped, and the values of timings (`*_seconds_bucket`, `*_seconds_sum`, the
 *   read model's age), which become `<v>`; their counts stay compared.
 */
export const CLOCK_TOLERANCE = 2;

/** Header values that are clock-derived seconds as a whole. */
const CLOCK_HEADERS = new Set(['ratelimit-reset', 'retry-after']);
/** Clock-derived numbers inside a header value or a body: the number is the second group. */
const CLOCK_PATTERNS: RegExp[] = [
  // RateLimit: "anonimo";r=59;t=42
  /(;t=)(\d+)/g,
  // JSON members, also when JSON is quoted inside a JSON string (MCP text blocks).
  /(\\*"(?:reset_seconds|token_expires_at|exp|iat|client_id_issued_at)\\*":\s*)(\d+)/g,
  // The 429 texts: "Espere 42 segundos", "Reintente dentro de 42 segundos".
  /(\b)(\d+)(?= segundos?\b)/g,
];

const METRIC_DROPPED = /^(?:process_|nodejs_)\S*(?:\{[^}]*\})? .*$\n?/gm;
const METRIC_TIMED = /^((?:\S+_seconds_bucket|\S+_seconds_sum|agentes_read_model_age_seconds)(?:\{[^}]*\})? ).*$/gm;

export interface Normalised {
  text: string;
  /** The clock-derived numbers replaced, in order. */
  clock: number[];
}

/** `randoms`: value → name, the random captures of the server that answered. */
export function normalise(text: string, randoms: ReadonlyMap<string, string>, options: { header?: string; metrics?: boolean } = {}): Normalised {
  const clock: number[] = [];
  if (options.header && CLOCK_HEADERS.has(options.header.toLowerCase()) && /^\d+$/.test(text.trim())) {
    return { text: '<t>', clock: [Number(text.trim())] };
  }
  // Longest first, so that a value containing another is replaced whole.
  for (const [value, name] of [...randoms].sort((a, b) => b[0].length - a[0].length)) {
    if (value.length >= 8) text = text.split(value).join(`<${name}>`);
  }
  for (const pattern of CLOCK_PATTERNS) {
    text = text.replace(pattern, (_, before: string, n: string) => {
      clock.push(Number(n));
      return `${before}<t>`;
    });
  }
  if (options.metrics) text = text.replace(METRIC_DROPPED, '').replace(METRIC_TIMED, '$1<v>');
  return { text, clock };
}

/** Equal texts, and clock numbers no further apart than the tolerance. */
export function sameNormalised(a: Normalised, b: Normalised): boolean {
  return a.text === b.text && a.clock.length === b.clock.length
    && a.clock.every((n, i) => Math.abs(n - b.clock[i]!) <= CLOCK_TOLERANCE);
}
