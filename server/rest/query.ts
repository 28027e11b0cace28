/**
 * The query string of an API request, parsed once by the API itself (so the handler can also be
 * mounted in front of the router): `application/x-www-form-urlencoded` rules (`+` is a space,
 * percent-escapes decoded once; an invalid escape is kept as written, as Node's querystring
 * does), a repeated name collected into an array so validation can refuse it. A Map, so any name
 * (`__proto__`, `constructor`) is a plain key, and cheaper to build per request than a
 * prototype-less object (which V8 keeps in dictionary mode).
 */
/** Each name once; a repeated name keeps every value. */
export type RawQuery = Map<string, string | string[]>;

function decode(s: string): string {
  if (s.indexOf('+') !== -1) s = s.replace(/\+/g, ' ');
  if (s.indexOf('%') === -1) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

export function parseQuery(search: string): RawQuery {
  const out: RawQuery = new Map();
  if (search === '') return out;
  let start = 0;
  while (start <= search.length) {
    let end = search.indexOf('&', start);
    if (end === -1) end = search.length;
    if (end > start) {
      const eq = search.indexOf('=', start);
      const hasValue = eq !== -1 && eq < end;
      const name = decode(search.slice(start, hasValue ? eq : end));
      const value = hasValue ? decode(search.slice(eq + 1, end)) : '';
      const prev = out.get(name);
      out.set(name, prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value]);
    }
    start = end + 1;
  }
  return out;
}
