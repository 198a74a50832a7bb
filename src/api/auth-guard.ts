import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { WirebirdError } from '../domain/errors.js';
import rateLimit from '@fastify/rate-limit';
import { errorAnswer } from './answer.js';

/**
 * Failed authentications per source address on the HTTP faces (docs/security.md): past
 * `http.failedAuthPerMinute` within a minute, the address is answered 429 (RetCode 153) before
 * any key is looked at, until its failures age out. Other addresses are not slowed at all.
 */
export const FAILED_AUTH_WINDOW_MS = 60_000;
/** Addresses whose lockout was logged, kept so that it is logged once per lockout. */
const LOCKOUTS_KEPT = 10_000;

export type AuthFace = 'api' | 'admin' | 'console' | 'smpp';

/** Which face a path is, for the routes that take a credential; undefined for open ones. */
export function faceOf(url: string): AuthFace | undefined {
  // Called on every request: no array is made for a path without a query.
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  if (path === '/api' || path === '/' || path.startsWith('/media')) return 'api';
  if (path.startsWith('/admin') || path === '/metrics') return 'admin';
  if (path.startsWith('/console') && !path.startsWith('/console/assets/')) return 'console';
  return undefined;
}

export interface AuthObserver {
  failed(face: AuthFace): void;
  lockout(face: AuthFace): void;
}

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;

/** What a peek or a count says: refused, and for how long (ms); an allow-listed key never is. */
async function limitOf(limiter: Limiter, request: FastifyRequest, increment: boolean) {
  const status = await limiter(request, { increment });
  return status.isAllowed
    ? { exceeded: false, ttl: 0 }
    : { exceeded: status.isExceeded, ttl: status.ttl };
}

/**
 * The count is @fastify/rate-limit's (its createRateLimit, peeked before a request and consumed
 * by a failure only, as its README shows for logins): past `allowed` failures in a minute the
 * address is refused until the minute that began with its first failure ends.
 */
export class AuthGuard {
  private limiter: Limiter | undefined;

  constructor(private readonly o: { allowed: number; log: Logger; observe?: AuthObserver }) {}

  /** A failed authentication from the request's address. */
  async failure(request: FastifyRequest, face: AuthFace): Promise<void> {
    this.o.observe?.failed(face);
    if (!this.limiter) return;
    const status = await limitOf(this.limiter, request, true);
    if (!status.exceeded || this.lockedOut.has(request.ip)) return;
    // Bounded as the limiter's own store is: under a spread attack the oldest are let go.
    if (this.lockedOut.size >= LOCKOUTS_KEPT) this.lockedOut.clear();
    this.lockedOut.add(request.ip);
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

  /** Addresses whose lockout was told, so that it is logged and counted once. */
  private readonly lockedOut = new Set<string>();

  /** Refuses blocked addresses before anything else runs; counts every 401 as a failure. */
  register(app: FastifyInstance): void {
    void app.register(rateLimit, { global: false });
    app.after(() => {
      this.limiter = app.createRateLimit({
        max: this.o.allowed,
        timeWindow: FAILED_AUTH_WINDOW_MS,
        keyGenerator: (request) => request.ip,
      });
    });
    app.addHook('onRequest', async (request, reply) => {
      if (faceOf(request.url) === undefined || !this.limiter) return;
      const status = await limitOf(this.limiter, request, false);
      if (!status.exceeded) {
        this.lockedOut.delete(request.ip);
        return;
      }
      const seconds = Math.max(1, Math.ceil(status.ttl / 1000));
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
      if (face !== undefined && reply.statusCode === 401) await this.failure(request, face);
    });
  }
}
