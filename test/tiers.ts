/**
 * The test tiers, one table: what a file needs decides where it runs.
 * - unit: nothing outside the test process — no server process, Redis, browser, or build of
 *   the site (test/helpers refuse to start one while TEST_TIER=unit);
 * - server: the server in process or as a process, private Redis servers, the built sample site;
 * - e2e: the site in a browser, the MCP conformance suite, whole builds, processes failing.
 * First match wins; a file that no rule names is a server test.
 */
export type Tier = 'unit' | 'server' | 'e2e';

export const TIERS: readonly Tier[] = ['unit', 'server', 'e2e'];

const RULES: readonly [RegExp, Tier][] = [
  [/^test\/(site|reliability)\//, 'e2e'],
  [/^test\/server\/mcp\/conformance\.test\.ts$/, 'e2e'],
  [/^test\/build-scripts\/build\.test\.ts$/, 'e2e'],
  [/^test\/build-scripts\/stages\/astro-incremental\.test\.ts$/, 'e2e'],
  [/^test\/scripts\/bundle-server\.test\.ts$/, 'e2e'],
  [/^test\/scripts\/compare\//, 'unit'],
  [/^test\/build-scripts\/(astro-content-store|content-check|deterministic|files|incremental-cache|pagefind-stage|pipeline-units|render-inputs|slices)\.test\.ts$/, 'unit'],
  [/^test\/build-scripts\/(cache|lexicon|markdown)\//, 'unit'],
  [/^test\/server\/auth\/(client-auth|clients|secrets|tokens)\.test\.ts$/, 'unit'],
  [/^test\/server\/(compression|end-of-turn|memo)\.test\.ts$/, 'unit'],
  [/^test\/server\/discovery\/(llms-budget|openapi)\.test\.ts$/, 'unit'],
  [/^test\/server\/http\/(accept|body|error-response|oauth-error-response)\.test\.ts$/, 'unit'],
  [/^test\/server\/mcp\/(exchange-transport|json-rpc-errors|results)\.test\.ts$/, 'unit'],
  [/^test\/server\/net\/client-ip\.test\.ts$/, 'unit'],
  [/^test\/server\/pipeline\/input-cache\.test\.ts$/, 'unit'],
  [/^test\/server\/quota\/headers\.test\.ts$/, 'unit'],
  [/^test\/server\/routes\/(table|site-pagefind-bundles)\.test\.ts$/, 'unit'],
  [/^test\/formats\/import-direction\.test\.ts$/, 'unit'],
  [/^test\/formats\/read-model\/binary-file\.test\.ts$/, 'unit'],
  [/^test\/formats\/search\/(bloom|lru|page-stems|plain-text|word-hits)\.test\.ts$/, 'unit'],
  [/^test\/server\/read-model\/(parts|url)\.test\.ts$/, 'unit'],
  [/^test\/server\/rest\/query\.test\.ts$/, 'unit'],
  [/^test\/server\/search-page\/(marks|params|shell)\.test\.ts$/, 'unit'],
  [/^test\/server\/search\/(analysis|analyze|cursor|excerpt|memory|page-sets|phrase|rank|search|text-pack|token-places)\.test\.ts$/, 'unit'],
  [/^test\/server\/stores\/(coalesce-hits|fallback|memory)\.test\.ts$/, 'unit'],
];

/**
 * Files that drive a browser run one at a time: several Chromiums at once starve each other's
 * compositor on a small machine. Every other file, e2e ones included, runs beside the rest.
 */
const ONE_AT_A_TIME = /^test\/site\/(chromium|lighthouse|pagefind|phone-layout|sandbox|search-box)\.test\.ts$/;

export const oneAtATime = (file: string): boolean => ONE_AT_A_TIME.test(file);

/**
 * Files that run with no other file beside them: they assert limits exact across processes on a
 * Redis topology, which holds only while Redis answers within the store's wait bound; past it the
 * processes count locally by design, and a loaded machine is what pushes them past it.
 */
const ALONE = /^test\/reliability\/redis-(cluster|sentinel)\.test\.ts$/;

export const alone = (file: string): boolean => ALONE.test(file);

/**
 * Files that run `astro build` in the project root: it rewrites Astro's generated types
 * (.astro/), which the typecheck reads, so they wait for the typecheck to end.
 */
const ASTRO_IN_ROOT = /^test\/reliability\/first-start\.test\.ts$/;

export const astroInRoot = (file: string): boolean => ASTRO_IN_ROOT.test(file);

/** The tier of a test file, by its path from the project root (forward slashes). */
export function tierOf(file: string): Tier {
  for (const [pattern, tier] of RULES) if (pattern.test(file)) return tier;
  return 'server';
}

/** For helpers that start what a unit test may not use: a clear failure naming the table. */
export function refuseInUnitTier(what: string): void {
  if (process.env.TEST_TIER === 'unit') {
    throw new Error(`${what} is not for a unit test: move this file to the server or e2e tier (test/tiers.ts)`);
  }
}
