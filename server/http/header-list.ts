/**
 * Response headers as one flat list, `[name, value, name, value, …]`, written with a single
 * `res.writeHead(status, list)`. The API's hot path collects every header of an answer this way
 * (version, CORS, Vary, rate limits, representation) instead of one `res.setHeader` each: Node
 * then validates and serializes the list in one pass and builds no header map, where each
 * `setHeader` call validates its header and stores it in the map on its own.
 * Node accepts the flat form since v14.14 (http.ServerResponse#writeHead, "headers may be an Array
 * where the keys and values are in the same list").
 *
 * When headers were already set with `setHeader` (routes outside the API), `writeHead` merges the
 * list into them, a list entry replacing a set header of the same name: the same answer, slower.
 */
import type { ServerResponse } from 'node:http';

export type HeaderList = string[];

/** For answers written by a library or in several steps (MCP): the list as `setHeader` calls. */
export function setHeaders(res: ServerResponse, list: HeaderList): void {
  for (let i = 0; i < list.length; i += 2) res.setHeader(list[i]!, list[i + 1]!);
}
