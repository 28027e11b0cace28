/**
 * The validated input of recent query strings, per operation. Clients repeat the same calls (an
 * agent reading a page, a CDN revalidating it), and parsing a query string and checking it
 * against the operation's schema is a noticeable part of a hot read's CPU.
 * Only inputs that pass are kept, frozen, so no operation can change what the next call gets;
 * a failing one throws its 400 every time.
 */
import { memoize } from '../memo.ts';
import type { OperationCore } from '../operations/operation.ts';

const MAX_ENTRIES = 1024;

export type InputParser = (op: OperationCore, raw: unknown) => Readonly<Record<string, unknown>>;

export function cacheInputs(parse: InputParser): InputParser {
  const byOperation = new Map<OperationCore, (raw: string) => Readonly<Record<string, unknown>>>();
  return (op, raw) => {
    if (typeof raw !== 'string') return parse(op, raw);
    let inputOf = byOperation.get(op);
    if (inputOf === undefined) byOperation.set(op, (inputOf = memoize((s) => Object.freeze(parse(op, s)), MAX_ENTRIES)));
    return inputOf(raw);
  };
}
