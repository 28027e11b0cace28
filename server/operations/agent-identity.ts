/**
 * agent_identity — who the calling agent is (contract.md, "GET {site_url}/agent/identity"): any
 * valid token, whatever its scopes, and every call counted on its client's window, so `quota`
 * includes it. Served at its own address (routes/identity.ts), not under the API base nor as an
 * MCP tool. The fields beyond the contract's are documented in the README and /auth.md.
 */
import type { ClientNames } from '../auth/client-names.ts';
import { AgentIdentityParams } from '../schemas/params.ts';
import { IdentitySchema, type Identity } from '../../formats/schemas/resources.ts';
import { quotaResource } from './get-quota.ts';
import { defineCoreOperation, type OperationCore } from './operation.ts';

export function createAgentIdentity(options: { clientNames: ClientNames }): OperationCore {
  return defineCoreOperation({
    name: 'agent_identity',
    access: { kind: 'client' },
    input: AgentIdentityParams,
    output: { schema: IdentitySchema, name: 'Identity', description: 'El cliente del token y su cuota.' },
    // Its quota changes with every call.
    cacheable: false,
    run: async (_input, { credential, quota }) => {
      // The access step lets this operation run only with a valid token.
      if (credential.kind !== 'token') throw new Error('agent_identity ran without a token');
      const { token } = credential;
      const value: Identity = {
        client_id: token.client_id,
        ...await options.clientNames(token.client_id),
        scope: token.scope.join(' '),
        token_expires_at: token.exp,
        quota: quotaResource(token, quota),
      };
      return { value };
    },
  });
}
