/**
 * The bounds of one MCP request beyond its body size (endpoint.ts), defined once: the endpoint,
 * agents.md, the developer page and the README give them.
 */

/** Messages in one JSON-RPC batch (2025-03-26): a client batches a few calls; more would only multiply one request's cost. */
export const MCP_BATCH_LIMIT = 20;

/**
 * The answers of one batch, in bytes: past it, each further answer is an error asking for that
 * request alone (its size is known only once it has run). A batch at MCP_BATCH_LIMIT of the
 * largest page parts stays about this size.
 */
export const MCP_BATCH_REPLY_LIMIT = 1024 * 1024;

/**
 * The window of the messages that are not tools/call or resources/read (message-quota.ts), as a
 * multiple of the caller's quota: a connection is two to six such messages, and a host makes few.
 */
export const MCP_MESSAGE_FACTOR = 2;
