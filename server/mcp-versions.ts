/**
 * The MCP revisions /mcp speaks, newest first, defined once: the endpoint, the server card,
 * server/discover, agents.md, the README and the developer page list these (a test checks that
 * each is served: the 2025 ones negotiated by `initialize`, the stateless one by server/discover).
 */

/** The stateless revision: no `initialize`, the version in each request's `_meta` (the SDK's modern era). */
export const STATELESS_VERSION = '2026-07-28';
/**
 * Revisions negotiated with `initialize`: Streamable HTTP appeared in 2025-03-26 (older revisions
 * spoke HTTP+SSE, which this endpoint does not serve).
 */
export const INITIALIZE_VERSIONS: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26'];
export const PROTOCOL_VERSIONS: readonly string[] = [STATELESS_VERSION, ...INITIALIZE_VERSIONS];
