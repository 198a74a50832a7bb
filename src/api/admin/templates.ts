import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { WirebirdError, invalid } from '../../domain/errors.js';
import { REVIEWED_AS, type ReviewAction } from '../../domain/templates/template-review.js';
import { TemplateStatus } from '../../domain/templates/template.js';
import { reviewById, reviewSignatureById } from '../../core/review.js';
import { outSignature } from '../actions/out-signature.js';
import { outTemplate } from '../../domain/templates/out-template.js';
import type { ApiDeps } from '../context.js';
import { OutSignature, OutTemplate, Obj } from '../answer-schemas.js';
import { serveAdmin, type AdminInput, type AdminRoute } from './admin-route.js';
import { accountIdParam } from './guard.js';

const VERBS: Record<string, ReviewAction> = {
  approve: 'approve',
  reject: 'reject',
  disable: 'disable',
};

/** One kind of reviewed thing as the admin API serves it: templates, signatures. */
interface ReviewedAdmin<T> {
  routes: ReturnType<typeof reviewedRoutes>;
  review(id: string, action: ReviewAction, now: number, errDesc?: string): Promise<T>;
  list(filter: { status?: TemplateStatus; accountId?: number }): Promise<T[]>;
  out(item: T): Record<string, unknown>;
  accountOf(item: T): number;
}

/** POST <path>/:id/approve|reject|disable, and GET <path>?status=&accountId= */
function reviewedRoutes(path: string, noun: string, view: TSchema) {
  return {
    review: {
      method: 'POST',
      url: `${path}/:id/:verb`,
      summary: `Approves, rejects (with ErrDesc) or disables a ${noun}.`,
      params: {
        id: { description: `the ${noun}'s id` },
        verb: { description: 'approve, reject or disable', pattern: '^(approve|reject|disable)$' },
      },
      body: Type.Object({
        ErrDesc: Type.Optional(Type.String({ description: 'why it was rejected' })),
      }),
      answer: Obj({ AccountId: Type.Integer(), Data: view }),
      audit: (i: AdminInput, a: Record<string, unknown>) => ({
        // The run refused an unknown verb before anything is recorded.
        action: `${noun}.${REVIEWED_AS[VERBS[i.params.verb ?? ''] ?? 'approve']}`,
        target: i.params.id ?? '',
        accountId: Number(a.AccountId),
        detail: i.body.ErrDesc === undefined ? {} : { ErrDesc: i.body.ErrDesc },
      }),
    },
    list: {
      method: 'GET',
      url: path,
      summary: `Lists the ${noun}s of every account, or of one, optionally of one status.`,
      query: Type.Object({
        status: Type.Optional(Type.String({ description: '0 to 4 (docs/states.md)' })),
        accountId: Type.Optional(Type.String({ description: 'one account only' })),
      }),
      answer: Obj({
        DataSet: Type.Array(Type.Intersect([view, Obj({ AccountId: Type.Integer() })])),
      }),
    },
  } satisfies Record<string, AdminRoute>;
}

export const TEMPLATE_ROUTES = reviewedRoutes('/admin/templates', 'template', OutTemplate);
export const SIGNATURE_ROUTES = reviewedRoutes('/admin/signatures', 'signature', OutSignature);

export function registerTemplateAdmin(app: FastifyInstance, deps: ApiDeps): void {
  const { store } = deps;
  registerReviewed(app, deps, {
    routes: TEMPLATE_ROUTES,
    review: (id, action, now, errDesc) => reviewById(store, id, { action, now, errDesc }),
    list: (filter) => store.listTemplates(filter),
    out: (t) => outTemplate(t),
    accountOf: (t) => t.accountId,
  });
  registerReviewed(app, deps, {
    routes: SIGNATURE_ROUTES,
    review: (id, action, now, errDesc) => reviewSignatureById(store, id, { action, now, errDesc }),
    list: (filter) => store.listSignatures(filter),
    out: outSignature,
    accountOf: (s) => s.accountId,
  });
}

function registerReviewed<T>(app: FastifyInstance, deps: ApiDeps, kind: ReviewedAdmin<T>): void {
  serveAdmin(app, deps, kind.routes.review, async ({ params, body }) => {
    const verb = VERBS[params.verb ?? ''];
    if (!verb) throw new WirebirdError('NotFound', `no admin operation ${params.verb}`);
    // The review body's schema declares ErrDesc an optional string.
    const errDesc = body.ErrDesc as string | undefined;
    const item = await kind.review(params.id ?? '', verb, deps.clock.now(), errDesc);
    return { AccountId: kind.accountOf(item), Data: kind.out(item) };
  });
  serveAdmin(app, deps, kind.routes.list, async ({ query }) => {
    // The list query's schema declares status and accountId optional strings.
    const status = parseStatus(query.status as string | undefined);
    // (the same schema: an optional string)
    const accountId = query.accountId ? accountIdParam(query.accountId as string) : undefined;
    const list = await kind.list({ status, accountId });
    return { DataSet: list.map((i) => ({ AccountId: kind.accountOf(i), ...kind.out(i) })) };
  });
}

function parseStatus(raw: string | undefined): TemplateStatus | undefined {
  if (raw === undefined || raw === '') return undefined;
  const n = /^\d$/.test(raw) ? Number(raw) : NaN;
  // A numeric enum: its values are the numbers, its keys the names.
  if (!(Object.values(TemplateStatus) as number[]).includes(n))
    throw invalid('status', 'must be 0 to 4');
  // Checked just above to be one of the enum's values.
  return n as TemplateStatus;
}
