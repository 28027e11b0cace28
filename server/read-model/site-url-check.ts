/**
 * A read model can be served under another SITE_URL than the one it was built for: the API's
 * URLs are moved to the served one when it loads. The built site's pages cannot be: their
 * canonical links, sitemap, the API URLs on /desarrolladores/ and the sandbox's calls keep the
 * build's address. So such a model is served, with a warning naming both addresses and the fix,
 * at start and on every swap.
 */
import type { Logger } from '../log.ts';
import type { Manifest } from '../../formats/schemas/read-model.ts';

/** The warning for a build made for another SITE_URL than `served`, or null when they agree. */
export function siteUrlMismatch(manifest: Pick<Manifest, 'build_id' | 'site_url'>, served: string): string | null {
  const built = manifest.site_url.replace(/\/+$/, '');
  if (built === served) return null;
  return `read model ${manifest.build_id} was built for SITE_URL ${built}, but this server's SITE_URL is ${served}: `
    + `the site's pages (canonical links, sitemap, the API URLs on /desarrolladores/, the sandbox) point at ${built}. `
    + `Run \`SITE_URL=${served} npm run build\`, or start the server with SITE_URL=${built}.`;
}

export function warnOnSiteUrlMismatch(manifest: Pick<Manifest, 'build_id' | 'site_url'>, served: string, log: Logger): void {
  const warning = siteUrlMismatch(manifest, served);
  // At error level: it must show with LOG_LEVEL=error too, as a misconfiguration does.
  if (warning) log.error(warning);
}
