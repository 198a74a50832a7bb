import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hashKey, isAdminKey } from '../api/auth.js';
import { keyState } from '../domain/keys/api-key.js';
import type { ConsoleContext } from './console-deps.js';
import { attachSession, sessionOf } from './console-deps.js';
import {
  SESSION_COOKIE,
  SESSION_HOURS,
  cookieValue,
  sessionCookie,
  type ConsoleSession,
  type Viewer,
} from './console-session.js';
import type { ConsoleSessionRecord } from '../domain/access/console-session.js';
import { html } from './html.js';
import { document, loginPage } from './layout.js';

const OPEN_PATHS = new Set(['/console/login']);

/** Every console response: no framing, no sniffing, no caching, scripts only from the gateway. */
export function securityHeaders(reply: FastifyReply): void {
  reply.headers({
    'content-security-policy':
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'",
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    // Not no-referrer: Chromium then sends "Origin: null" with form posts, which the CSRF check refuses.
    'referrer-policy': 'same-origin',
    'cache-control': 'no-store',
  });
}

export function problemPage(reply: FastifyReply, status: number, title: string, text: string) {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .send(
      document(
        title,
        html`<body>
          <main>
            <h1>${title}</h1>
            <p class="problem" role="alert">${text}</p>
            <p><a href="/console/inbox">Back to the console</a></p>
          </main>
        </body>`,
      ).text,
    );
}

/** A POST from another site carries its own Origin; a same-site one carries ours, or none. */
function sameOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  if (origin === undefined || origin === 'null') return origin === undefined;
  return origin === `${request.protocol}://${request.headers.host}`;
}

export function registerConsoleAuth(app: FastifyInstance, ctx: ConsoleContext): void {
  app.addHook('onRequest', async (request, reply) => {
    securityHeaders(reply);
    const path = request.url.split('?')[0] ?? '';
    if (OPEN_PATHS.has(path) || path.startsWith('/console/assets/')) return;
    const session = ctx.signer.read(
      cookieValue(request.headers.cookie, SESSION_COOKIE),
      ctx.clock.now(),
    );
    if (!session || !(await sessionLasts(ctx, session))) {
      if (request.method === 'GET') return reply.redirect('/console/login', 303);
      return problemPage(reply, 401, 'Logged out', 'Your session has ended; log in again.');
    }
    attachSession(request, session);
  });
  // After the body is parsed: every state-changing request must carry this session's token.
  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'POST' || OPEN_PATHS.has(request.url)) return;
    const token = (request.body as Record<string, unknown> | undefined)?._csrf;
    if (!sameOrigin(request) || !ctx.signer.checkCsrf(sessionOf(request), token))
      return problemPage(
        reply,
        403,
        'Refused',
        'The form is stale or came from another site; reload the page and try again.',
      );
  });

  app.get('/console/login', async (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(loginPage().text),
  );
  app.post<{ Body: Record<string, unknown> | undefined }>(
    '/console/login',
    async (request, reply) => {
      if (!sameOrigin(request))
        return problemPage(reply, 403, 'Refused', 'Log in from the console page.');
      const key = request.body?.key;
      const viewer =
        typeof key === 'string' && key.length > 0 ? await viewerOf(ctx, key) : undefined;
      if (!viewer)
        return reply
          .code(401)
          .type('text/html; charset=utf-8')
          .send(loginPage('That key is not valid.').text);
      const now = ctx.clock.now();
      const { cookie, session } = ctx.signer.issue(viewer, now);
      await ctx.store.insertConsoleSession(sessionRecord(session, request.ip, now));
      return reply
        .header('set-cookie', sessionCookie(cookie, SESSION_HOURS * 3600))
        .redirect('/console/inbox', 303);
    },
  );
  app.post('/console/logout', async (request, reply) => {
    // Ended in the store: a copy of the cookie is refused from now on, on every node.
    const which = { sessionHash: sessionHashOf(sessionOf(request)) };
    await ctx.store.endConsoleSessions(which, ctx.clock.now(), 'logged out');
    return reply.header('set-cookie', sessionCookie('', 0)).redirect('/console/login', 303);
  });
}

async function viewerOf(ctx: ConsoleContext, key: string): Promise<Viewer | undefined> {
  if (isAdminKey(ctx.adminKey, `Bearer ${key}`)) return { role: 'admin' };
  const record = await ctx.store.apiKeyByHash(hashKey(key));
  if (!record || keyState(record, ctx.clock.now()) !== 'active') return undefined;
  return { role: 'account', accountId: record.accountId, keyId: record.keyId };
}

/** The store's row of a session: the SHA-256 of its random id, which only the cookie carries. */
export const sessionHashOf = (session: ConsoleSession): string => hashKey(session.nonce);

function sessionRecord(
  session: ConsoleSession,
  address: string,
  now: number,
): ConsoleSessionRecord {
  const { viewer } = session;
  return {
    sessionHash: sessionHashOf(session),
    role: viewer.role,
    accountId: viewer.role === 'account' ? viewer.accountId : undefined,
    keyId: viewer.role === 'account' ? viewer.keyId : undefined,
    address,
    createdAt: now,
    expiresAt: session.expiresAt,
    endedAt: undefined,
    endedReason: '',
  };
}

/**
 * A session lasts while its row does (not logged out, nor ended by an admin) and, for an
 * account, while the key it was opened with is active (docs/security.md).
 */
async function sessionLasts(ctx: ConsoleContext, session: ConsoleSession): Promise<boolean> {
  const row = await ctx.store.consoleSession(sessionHashOf(session));
  if (!row || row.endedAt !== undefined || row.expiresAt <= ctx.clock.now()) return false;
  const { viewer } = session;
  if (viewer.role === 'admin') return true;
  if (viewer.keyId === undefined) return false;
  const key = (await ctx.store.listApiKeys(viewer.accountId)).find((k) => k.keyId === viewer.keyId);
  return key !== undefined && keyState(key, ctx.clock.now()) === 'active';
}
