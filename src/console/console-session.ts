import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Who is logged in: the operator (admin key), or one account (its API key). */
export type Viewer =
  | { role: 'admin' }
  | {
      role: 'account';
      accountId: number;
      /** The key logged in with: revoking it ends the session (checked on every request). */
      keyId?: string;
    };

export interface ConsoleSession {
  viewer: Viewer;
  expiresAt: number;
  /** Random per login: the CSRF token is derived from it. */
  nonce: string;
}

export const SESSION_COOKIE = 'wirebird_console';
export const SESSION_HOURS = 8;

/**
 * Sessions are signed cookies rather than server-side rows, so they survive a restart and work
 * on every gateway sharing an admin key. The signing key is derived from the admin key: changing
 * it logs everyone out. The CSRF token (synchronizer token) is an HMAC of the session's nonce,
 * so only a page rendered for this session carries it.
 */
export class SessionSigner {
  private readonly secret: Buffer;

  constructor(adminKey: string) {
    this.secret = createHmac('sha256', adminKey).update('wirebird console session v1').digest();
  }

  issue(viewer: Viewer, now: number): { cookie: string; session: ConsoleSession } {
    const session: ConsoleSession = {
      viewer,
      expiresAt: now + SESSION_HOURS * 3600_000,
      nonce: randomBytes(16).toString('base64url'),
    };
    const payload = Buffer.from(JSON.stringify(session)).toString('base64url');
    return { cookie: `${payload}.${this.sign(payload)}`, session };
  }

  /** The session a cookie carries, if its signature holds and it has not expired. */
  read(cookie: string | undefined, now: number): ConsoleSession | undefined {
    const [payload, signature, extra] = (cookie ?? '').split('.');
    if (!payload || !signature || extra !== undefined) return undefined;
    if (!sameText(signature, this.sign(payload))) return undefined;
    let session: ConsoleSession;
    try {
      session = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as ConsoleSession;
    } catch {
      return undefined;
    }
    return session.expiresAt > now ? session : undefined;
  }

  csrfToken(session: ConsoleSession): string {
    return this.sign(`csrf.${session.nonce}`);
  }

  checkCsrf(session: ConsoleSession, token: unknown): boolean {
    return typeof token === 'string' && sameText(token, this.csrfToken(session));
  }

  private sign(text: string): string {
    return createHmac('sha256', this.secret).update(text).digest('base64url');
  }
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The value of one cookie in a Cookie header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
}

export function sessionCookie(value: string, maxAgeS: number): string {
  return `${SESSION_COOKIE}=${value}; Path=/console; HttpOnly; SameSite=Strict; Max-Age=${maxAgeS}`;
}
