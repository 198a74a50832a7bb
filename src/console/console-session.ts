/**
 * Console sessions through the Fastify ecosystem's plugins (docs/security.md): @fastify/cookie
 * reads and writes the cookie, @fastify/session signs it and keeps the session in the gateway's
 * store (StoredSessions, below), @fastify/csrf-protection makes and checks the forms' tokens from
 * a secret kept with the session. The cookie carries only the random session id, signed; the
 * store holds its SHA-256, who logged in, and until when.
 */
import { createHash, createHmac } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import fastifyCsrf from '@fastify/csrf-protection';
import fastifySession, { type SessionStore } from '@fastify/session';
import type { FastifyInstance, FastifyRequest, Session } from 'fastify';
import type { SecretBox } from '../crypto/secret-box.js';
import type { ConsoleSessionRecord } from '../domain/access/console-session.js';
import type { Clock, ConsoleSessionStore } from '../domain/ports.js';
import { fieldsOf } from '../util/unknown-values.js';

/** Who is logged in: the operator (admin key), or one account (its API key). */
export type Viewer =
  | { role: 'admin' }
  | {
      role: 'account';
      accountId: number;
      /** The key logged in with: revoking it ends the session (checked on every request). */
      keyId: string;
    };

declare module 'fastify' {
  interface Session {
    viewer?: Viewer;
    /** The address the login came from. */
    address?: string;
    createdAt?: number;
    /** The CSRF secret (@fastify/csrf-protection's sessionKey). */
    _csrf?: string;
  }
}

export const SESSION_COOKIE = 'wirebird_console';
export const SESSION_HOURS = 8;
const SESSION_MS = SESSION_HOURS * 3600_000;

/** The store's name for a session: the SHA-256 of its id, which only the cookie carries. */
export const sessionHashOf = (sessionId: string): string =>
  createHash('sha256').update(sessionId).digest('hex');

/**
 * @fastify/session's store over the gateway's: a session is written once, when its login makes
 * it (later saves change nothing the row holds); it is read on every request, so one ended by
 * logout, by the admin, or on another node is gone at once; destroying it ends its row.
 */
export class StoredSessions implements SessionStore {
  constructor(private readonly o: { store: ConsoleSessionStore; box: SecretBox; clock: Clock }) {}

  set(sessionId: string, session: Session, callback: (err?: unknown) => void): void {
    this.save(sessionId, session).then(() => callback(), callback);
  }

  get(sessionId: string, callback: (err: unknown, result?: Session | null) => void): void {
    this.load(sessionId).then(
      (session) => callback(null, session),
      (err: unknown) => callback(err),
    );
  }

  destroy(sessionId: string, callback: (err?: unknown) => void): void {
    const which = { sessionHash: sessionHashOf(sessionId) };
    this.o.store
      .endConsoleSessions(which, this.o.clock.now(), 'logged out')
      .then(() => callback(), callback);
  }

  private async save(sessionId: string, session: Session): Promise<void> {
    const { viewer, _csrf: secret } = session;
    // Nothing to keep before a login; a logged-in session's row never changes after it.
    if (!viewer || !secret) return;
    const sessionHash = sessionHashOf(sessionId);
    if (await this.o.store.consoleSession(sessionHash)) return;
    const now = this.o.clock.now();
    const expires = session.cookie.expires;
    await this.o.store.insertConsoleSession({
      sessionHash,
      role: viewer.role,
      accountId: viewer.role === 'account' ? viewer.accountId : undefined,
      keyId: viewer.role === 'account' ? viewer.keyId : undefined,
      address: session.address ?? '',
      createdAt: session.createdAt ?? now,
      expiresAt: expires instanceof Date ? expires.getTime() : now + SESSION_MS,
      endedAt: undefined,
      endedReason: '',
      sealedCsrfSecret: this.o.box.seal(secret),
    });
  }

  private async load(sessionId: string): Promise<Session | null> {
    const row = await this.o.store.consoleSession(sessionHashOf(sessionId));
    if (!row || row.endedAt !== undefined || row.expiresAt <= this.o.clock.now()) return null;
    const secret = this.o.box.open(row.sealedCsrfSecret);
    if (secret === undefined) return null; // sealed under another gateway secret, or before
    const data = {
      cookie: { ...COOKIE, expires: new Date(row.expiresAt) },
      viewer: viewerOf(row),
      address: row.address,
      createdAt: row.createdAt,
      _csrf: secret,
    };
    // @fastify/session's Session type holds its own methods; the store answers the data it keeps.
    return data as unknown as Session;
  }
}

function viewerOf(row: ConsoleSessionRecord): Viewer {
  if (row.role === 'admin') return { role: 'admin' };
  return { role: 'account', accountId: row.accountId ?? 0, keyId: row.keyId ?? '' };
}

/**
 * The cookie: HttpOnly, SameSite=Strict, path /console, 8 hours. Not Secure, as the gateway
 * itself speaks plain HTTP; behind TLS the proxy adds it (docs/security.md).
 */
const COOKIE = {
  path: '/console',
  httpOnly: true,
  sameSite: 'strict',
  secure: false,
} as const;

/**
 * Registers the three plugins in the console's scope. The cookie's signing key is derived from
 * the admin key: changing it logs everyone out.
 */
export async function registerSessions(
  scoped: FastifyInstance,
  o: { adminKey: string; store: ConsoleSessionStore; box: SecretBox; clock: Clock },
): Promise<void> {
  const secret = createHmac('sha256', o.adminKey)
    .update('wirebird console session v2')
    .digest('base64url');
  await scoped.register(fastifyCookie);
  await scoped.register(fastifySession, {
    secret,
    cookieName: SESSION_COOKIE,
    store: new StoredSessions(o),
    saveUninitialized: false,
    rolling: false,
    cookie: { ...COOKIE, maxAge: SESSION_MS },
  });
  await scoped.register(fastifyCsrf, {
    sessionPlugin: '@fastify/session',
    // Forms carry the token as a field; the console's script sends the same field.
    getToken: (request: FastifyRequest) => {
      const token = fieldsOf(request.body)._csrf;
      return typeof token === 'string' ? token : undefined;
    },
  });
}
