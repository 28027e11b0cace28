/** One call of an operation on its way through the pipeline's steps (steps.ts). */
import type { IncomingMessage } from 'node:http';
import type { Credential } from '../auth/bearer.ts';
import type { ApiError } from '../errors.ts';
import type { HeaderList } from '../http/header-list.ts';
import type { Access, OperationCore, OperationResult } from '../operations/operation.ts';
import type { QuotaState } from '../quota/headers.ts';
import type { LoadedModel } from '../read-model/types.ts';
import type { PageResolver } from '../read-model/url.ts';

export interface Call {
  /** null for a request admitted without an operation (MCP's bad credential). */
  op: OperationCore | null;
  /** The operation's access, or null: counted on its IP's window, nothing required. */
  access: Access | null;
  /** The HTTP request: its client address is the anonymous window's subject. */
  req: IncomingMessage;
  credential: Credential;
  /** The parameters as the wire format carries them: REST's parsed query, MCP's `arguments`. */
  raw: unknown;
  /** The answer's headers: the count step adds the rate-limit headers. */
  headers: HeaderList;
  /** The window the call was counted in (set by the count step). */
  quota: QuotaState | null;
  /** The validated input (set by the input step). */
  input: Readonly<Record<string, unknown>> | null;
  /** Set by the run step, which hands the call to the operation as its context. */
  model: LoadedModel | null;
  resolvePage: PageResolver | null;
}

/** A call as an adapter starts it: nothing counted, checked or run yet. */
export const newCall = (
  op: OperationCore | null, req: IncomingMessage, credential: Credential, raw: unknown, headers: HeaderList = [],
): Call => ({ op, access: op === null ? null : op.access, req, credential, raw, headers, quota: null, input: null, model: null, resolvePage: null });

/**
 * How a call ends when no step throws: the 429 of a used-up window (answered, not thrown: an
 * over-quota client sends many requests, and a throw costs a stack walk) or the operation's result.
 */
export type Outcome = ApiError | OperationResult;
