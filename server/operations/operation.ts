/**
 * What an operation is: everything about it in one definition. The pipeline (pipeline/) runs
 * what every operation has (`OperationCore`); a content operation (`Operation`) also makes the
 * REST route (rest/), the MCP tool (mcp/tools.ts), /openapi.json, agents.md, the developer page
 * and the sandbox. One file per operation in this folder; the content operations' list is index.ts.
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
 *   client's window (so the call is counted before the scope is checked);
 * - `client`: a valid token of any scope is required, every call on its client's window.
 */
export type Access =
  | { kind: 'open'; raisedBy: Scope }
  | { kind: 'token'; scope: Scope }
  | { kind: 'client' };

/** The access a content operation may have: the contract's security declarations. */
export type ContentAccess = Exclude<Access, { kind: 'client' }>;

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

/** What the pipeline runs: who may call, the input, the answer, how it is made. */
export interface OperationCore<I extends z.ZodObject = z.ZodObject> {
  /** The OpenAPI operationId and the MCP tool name of a content operation. */
  name: string;
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
  run(input: z.infer<I>, ctx: OperationContext): OperationResult | Promise<OperationResult>;
}

/** A content operation: served under the API base, as an MCP tool, and described in /openapi.json. */
export interface Operation<I extends z.ZodObject = z.ZodObject> extends OperationCore<I> {
  access: ContentAccess;
  /** Its path segment under the API base (`{base_url}/<path>`). */
  path: string;
  /** OpenAPI tag. */
  tag: 'contenido' | 'cuota';
  /** The texts of /openapi.json and the developer page. */
  rest: { summary: string; description: string };
  /** The texts a model reads in tools/list. */
  tool: { title: string; description: string | ((links: Links) => string) };
}

/** Types `run`'s input from `input`, and erases it for the list. */
export const defineOperation = <I extends z.ZodObject>(op: Operation<I>): Operation => op as unknown as Operation;

/** The same for an operation served at an address of its own. */
export const defineCoreOperation = <I extends z.ZodObject>(op: OperationCore<I>): OperationCore => op as unknown as OperationCore;
