import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { WirebirdError } from '../domain/errors.js';
import { FailedAttempts } from '../rate-limit/failed-attempts.js';
import { errorAnswer } from './answer.js';

/**
 * Failed authentications per source address on the HTTP faces (docs/security.md): past
 * `http.failedAuthPerMinute` within a minute, the address is answered 429 (RetCode 153) before
 * any key is looked at, until its failures age out. Other addresses are not slowed at all.
 */
export const FAILED_AUTH_WINDOW_MS = 60_000;

export type AuthFace = 'api' | 'admin' | 'console' | 'smpp';

/** Which face a path is, for the routes that take a credential; undefined for open ones. */
export function faceOf(url: string): AuthFace | undefined {
  const path = url.split('?')[0] ?? '';
  if (path === '/api' || path === '/' || path.startsWith('/media')) return 'api';
  if (path.startsWith('/admin') || path === '/metrics') return 'admin';
  if (path.startsWith('/console') && !path.startsWith('/console/assets/')) return 'console';
  return undefined;
}

export interface AuthObserver {
  failed(face: AuthFace): void;
  lockout(face: AuthFace): void;
}

export class AuthGuard {
  private readonly attempts: FailedAttempts;

  constructor(
    private readonly o: { allowed: number; now: () => number; log: Logger; observe?: AuthObserver },
  ) {
    this.attempts = new FailedAttempts({
      allowed: o.allowed,
      windowMs: FAILED_AUTH_WINDOW_MS,
      now: o.now,
    });
  }

  /** A failed authentication from the request's address. */
  failure(request: FastifyRequest, face: AuthFace): void {
    this.o.observe?.failed(face);
    if (!this.attempts.failed(request.ip)) return;
    this.o.observe?.lockout(face);
    this.o.log.warn(
      {
        address: request.ip,
        face,
        failures: this.o.allowed,
        windowS: FAILED_AUTH_WINDOW_MS / 1000,
      },
      'too many failed authentications: the address is refused for a while',
    );
  }

  /** Refuses blocked addresses before anything else runs; counts every 401 as a failure. */
  register(app: FastifyInstance): void {
    app.addHook('onRequest', async (request, reply) => {
      if (faceOf(request.url) === undefined) return;
      const ms = this.attempts.blockedFor(request.ip);
      if (ms === 0) return;
      const seconds = Math.ceil(ms / 1000);
      const err = new WirebirdError(
        'RateLimited',
        `too many failed authentications from ${request.ip}; try again in ${seconds} s`,
      );
      return reply
        .code(429)
        .header('retry-after', String(seconds))
        .send(errorAnswer(undefined, err));
    });
    app.addHook('onResponse', async (request, reply) => {
      const face = faceOf(request.url);
      if (face !== undefined && reply.statusCode === 401) this.failure(request, face);
    });
  }
}
