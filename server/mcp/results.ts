/**
 * Tool results (MCP 2025-11-25, "Tools › Tool Result"): a success carries the resource as
 * `structuredContent` and the same JSON as a text block, for hosts that read only text; a failure
 * is `isError: true` with a text the model can act on (what was wrong, what to do).
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ApiError } from '../errors.ts';
import type { Representation } from '../read-model/types.ts';

/** A resource built for this call (search results, quota). */
export function jsonResult(value: object): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value as Record<string, unknown> };
}

/**
 * A body the read model serialized once at load (a page, a company section): the text block is
 * exactly the REST body, and the parsed object is kept beside the representation, so a page read
 * twice is parsed once. The returned object is shared: callers copy it before adding fields.
 */
const byRepresentation = new WeakMap<Representation, CallToolResult>();

export function representationResult(rep: Representation): CallToolResult {
  let result = byRepresentation.get(rep);
  if (result === undefined) {
    const text = rep.body.toString('utf8');
    result = { content: [{ type: 'text', text }], structuredContent: JSON.parse(text) as Record<string, unknown> };
    byRepresentation.set(rep, result);
  }
  return result;
}

export function toolError(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/**
 * An API error as a tool error: its message, and its hint when the hint says more than the
 * parameter name the message already gives (`Parámetro no válido: limit. …` carries hint `limit`).
 */
export function apiErrorText(err: ApiError): string {
  return err.hint === undefined || err.message.includes(err.hint) ? err.message : `${err.message} ${err.hint}`;
}
