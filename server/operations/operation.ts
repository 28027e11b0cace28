/**
 * What an operation of the content API is: everything about it in one definition, from which
 * the REST route (rest/), the MCP tool (mcp/tools.ts), /openapi.json, agents.md, the developer
 * page and the sandbox are made. One file per operation in this folder; the list is index.ts.
 */
import type { z } from 'zod';
import type { Credential } from '../auth/bearer.ts';
import type { Scope } from '../auth/types.ts';
import type { Links } from '../discovery/links.ts';
import type { QuotaState } from '../quota/headers.ts';
import type { LoadedModel, Representation } from '../read-model/types.ts';
import type { PageResolver } from '../read-model/url.ts';

/**
 * Who may call, and whose quota a call counts on:
 * - `open`: anyone; a valid token with `raisedBy` puts the call on its client's window, any other
 *   call stays on its IP's anonymous window;
 * - `token`: a valid token with `scope` is required, and every valid token puts the call on its
 *   client's window (so the call is counted before the scope is checked).
 */
export type Access =
  | { kind: 'open'; raisedBy: Scope }
  | { kind: 'token'; scope: Scope };

/** What `run` is handed, once the call is admitted and its input valid. */
export interface OperationContext {
  /** The read model current when the call started: a build swapped in meanwhile does not change it. */
  model: LoadedModel;
  /** Finds a page by full URL, site path or slug on this server's SITE_URL. */
  resolvePage: PageResolver;
  /** No token, or a valid one (an invalid credential never reaches an operation). */
  credential: Extract<Credential, { kind: 'none' | 'token' }>;
  /** The window this call was counted in. */
  quota: QuotaState;
}

/**
 * An answer: a body the read model serialized once at load (a page, a company section), or a
 * value built for this call. A value of a cacheable operation may be handed out again for the
 * same input (search results are): it is serialized once per object.
 */
export type OperationResult =
  | { representation: Representation }
  | { value: object };

export interface Operation<I extends z.ZodObject = z.ZodObject> {
  /** The OpenAPI operationId and the MCP tool name. */
  name: string;
  /** Its path segment under the API base (`{base_url}/<path>`). */
  path: string;
  /** OpenAPI tag. */
  tag: 'contenido' | 'cuota';
  access: Access;
  /**
   * Parameters as JSON (MCP arguments); REST query strings are turned into the types this schema
   * declares before it checks them. Its descriptions are the parameters' documentation.
   */
  input: I;
  /**
   * The 200 body: its schema, its name in /openapi.json, what it is, and the named schemas it is
   * made of (each becomes a component the body refers to).
   */
  output: { schema: z.ZodObject; name: string; description: string; parts?: Record<string, z.ZodType> };
  /**
   * Whether a 200 may be cached (ETag, 304, `max-age`: the same input gives the same answer until
   * a publish) or changes with every call (`no-store`, no ETag).
   */
  cacheable: boolean;
  /** The texts of /openapi.json and the developer page. */
  rest: { summary: string; description: string };
  /** The texts a model reads in tools/list. */
  tool: { title: string; description: string | ((links: Links) => string) };
  run(input: z.infer<I>, ctx: OperationContext): OperationResult | Promise<OperationResult>;
}

/** Types `run`'s input from `input`, and erases it for the list. */
export const defineOperation = <I extends z.ZodObject>(op: Operation<I>): Operation => op as unknown as Operation;
