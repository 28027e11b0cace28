/**
 * The one request pipeline of the content operations, shared by the REST adapter (rest/) and the
 * MCP adapter (mcp/): each builds it once with what differs per wire format (its bearer
 * challenges, how its parameters arrive) and renders the outcome its own way.
 */
import type { AppDeps } from '../app.ts';
import type { BearerChallenges } from '../auth/bearer.ts';
import { createClientIpResolver } from '../net/client-ip.ts';
import type { OperationCore } from '../operations/operation.ts';
import { createQuotaStep } from '../quota/ratelimit.ts';
import { createPageResolver } from '../read-model/url.ts';
import type { Call, Outcome } from './call.ts';
import { runSteps } from './run.ts';
import { createSteps } from './steps.ts';

export { newCall, type Call, type Outcome } from './call.ts';

export interface Wire {
  challenges: BearerChallenges;
  /** The call's parameters as plain values for the operation's schema. */
  collect(op: OperationCore, raw: unknown): Record<string, unknown>;
}

export interface Pipeline {
  /** Every step: ends with the operation's result or the 429 (or throws an ApiError). */
  call(call: Call): Outcome | Promise<Outcome>;
  /**
   * Counting, the credential and the call's access only, for a request without an operation (a
   * bad credential refused before one is named, as MCP's is): ends with the 429 or throws;
   * undefined when admitted.
   */
  admit(call: Call): Outcome | undefined | Promise<Outcome | undefined>;
}

export function createPipeline(deps: AppDeps, wire: Wire): Pipeline {
  const steps = createSteps({
    quota: createQuotaStep(deps),
    clientIp: createClientIpResolver(deps.config.trustProxy),
    challenges: wire.challenges,
    collect: wire.collect,
    model: deps.model,
    resolvePage: createPageResolver(deps.config.siteUrl),
  });
  return {
    // The last step (run) always answers.
    call: (call) => runSteps(steps.all, call) as Outcome | Promise<Outcome>,
    admit: (call) => runSteps(steps.admission, call),
  };
}
