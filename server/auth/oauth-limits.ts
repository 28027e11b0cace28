/** The OAuth endpoints' per-address limits: enforced by routes/oauth/, documented by auth.md and the developer page. */

export interface Limit {
  /** Store key prefix; the client address is appended. */
  name: string;
  max: number;
  windowSeconds: number;
  what: string;
}

/** contract.md, Limits: 5 registrations per hour and 30 token requests per minute, per IP. */
export const LIMITS = {
  register: { name: 'oauth-register', max: 5, windowSeconds: 3600, what: 'registrations per hour' },
  token: { name: 'oauth-token', max: 30, windowSeconds: 60, what: 'token requests per minute' },
  /** Revocation and introspection share one bucket; not in the contract, so generous. */
  manage: { name: 'oauth-manage', max: 60, windowSeconds: 60, what: 'revocation and introspection requests per minute' },
} as const satisfies Record<string, Limit>;
