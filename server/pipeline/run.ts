/**
 * Runs steps in order until one ends the call: synchronously while each step has its answer at
 * once, after a promise from the first step that waits (see chain.ts: no microtask turn per step
 * on the hot path). A step's throw ends the call too; the caller renders it.
 */
import type { Call, Outcome } from './call.ts';
import type { Step } from './steps.ts';

export function runSteps(steps: readonly Step[], call: Call, from = 0): Outcome | undefined | Promise<Outcome | undefined> {
  for (let i = from; i < steps.length; i++) {
    const out = steps[i]!(call);
    if (out === undefined) continue;
    if (out instanceof Promise) {
      const next = i + 1;
      return out.then((o) => (o === undefined ? runSteps(steps, call, next) : o));
    }
    return out;
  }
  return undefined;
}
