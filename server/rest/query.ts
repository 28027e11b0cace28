/**
 * The query string of an API request, parsed once by the API itself (so the handler can also be
 * mounted in front of the router): `application/x-www-form-urlencoded` rules (`+` is a space,
 * percent-escapes decoded once), a repeated name collected into an array so validation can refuse
 * it. A value whose escapes are not UTF-8 (`%E0%A4%A`, `%zz`) is MALFORMED, for validation to
 * refuse under its name: read as written it would be searched for and found nowhere. A name with
 * such escapes is kept as written, so it is no parameter's (unknown names are ignored). A Map, so
 * any name (`__proto__`, `constructor`) is a plain key, and cheaper to build per request than a
 * prototype-less object (which V8 keeps in dictionary mode).
 */
/** The value of a parameter whose percent-escapes do not decode. */
export const MALFORMED: unique symbol = Symbol('malformed percent-encoding');

export type RawValue = string | typeof MALFORMED;
/** Each name once; a repeated name keeps every value. */
export type RawQuery = Map<string, RawValue | RawValue[]>;

function decode(s: string): RawValue {
  if (s.indexOf('+') !== -1) s = s.replace(/\+/g, ' ');
  if (s.indexOf('%') === -1) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    return MALFORMED;
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
      const rawName = search.slice(start, hasValue ? eq : end);
      const decoded = decode(rawName);
      const name = decoded === MALFORMED ? rawName : decoded;
      const value = hasValue ? decode(search.slice(eq + 1, end)) : '';
      const prev = out.get(name);
      out.set(name, prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value]);
    }
    start = end + 1;
  }
  return out;
}
