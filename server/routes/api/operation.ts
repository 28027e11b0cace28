/** What one API operation is, and what it is handed for one request. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppDeps } from '../../app.ts';
import type { Credential } from '../../auth/bearer.ts';
import type { HeaderList } from '../../http/header-list.ts';
import type { QuotaState } from '../../quota/headers.ts';
import type { PageResolver } from '../../read-model/url.ts';
import type { RawQuery } from './params.ts';

/** What the operations share, built once at registration. */
export interface ApiShared {
  deps: AppDeps;
  resolvePage: PageResolver;
}

export interface OperationContext {
  req: IncomingMessage;
  res: ServerResponse;
  /** The answer's headers so far (version, CORS, Vary, rate limits): the operation adds its own and writes them all. */
  headers: HeaderList;
  query: RawQuery;
  /** A valid token, or none (invalid credentials never reach an operation). */
  credential: Extract<Credential, { kind: 'none' | 'token' }>;
  /** The window this request was counted in (its headers already in `headers`). */
  quota: QuotaState;
  /** `Cache-Control` of a 200 of a content operation: public without a token, private with one. */
  cacheControl: string;
}

export interface Operation {
  /** Path segment under the base: `read_page`. */
  name: string;
  /** Whether a valid token puts this request on its client's quota (`identificado`). */
  identifies(credential: Credential): boolean;
  run(ctx: OperationContext): void | Promise<void>;
}

/** Content operations: a valid token with `content:read` raises the quota; without it, the call stays anonymous. */
export const contentIdentifies = (c: Credential): boolean => c.kind === 'token' && c.token.scope.includes('content:read');
