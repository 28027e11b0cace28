/**
 * What every API response says about the API itself, defined once for the server (the API and
 * MCP responses, http/cors.ts) and the pages that document it: the version headers (contract.md, "Versioning";
 * conformance.md §8) — `API-Version: 1` always; only when v1 is configured as deprecated
 * (API_DEPRECATED_AT and API_SUNSET_AT): `Deprecation` (RFC 9745 §2: an sf-date,
 * `@<epoch seconds>`), `Sunset` (RFC 8594 §3: an HTTP-date) and a `Link` with relation
 * `deprecation` (RFC 9745 §3) to the versioning policy — and the response headers a browser may
 * read.
 */
import type { Config } from './config.ts';

/** Response headers as a flat `[name, value, …]` list (http/header-list.ts). */
type HeaderPairs = string[];

export const EXPOSED_HEADERS = [
  'RateLimit', 'RateLimit-Policy', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset',
  'Retry-After', 'API-Version', 'ETag', 'WWW-Authenticate', 'Deprecation', 'Sunset', 'Link',
].join(', ');

export const API_VERSION = '1';

export function versionHeaderList(config: Pick<Config, 'siteUrl' | 'deprecation'>): HeaderPairs {
  const headers: HeaderPairs = ['API-Version', API_VERSION];
  const d = config.deprecation;
  if (d) {
    headers.push(
      'Deprecation', '@' + Math.floor(d.deprecatedAt.getTime() / 1000),
      'Sunset', d.sunsetAt.toUTCString(),
      'Link', `<${config.siteUrl}/desarrolladores/#versionado>; rel="deprecation"; type="text/html"`,
    );
  }
  return headers;
}
