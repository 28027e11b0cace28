/**
 * get_quota — the caller's own quota (contract.md, "Quota"). The only operation that requires a
 * token, with scope `quota:read`. The call itself is counted (on the client's `identificado`
 * window, whatever the token's scopes), so `used` includes it.
 */
import type { TokenInfo } from '../auth/types.ts';
import { remainingOf, type QuotaState } from '../quota/headers.ts';
import { GetQuotaParams } from '../schemas/params.ts';
import { QuotaSchema, type Quota } from '../../formats/schemas/resources.ts';
import { defineOperation } from './operation.ts';

export function quotaResource(token: TokenInfo, q: QuotaState): Quota {
  return {
    client_id: token.client_id,
    scope: token.scope.join(' '),
    policy: q.policy,
    limit: q.limit,
    window_seconds: q.windowSeconds,
    used: Math.min(q.used, q.limit),
    remaining: remainingOf(q),
    reset_seconds: q.resetSeconds,
  };
}

export const getQuota = defineOperation({
  name: 'get_quota',
  path: 'quota',
  tag: 'cuota',
  access: { kind: 'token', scope: 'quota:read' },
  input: GetQuotaParams,
  output: { schema: QuotaSchema, name: 'Quota', description: 'La cuota del cliente.' },
  // Changes with every call: never stored by a cache.
  cacheable: false,
  rest: {
    summary: 'Cuota del cliente identificado',
    description: 'Política, límite por ventana, peticiones usadas y segundos hasta el reinicio del cliente del token. '
      + 'Es la única operación que exige token, con el alcance `quota:read`. La propia llamada cuenta.',
  },
  tool: {
    title: 'Consultar la cuota',
    description: (l) => [
      'Devuelve la cuota de su client_id: política, límite por ventana, llamadas usadas y restantes, y segundos hasta el reinicio (esta llamada cuenta).',
      `Requiere conectarse con un token Bearer con el alcance quota:read (gratis: POST ${l.register} y POST ${l.token}); sin él devuelve un error.`,
    ].join(' '),
  },
  run: (_input, { credential, quota }) => {
    // The access step lets this operation run only with a valid token that has its scope.
    if (credential.kind !== 'token') throw new Error('get_quota ran without a token');
    return { value: quotaResource(credential.token, quota) };
  },
});
