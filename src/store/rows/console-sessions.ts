import type { ConsoleSessionRecord } from '../../domain/access/console-session.js';

export interface ConsoleSessionRow {
  session_hash: string;
  role: string;
  account_id: number | null;
  key_id: string | null;
  address: string;
  created_at: number;
  expires_at: number;
  ended_at: number | null;
  ended_reason: string;
  csrf_secret: string;
}

export const CONSOLE_SESSION_COLUMNS = `session_hash, role, account_id, key_id, address,
  created_at, expires_at, ended_at, ended_reason, csrf_secret`;

export function consoleSessionArgs(s: ConsoleSessionRecord): unknown[] {
  return [
    s.sessionHash,
    s.role,
    s.accountId ?? null,
    s.keyId ?? null,
    s.address,
    s.createdAt,
    s.expiresAt,
    s.endedAt ?? null,
    s.endedReason,
    s.sealedCsrfSecret,
  ];
}

export function toConsoleSession(r: ConsoleSessionRow): ConsoleSessionRecord {
  return {
    sessionHash: r.session_hash,
    role: r.role === 'admin' ? 'admin' : 'account',
    accountId: r.account_id === null ? undefined : r.account_id,
    keyId: r.key_id ?? undefined,
    address: r.address,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    endedAt: r.ended_at === null ? undefined : r.ended_at,
    endedReason: r.ended_reason,
    sealedCsrfSecret: r.csrf_secret,
  };
}
