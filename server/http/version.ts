/**
 * Version headers of every API response (contract.md, "Versioning"; conformance.md §8).
 * `API-Version: 1` always. Only when v1 is configured as deprecated (API_DEPRECATED_AT and
 * API_SUNSET_AT): `Deprecation` (RFC 9745 §2: an sf-date, `@<epoch seconds>`), `Sunset`
 * (RFC 8594 §3: an HTTP-date) and a `Link` with relation `deprecation` (RFC 9745 §3) to the
 * versioning policy. The values are built once.
 */
import type { Config } from '../config.ts';
import type { HeaderList } from './header-list.ts';

export const API_VERSION = '1';

export function versionHeaderList(config: Pick<Config, 'siteUrl' | 'deprecation'>): HeaderList {
  const headers: HeaderList = ['API-Version', API_VERSION];
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
