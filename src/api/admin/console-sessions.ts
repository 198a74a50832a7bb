import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { sessionLabel, type ConsoleSessionRecord } from '../../domain/access/console-session.js';
import { WirebirdError } from '../../domain/errors.js';
import { Obj } from '../answer-schemas.js';
import type { ApiDeps } from '../context.js';
import { serveAdmin, type AdminRoute } from './admin-route.js';

const PATH = '/admin/console-sessions';
const Unix = Type.Integer({ minimum: 0, description: 'Unix seconds' });

const SessionView = Obj({
  SessionId: Type.String({ description: "the start of the session id's hash (never the id)" }),
  Role: Type.Union([Type.Literal('admin'), Type.Literal('account')]),
  AccountId: Type.Union([Type.Integer(), Type.Null()]),
  KeyId: Type.String({ description: 'the key an account logged in with; "" for the admin' }),
  Address: Type.String({ description: 'where the login came from' }),
  CreateTime: Unix,
  ExpireTime: Unix,
});

export const CONSOLE_SESSION_ROUTES = {
  list: {
    method: 'GET',
    url: PATH,
    summary: 'The console sessions open now, on every node sharing the store.',
    answer: Obj({ DataSet: Type.Array(SessionView) }),
  },
  endAll: {
    audit: (_i, a) => ({
      action: 'console.sessions_ended',
      target: 'all',
      detail: { Ended: a.Ended },
    }),
    method: 'DELETE',
    url: PATH,
    summary: 'Logs everyone out of the console at once, on every node.',
    answer: Obj({ Ended: Type.Integer({ minimum: 0 }) }),
  },
  endOne: {
    audit: (i) => ({ action: 'console.sessions_ended', target: i.params.sessionId ?? '' }),
    method: 'DELETE',
    url: `${PATH}/:sessionId`,
    summary: 'Ends one console session.',
    params: { sessionId: { description: 'the SessionId the list shows' } },
    answer: Obj({ Ended: Type.Integer({ minimum: 1 }) }),
  },
} satisfies Record<string, AdminRoute>;

export function consoleSessionView(s: ConsoleSessionRecord): Record<string, unknown> {
  return {
    SessionId: sessionLabel(s),
    Role: s.role,
    AccountId: s.accountId ?? null,
    KeyId: s.keyId ?? '',
    Address: s.address,
    CreateTime: Math.floor(s.createdAt / 1000),
    ExpireTime: Math.floor(s.expiresAt / 1000),
  };
}

/** The operator's view of who is in the console, and the way to end it (docs/security.md). */
export function registerConsoleSessionAdmin(app: FastifyInstance, deps: ApiDeps): void {
  const { store, clock } = deps;
  serveAdmin(app, deps, CONSOLE_SESSION_ROUTES.list, async () => ({
    DataSet: (await store.liveConsoleSessions(clock.now())).map(consoleSessionView),
  }));
  serveAdmin(app, deps, CONSOLE_SESSION_ROUTES.endAll, async () => ({
    Ended: await store.endConsoleSessions('all', clock.now(), 'ended by the admin API'),
  }));
  serveAdmin(app, deps, CONSOLE_SESSION_ROUTES.endOne, async ({ params }) => {
    const label = params.sessionId ?? '';
    const ended = await store.endConsoleSessions({ label }, clock.now(), 'ended by the admin API');
    if (ended === 0) throw new WirebirdError('NotFound', `no open console session ${label}`);
    return { Ended: ended };
  });
}
