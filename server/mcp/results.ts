/**
 * Tool results (MCP 2025-11-25, "Tools › Tool Result"): a success carries the resource as
 * `structuredContent` and the same JSON as a text block, for hosts that read only text; a failure
 * is `isError: true` with a text the model can act on (what was wrong, what to do). The one place
 * an operation's outcome or error becomes a tool result.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { DEFAULT_SCOPE } from '../auth/clients.ts';
import { ApiError, API_CODES } from '../errors.ts';
import type { Links } from '../discovery/links.ts';
import type { OperationResult } from '../operations/operation.ts';
import type { Call } from '../pipeline/index.ts';
import type { Representation } from '../read-model/types.ts';

/** A resource built for this call (search results, quota). */
function jsonResult(value: object): CallToolResult {
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

export const toolResult = (outcome: OperationResult): CallToolResult =>
  ('representation' in outcome ? representationResult(outcome.representation) : jsonResult(outcome.value));

function toolError(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/**
 * An API error as text for a model (tool errors, resource read errors): its message, and its hint
 * when the hint says more than the parameter name the message already gives (`Parámetro no
 * válido: limit. …` carries hint `limit`). A refused token is explained for a connection rather
 * than for one HTTP request: the model cannot add a header, the person configuring the host can.
 */
export function errorText(err: ApiError, call: Call, l: Links): string {
  const op = call.op!;
  const scope = op.access.kind === 'token' ? op.access.scope : '';
  if (err.code === API_CODES.notLoggedIn) {
    return `${op.name} necesita un token Bearer con el alcance ${scope}, y esta conexión no envía ninguno. `
      + `Pida uno gratis: POST ${l.register} y POST ${l.token} (grant_type=client_credentials, scope="${DEFAULT_SCOPE.join(' ')}"), `
      + `y conecte con Authorization: Bearer <token>; véase ${l.authMd}.`;
  }
  if (err.code === API_CODES.insufficientScope && call.credential.kind === 'token') {
    return `El token de esta conexión no tiene el alcance ${scope} (tiene: ${call.credential.token.scope.join(' ') || 'ninguno'}). `
      + `Pida un token con scope=${scope} en POST ${l.token}.`;
  }
  return err.hint === undefined || err.message.includes(err.hint) ? err.message : `${err.message} ${err.hint}`;
}

export const toolErrorOf = (err: ApiError, call: Call, l: Links): CallToolResult => toolError(errorText(err, call, l));
