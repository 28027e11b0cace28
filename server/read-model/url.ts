/**
 * read_page input → published page. Accepted forms:
 *   - a full URL of this site: http or https, host case-insensitive, default ports optional
 *     (`https://Example.com:443/servicios/fontaneria`), or protocol-relative (`//example.com/…`);
 *   - the site host without scheme (`example.com/servicios/fontaneria/`);
 *   - a site path (`/servicios/fontaneria/`, `servicios/fontaneria`);
 *   - a slug (`fontaneria-madrid`), or a one-segment path written as a slug (`servicios`).
 * Paths are decoded once (invalid percent-encoding, NUL or control characters, backslashes and
 * `.`/`..` segments are refused), lower-cased, `//` collapsed, a trailing `index.html` dropped,
 * and query and fragment ignored. Another host, another scheme (`javascript:`, `file:`…),
 * credentials in the URL or anything refused → null (the route answers 404). The page is found
 * only through the read model's maps: no file path is ever built from input.
 */
import { memoize } from '../memo.ts';
import type { LoadedModel, LoadedPage } from './types.ts';

export type PageResolver = (model: LoadedModel, input: string) => LoadedPage | null;

/** Inputs remembered per loaded model. */
const RESOLVED = 4096;

const DEFAULT_PORT: Record<string, string> = { 'http:': '80', 'https:': '443' };
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f\\]/;
const SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;

export function createPageResolver(siteUrl: string): PageResolver {
  const site = new URL(siteUrl);
  const siteHost = site.hostname.toLowerCase();
  const sitePort = site.port; // WHATWG URL already drops a default port
  // Paths below SITE_URL's own path, when the site is not at the root of its host.
  const sitePath = site.pathname.replace(/\/+$/, '');

  /** `host[:port]` of an input URL → whether it is this site. */
  const isSiteAuthority = (authority: string, scheme: string): boolean => {
    if (authority.includes('@')) return false;
    let host: string;
    let port = '';
    if (authority.startsWith('[')) {
      const close = authority.indexOf(']');
      if (close === -1) return false;
      host = authority.slice(0, close + 1);
      const rest = authority.slice(close + 1);
      if (rest !== '' && !rest.startsWith(':')) return false;
      port = rest.slice(1);
    } else {
      const colon = authority.indexOf(':');
      host = colon === -1 ? authority : authority.slice(0, colon);
      port = colon === -1 ? '' : authority.slice(colon + 1);
    }
    if (port !== '' && !/^\d{1,5}$/.test(port)) return false;
    port = port.replace(/^0+(?=\d)/, '');
    if (port === DEFAULT_PORT[scheme]) port = '';
    return host.toLowerCase().replace(/\.$/, '') === siteHost && port === sitePort;
  };

  /** Raw path (query and fragment allowed) → the byPath key, or null when refused. */
  const pathKey = (raw: string): string | null => {
    const cut = raw.search(/[?#]/);
    let path = cut === -1 ? raw : raw.slice(0, cut);
    try {
      path = decodeURIComponent(path);
    } catch {
      return null;
    }
    if (CONTROL.test(path)) return null;
    path = path.toLowerCase();
    if (sitePath !== '') {
      const base = sitePath.toLowerCase();
      if (path !== base && !path.startsWith(base + '/')) return null;
      path = path.slice(base.length);
    }
    const segments: string[] = [];
    for (const seg of path.split('/')) {
      if (seg === '') continue;
      if (seg === '.' || seg === '..') return null;
      segments.push(seg);
    }
    const last = segments[segments.length - 1];
    if (last === 'index.html' || last === 'index.htm') segments.pop();
    return segments.length === 0 ? '/' : '/' + segments.join('/') + '/';
  };

  const byPath = (model: LoadedModel, raw: string) => {
    const key = pathKey(raw);
    return key === null ? null : model.byPath.get(key) ?? null;
  };

  const siteRoot = site.origin + sitePath;
  const siteRootSlash = siteRoot + '/';

  // A model's answers are remembered per input: the same pages are asked for again and again, and
  // a loaded model never changes (a publish loads another).
  const remembered = new WeakMap<LoadedModel, (input: string) => LoadedPage | null>();
  return (model, input) => {
    let resolve = remembered.get(model);
    if (resolve === undefined) remembered.set(model, (resolve = memoize((s) => find(model, s), RESOLVED)));
    return resolve(input);
  };

  function find(model: LoadedModel, input: string): LoadedPage | null {
    // Fast path: an input already in canonical form (what search_pages returns) is an exact key.
    // Safe by construction: the maps hold only canonical paths and slugs of published pages.
    const exact = input.startsWith(siteRootSlash) ? model.byPath.get(input.slice(siteRoot.length))
      : model.byPath.get(input) ?? model.bySlug.get(input);
    if (exact) return exact;

    const s = input.trim();
    if (s === '' || CONTROL.test(s)) return null;

    const scheme = SCHEME.exec(s);
    // `localhost:4321/…` is a host and port, not a scheme.
    if (scheme && !/^\d+(?:[/?#]|$)/.test(s.slice(scheme[0].length))) {
      const name = scheme[1]!.toLowerCase() + ':';
      const rest = s.slice(scheme[0].length);
      if (!(name in DEFAULT_PORT) || !rest.startsWith('//')) return null;
      return fromAuthority(model, rest.slice(2), name);
    }
    if (s.startsWith('//')) return fromAuthority(model, s.slice(2), site.protocol);
    if (s.startsWith('/')) return byPath(model, s);

    // No leading slash: `host/path`, `a/b/c` (a path), or a slug.
    const firstSlash = s.search(/[/?#]/);
    const head = firstSlash === -1 ? s : s.slice(0, firstSlash);
    if (head.includes('.') || head.includes(':')) {
      return isSiteAuthority(head, site.protocol) ? byPath(model, s.slice(head.length) || '/') : null;
    }
    const slugPart = s.replace(/[?#].*$/, '').replace(/\/+$/, '');
    if (!slugPart.includes('/')) {
      let slug: string;
      try {
        slug = decodeURIComponent(slugPart).toLowerCase();
      } catch {
        return null;
      }
      const page = model.bySlug.get(slug);
      if (page) return page;
    }
    return byPath(model, '/' + s);
  }

  function fromAuthority(model: LoadedModel, afterSlashes: string, scheme: string): LoadedPage | null {
    const end = afterSlashes.search(/[/?#]/);
    const authority = end === -1 ? afterSlashes : afterSlashes.slice(0, end);
    if (!isSiteAuthority(authority, scheme)) return null;
    const rest = end === -1 ? '/' : afterSlashes.slice(end);
    return byPath(model, rest.startsWith('/') ? rest : '/' + rest);
  }
}
