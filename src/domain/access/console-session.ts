/**
 * A console session as the store keeps it (docs/security.md): the cookie proves which session it
 * is, and the row whether it still lasts, so logging out, revoking the key it was opened with, or
 * an admin's "log out everyone" end it at once on every node, and a copied cookie with it.
 */
export interface ConsoleSessionRecord {
  /** SHA-256 of the session's random id, which only the cookie carries. */
  sessionHash: string;
  role: 'admin' | 'account';
  accountId: number | undefined;
  /** The API key an account's session was opened with. */
  keyId: string | undefined;
  /** The address the login came from. */
  address: string;
  createdAt: number;
  expiresAt: number;
  endedAt: number | undefined;
  endedReason: string;
  /** The secret the session's CSRF tokens are made from (@fastify/csrf), sealed. */
  sealedCsrfSecret: string;
}

/** The short name lists show a session by: the start of its hash, never the id itself. */
export const sessionLabel = (s: Pick<ConsoleSessionRecord, 'sessionHash'>): string =>
  s.sessionHash.slice(0, 12);
