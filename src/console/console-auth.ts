import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hashKey, isAdminKey } from '../core/auth.js';
import { keyState } from '../domain/keys/key-record.js';
import type { ConsoleContext } from './console-deps.js';
import { attachSession } from './console-deps.js';
import { SESSION_COOKIE, type Viewer } from './console-session.js';
import { html } from './html.js';
import { document, loginPage } from './layout.js';
import { WirebirdError } from '../domain/errors.js';
import { formReader, text } from './forms.js';

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
    // @fastify/session restored the session from the store (or made an empty one).
    const viewer = request.session.viewer;
    if (!viewer || !(await keyStillActive(ctx, viewer))) {
      if (request.method === 'GET') return reply.redirect('/console/login', 303);
      return problemPage(reply, 401, 'Logged out', 'Your session has ended; log in again.');
    }
    attachSession(request, { viewer, csrf: reply.generateCsrf() });
  });
  // After the body is parsed: every state-changing request must carry this session's token,
  // which @fastify/csrf-protection checks (refusals reach the error handler below).
  app.addHook('preHandler', (request, reply, done) => {
    if (request.method !== 'POST' || OPEN_PATHS.has(request.url)) {
      done();
      return;
    }
    if (!sameOrigin(request)) return void refuseStale(reply);
    app.csrfProtection(request, reply, done);
  });
  app.setErrorHandler((err: FastifyError, _request, reply) => {
    // Errors thrown by handlers reach here too, and not every one has a code.
    if ((err.code as string | undefined)?.startsWith('FST_CSRF_')) return refuseStale(reply);
    throw err;
  });
  registerLogin(app, ctx);
}

function refuseStale(reply: FastifyReply) {
  return problemPage(
    reply,
    403,
    'Refused',
    'The form is stale or came from another site; reload the page and try again.',
  );
}

function registerLogin(app: FastifyInstance, ctx: ConsoleContext): void {
  app.get('/console/login', async (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(loginPage().text),
  );
  app.post<{ Body: Record<string, unknown> | undefined }>(
    '/console/login',
    async (request, reply) => {
      if (!sameOrigin(request))
        return problemPage(reply, 403, 'Refused', 'Log in from the console page.');
      const key = loginKey(request.body);
      const viewer = key ? await viewerOf(ctx, key) : undefined;
      if (!viewer)
        return reply
          .code(401)
          .type('text/html; charset=utf-8')
          .send(loginPage('That key is not valid.').text);
      // A new session id at every login: an id planted before it is worth nothing.
      await request.session.regenerate();
      request.session.viewer = viewer;
      request.session.address = request.ip;
      request.session.createdAt = ctx.clock.now();
      reply.generateCsrf(); // the secret, stored with the session when it is saved
      return reply.redirect('/console/inbox', 303);
    },
  );
  app.post('/console/logout', async (request, reply) => {
    // Ended in the store: a copy of the cookie is refused from now on, on every node.
    await request.session.destroy();
    return reply.clearCookie(SESSION_COOKIE, { path: '/console' }).redirect('/console/login', 303);
  });
}

const LoginForm = formReader({ key: text(256) });

/** The key typed in, or '' for a form that is not one (its refusal is the login page's). */
function loginKey(body: unknown): string {
  try {
    return LoginForm(body).key;
  } catch (err) {
    if (err instanceof WirebirdError) return '';
    throw err;
  }
}

async function viewerOf(ctx: ConsoleContext, key: string): Promise<Viewer | undefined> {
  if (isAdminKey(ctx.adminKey, `Bearer ${key}`)) return { role: 'admin' };
  const record = await ctx.store.apiKeyByHash(hashKey(key));
  if (record?.kind !== 'api' || keyState(record, ctx.clock.now()) !== 'active') return undefined;
  return { role: 'account', accountId: record.accountId, keyId: record.keyId };
}

/**
 * The session's row lasts (the store answered it); an account's session also needs the key it
 * was opened with to be active (docs/security.md).
 */
async function keyStillActive(ctx: ConsoleContext, viewer: Viewer): Promise<boolean> {
  if (viewer.role === 'admin') return true;
  const keys = await ctx.store.listApiKeys(viewer.accountId);
  const key = keys.find((k) => k.keyId === viewer.keyId);
  return key !== undefined && keyState(key, ctx.clock.now()) === 'active';
}
