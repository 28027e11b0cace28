/** The token check the API relies on; the OAuth module implements it over the Store. */
export const SCOPES = ['content:read', 'quota:read'] as const;
export type Scope = (typeof SCOPES)[number];

export interface TokenInfo {
  client_id: string;
  scope: Scope[];
  /** Epoch seconds. */
  iat: number;
  exp: number;
}

export interface TokenVerifier {
  /** null for an unknown, revoked, expired or malformed token. Throws only when the backend fails. */
  verify(token: string): Promise<TokenInfo | null>;
}
