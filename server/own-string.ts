/**
 * A copy of `s` that keeps no longer string alive. V8 keeps a cut of a string (slice, split,
 * trim) as a view of its source, so a cut that is kept (a cache key, an excerpt) holds its whole
 * source, a header or a page text. UTF-16 both ways, so every code unit is kept as it is.
 */
export const ownString = (s: string): string => Buffer.from(s, 'utf16le').toString('utf16le');
