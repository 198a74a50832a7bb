import type { FastifyInstance } from 'fastify';
import { WirebirdError, invalid } from '../../domain/errors.js';
import type { ReviewAction } from '../../domain/templates/template-review.js';
import { reviewById } from '../../review/review-by-id.js';
import { TemplateStatus } from '../../domain/templates/template.js';
import { outTemplate } from '../actions/out-template.js';
import type { ApiDeps } from '../context.js';
import { accountIdParam, ok, sendAdminError } from './guard.js';

const VERBS: Record<string, ReviewAction> = {
  approve: 'approve',
  reject: 'reject',
  disable: 'disable',
};

export function registerTemplateAdmin(app: FastifyInstance, deps: ApiDeps): void {
  app.post<{ Params: { id: string; verb: string }; Body: { ErrDesc?: unknown } | undefined }>(
    '/admin/templates/:id/:verb',
    async (request, reply) => {
      try {
        const verb = VERBS[request.params.verb];
        if (!verb) throw new WirebirdError('NotFound', `no admin operation ${request.params.verb}`);
        const errDesc = request.body?.ErrDesc;
        if (errDesc !== undefined && typeof errDesc !== 'string')
          throw invalid('ErrDesc', 'must be a string');
        const t = await reviewById(deps.store, request.params.id, verb, deps.clock.now(), errDesc);
        return ok({ Data: outTemplate(t) });
      } catch (err) {
        return sendAdminError(reply, err);
      }
    },
  );
  app.get<{ Querystring: { status?: string; accountId?: string } }>(
    '/admin/templates',
    async (request, reply) => {
      try {
        const status = parseStatus(request.query.status);
        const accountId = request.query.accountId
          ? accountIdParam(request.query.accountId)
          : undefined;
        const list = await deps.store.listTemplates({ status, accountId });
        return ok({ DataSet: list.map((t) => ({ AccountId: t.accountId, ...outTemplate(t) })) });
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
