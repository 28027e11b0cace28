/**
 * The front door: every request target is matched once, against one ordered list of entries, and
 * the match is all that the rest reads. main.ts answers by its kind (probes before the Host
 * check, everything else after it), the REST adapter takes its operation and query string from it,
 * and the request meter counts the answer under its label.
 *
 * Entries match a path (the target up to `?`), exactly or by prefix, whatever the method: each
 * handler answers the methods it does not serve with its own 405. The web routes behind one kind
 * (MCP, OAuth, identity, discovery, site) are Polka's (app.ts), which also answers a path's
 * variants (a trailing slash, another case) that are counted as `site` here.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DISCOVERY_PATHS } from '../discovery/links.ts';
import type { Operation } from '../operations/operation.ts';
import {
  API_BASE, AUTHORIZE_PATH, HEALTH_PATH, IDENTITY_PATH, INTROSPECT_PATH, MCP_PATH, READY_PATH, REGISTER_PATH, REVOKE_PATH, TOKEN_PATH,
} from '../paths.ts';
import { memoize } from '../memo.ts';
import { SEARCH_PAGE_PATH } from '../../formats/search-page.ts';

export type RouteKind = 'probe' | 'rest' | 'mcp' | 'oauth' | 'identity' | 'discovery' | 'site';

/**
 * What the metrics count an answer under (bounded values). One object per value, so a meter may
 * key on it; `operation` null: MCP's, named by the message in the body.
 */
export interface RouteLabel {
  readonly transport: 'rest' | 'mcp' | 'web';
  readonly operation: string | null;
}

export interface RouteMatch {
  readonly kind: RouteKind;
  /** Probes are answered before the Host check: a load balancer probes a process by its address. */
  readonly hostChecked: boolean;
  readonly label: RouteLabel;
  /** The target's path (up to `?`). */
  readonly path: string;
  /** The query string, without `?`. */
  readonly search: string;
  /** A REST target's operation; undefined for any other kind and for a REST path that names none. */
  readonly op: Operation | undefined;
}

/** One line of the table; a REST entry's label is its operation's. */
export interface RouteEntry {
  readonly kind: RouteKind;
  readonly path: string;
  /** Matches every path that starts with `path`, not `path` alone. */
  readonly prefix: boolean;
  readonly label: RouteLabel;
}

export interface RouteTable {
  readonly entries: readonly RouteEntry[];
  /** The match of a request target (origin form). */
  match(url: string): RouteMatch;
}

/** Request targets remembered with their match: clients repeat their calls. */
const TARGETS = 1024;

const web = (operation: string): RouteLabel => ({ transport: 'web', operation });
const exact = (kind: RouteKind, path: string, label: RouteLabel): RouteEntry => ({ kind, path, prefix: false, label });

export function createRouteTable(options: { operations: readonly Operation[] }): RouteTable {
  const unknownOperation: RouteLabel = { transport: 'rest', operation: 'unknown' };
  const operations = new Map(options.operations.map((op) => [op.path, { op, label: { transport: 'rest', operation: op.name } as RouteLabel }]));
  const discovery = web('discovery');
  const site = web('site');
  const entries: RouteEntry[] = [
    exact('probe', HEALTH_PATH, web('healthz')),
    exact('probe', READY_PATH, web('readyz')),
    // The base itself and every path under it; the operation is the segment after the base.
    exact('rest', API_BASE, unknownOperation),
    { kind: 'rest', path: API_BASE + '/', prefix: true, label: unknownOperation },
    // A path that only begins like the base (`/wp-json/agentes/v1x`) is the site's 404, counted with the API's unknown paths.
    { kind: 'site', path: API_BASE, prefix: true, label: unknownOperation },
    exact('mcp', MCP_PATH, { transport: 'mcp', operation: null }),
    exact('oauth', REGISTER_PATH, web('oauth_register')),
    exact('oauth', TOKEN_PATH, web('oauth_token')),
    exact('oauth', REVOKE_PATH, web('oauth_revoke')),
    exact('oauth', INTROSPECT_PATH, web('oauth_introspect')),
    exact('oauth', AUTHORIZE_PATH, web('oauth_authorize')),
    exact('identity', IDENTITY_PATH, web('agent_identity')),
    ...Object.values(DISCOVERY_PATHS).map((path) => exact('discovery', path, discovery)),
    { kind: 'discovery', path: '/.well-known/', prefix: true, label: discovery },
    // The search results page (routes/search-page.ts) is one of the site's, counted apart.
    exact('site', SEARCH_PAGE_PATH, web('search_page')),
    { kind: 'site', path: '/', prefix: true, label: site },
  ];

  const entryOf = (path: string): RouteEntry | undefined =>
    entries.find((e) => (e.prefix ? path.startsWith(e.path) : path === e.path));

  /** `<base>/<op>` or `<base>/<op>/` → the operation and its label. */
  const operationOf = (path: string) => {
    if (path.length <= API_BASE.length + 1) return undefined;
    const end = path.charCodeAt(path.length - 1) === 47 /* / */ ? path.length - 1 : path.length;
    return operations.get(path.slice(API_BASE.length + 1, end));
  };

  const match = memoize((url: string): RouteMatch => {
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const search = q === -1 ? '' : url.slice(q + 1);
    // A target that is no path (`*`, a malformed one) is the site's to answer.
    const entry = entryOf(path) ?? { kind: 'site', label: site };
    const found = entry.kind === 'rest' ? operationOf(path) : undefined;
    return { kind: entry.kind, hostChecked: entry.kind !== 'probe', label: found?.label ?? entry.label, path, search, op: found?.op };
  }, TARGETS);

  return { entries, match };
}

/** What answers a kind of request, given its match. */
export type RouteHandler = (req: IncomingMessage, res: ServerResponse, route: RouteMatch) => void;

/** A response that carries its request's match, set by main.ts before any handler runs. */
export interface Routed {
  route: RouteMatch | null;
}
