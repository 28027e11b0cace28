/**
 * The window of the MCP messages that are not operation calls (initialize, ping, server/discover,
 * tools/list, the resource lists, notifications, anything unknown): tools/call and resources/read
 * are counted on the caller's API window (server/pipeline), every other message, batched or not,
 * on a window of its own beside it, per IP without a token and per client_id with one, in the same
 * store (so shared by every process, and counted per process during an outage). Its own window
 * keeps a host's connections (a few such messages each) from eating its tool calls, and spending
 * the tool calls from stopping it connecting; being bounded, no flood of them is free.
 */
import type { IncomingMessage } from 'node:http';
import type { AppDeps } from '../app.ts';
import type { Credential } from '../auth/bearer.ts';
import type { ApiError } from '../errors.ts';
import type { HeaderList } from '../http/header-list.ts';
import { memoize } from '../memo.ts';
import { createClientIpResolver } from '../net/client-ip.ts';
import { anonymousSubject, createQuotaStep, identifiedSubject, type WindowFamily } from '../quota/ratelimit.ts';
import type { QuotaState } from '../quota/headers.ts';
import { MCP_MESSAGE_FACTOR } from './limits.ts';

export const MCP_MESSAGE_WINDOWS: WindowFamily = {
  prefix: 'mcp-',
  factor: MCP_MESSAGE_FACTOR,
  unit: 'mensajes MCP que no son tools/call ni resources/read',
};

/** The methods counted on the API window, as the operation they call. */
const OPERATION_METHODS = new Set(['tools/call', 'resources/read']);

const isOperationCall = (m: unknown): boolean =>
  typeof m === 'object' && m !== null && OPERATION_METHODS.has((m as { method?: unknown }).method as string);

/**
 * How many messages of a parsed body go on this window: every one that is not an operation call,
 * and one for a body with no operation call at all (an empty batch, a value that is not JSON-RPC).
 */
export function uncountedMessages(message: unknown): number {
  const all = Array.isArray(message) ? message : [message];
  let calls = 0;
  for (const m of all) if (isOperationCall(m)) calls++;
  return calls === 0 ? Math.max(1, all.length) : all.length - calls;
}

const SUBJECTS = 4096;

export type MessageQuota = (req: IncomingMessage, credential: Credential, messages: number, headers: HeaderList) =>
  ApiError | null | Promise<ApiError | null>;

/** Counts `messages` hits on the caller's window; its 429 once the window is used up (headers on `headers`). */
export function createMessageQuota(deps: AppDeps): MessageQuota {
  const quota = createQuotaStep(deps, MCP_MESSAGE_WINDOWS);
  const clientIp = createClientIpResolver(deps.config.trustProxy);
  const anonymous = memoize((ip: string) => anonymousSubject(ip, MCP_MESSAGE_WINDOWS), SUBJECTS);
  const identified = memoize((clientId: string) => identifiedSubject(clientId, MCP_MESSAGE_WINDOWS), SUBJECTS);
  return (req, credential, messages, headers) => {
    if (messages === 0) return null;
    const subject = credential.kind === 'token' ? identified(credential.token.client_id) : anonymous(clientIp(req));
    // Hits sent in one run go to Redis as one increment (stores/coalesce-hits.ts); the last has the highest count.
    const scratch: HeaderList = [];
    const counted = Array.from({ length: messages }, (_, i) => quota.count(subject, i === messages - 1 ? headers : scratch));
    const last = counted.at(-1)!;
    if (!(last instanceof Promise)) return quota.refusal(last);
    return Promise.all(counted).then((states: QuotaState[]) => quota.refusal(states.at(-1)!));
  };
}
