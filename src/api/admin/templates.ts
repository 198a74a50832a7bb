import type { FastifyInstance } from 'fastify';
import { WirebirdError, invalid } from '../../domain/errors.js';
import type { ReviewAction } from '../../domain/templates/template-review.js';
import { TemplateStatus } from '../../domain/templates/template.js';
import { reviewById, reviewSignatureById } from '../../review/review-by-id.js';
import { outSignature } from '../actions/out-signature.js';
import { outTemplate } from '../../domain/templates/out-template.js';
import type { ApiDeps } from '../context.js';
import { accountIdParam, ok, sendAdminError } from './guard.js';

const VERBS: Record<string, ReviewAction> = {
  approve: 'approve',
  reject: 'reject',
  disable: 'disable',
};

/** One kind of reviewed thing as the admin API serves it: templates, signatures. */
interface ReviewedAdmin<T> {
  path: string;
  review(id: string, action: ReviewAction, now: number, errDesc?: string): Promise<T>;
  list(filter: { status?: TemplateStatus; accountId?: number }): Promise<T[]>;
  out(item: T): Record<string, unknown>;
  accountOf(item: T): number;
}

export function registerTemplateAdmin(app: FastifyInstance, deps: ApiDeps): void {
  const { store } = deps;
  registerReviewed(app, deps, {
    path: '/admin/templates',
    review: (id, action, now, errDesc) => reviewById(store, id, action, now, errDesc),
    list: (filter) => store.listTemplates(filter),
    out: (t) => outTemplate(t),
    accountOf: (t) => t.accountId,
  });
  registerReviewed(app, deps, {
    path: '/admin/signatures',
    review: (id, action, now, errDesc) => reviewSignatureById(store, id, action, now, errDesc),
    list: (filter) => store.listSignatures(filter),
    out: outSignature,
    accountOf: (s) => s.accountId,
  });
}

/** POST <path>/:id/approve|reject|disable, and GET <path>?status=&accountId= */
function registerReviewed<T>(app: FastifyInstance, deps: ApiDeps, kind: ReviewedAdmin<T>): void {
  app.post<{ Params: { id: string; verb: string }; Body: { ErrDesc?: unknown } | undefined }>(
    `${kind.path}/:id/:verb`,
    async (request, reply) => {
      try {
        const verb = VERBS[request.params.verb];
        if (!verb) throw new WirebirdError('NotFound', `no admin operation ${request.params.verb}`);
        const errDesc = request.body?.ErrDesc;
        if (errDesc !== undefined && typeof errDesc !== 'string')
          throw invalid('ErrDesc', 'must be a string');
        const item = await kind.review(request.params.id, verb, deps.clock.now(), errDesc);
        return ok({ Data: kind.out(item) });
      } catch (err) {
        return sendAdminError(reply, err);
      }
    },
  );
  app.get<{ Querystring: { status?: string; accountId?: string } }>(
    kind.path,
    async (request, reply) => {
      try {
        const status = parseStatus(request.query.status);
        const accountId = request.query.accountId
          ? accountIdParam(request.query.accountId)
          : undefined;
        const list = await kind.list({ status, accountId });
        return ok({ DataSet: list.map((i) => ({ AccountId: kind.accountOf(i), ...kind.out(i) })) });
      } catch (err) {
        return sendAdminError(reply, err);
      }
    },
  );
}

function parseStatus(raw: string | undefined): TemplateStatus | undefined {
  if (raw === undefined || raw === '') return undefined;
  const n = /^\d$/.test(raw) ? Number(raw) : NaN;
  if (!(Object.values(TemplateStatus) as number[]).includes(n))
    throw invalid('status', 'must be 0 to 4');
  return n as TemplateStatus;
}
