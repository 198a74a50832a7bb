import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { AUDIT_PAGE_MAX } from '../../domain/audit/audit.js';
import { invalid } from '../../domain/errors.js';
import { Obj } from '../answer-schemas.js';
import { AuditEntryView, auditView } from '../audit-log.js';
import type { ApiDeps } from '../context.js';
import { serveAdmin, type AdminRoute } from './admin-route.js';
import { accountIdParam } from './guard.js';

export const AUDIT_ROUTES = {
  list: {
    method: 'GET',
    url: '/admin/audit',
    summary: 'The audit log, newest first: who changed what, and when (never a secret).',
    query: Type.Object({
      accountId: Type.Optional(Type.String({ description: 'one account only' })),
      before: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$', description: 'NextCursor' })),
      limit: Type.Optional(
        Type.String({ pattern: '^[0-9]{1,4}$', description: '1 to 1000 (100)' }),
      ),
    }),
    answer: Obj({ DataSet: Type.Array(AuditEntryView), NextCursor: Type.String() }),
  },
} satisfies Record<string, AdminRoute>;

/** GET /admin/audit (docs/security.md#audit-log). */
export function registerAuditAdmin(app: FastifyInstance, deps: ApiDeps): void {
  serveAdmin(app, deps, AUDIT_ROUTES.list, async ({ query }) => {
    const limit = query.limit === undefined ? 100 : Number(query.limit);
    if (limit < 1 || limit > AUDIT_PAGE_MAX)
      throw invalid('limit', `must be 1 to ${AUDIT_PAGE_MAX}`);
    const entries = await deps.store.listAudit({
      // The audit query's schema declares accountId an optional string.
      ...(query.accountId ? { accountId: accountIdParam(query.accountId as string) } : {}),
      ...(query.before ? { before: Number(query.before) } : {}),
      limit,
    });
    const last = entries[entries.length - 1];
    return {
      DataSet: entries.map(auditView),
      NextCursor: entries.length === limit && last ? String(last.id) : '',
    };
  });
}
