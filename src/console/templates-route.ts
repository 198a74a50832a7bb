import type { FastifyInstance } from 'fastify';
import { WirebirdError } from '../domain/errors.js';
import { TemplateStatus } from '../domain/templates/template.js';
import { REVIEWED_AS, type ReviewAction } from '../domain/templates/template-review.js';
import { reviewById, reviewSignatureById } from '../core/review.js';
import { problemPage } from './console-auth.js';
import {
  accountScope,
  consoleAudit,
  pageContext,
  sessionOf,
  type ConsoleContext,
} from './console-deps.js';
import { guardedRoute as guarded, sendPage as send } from './console-routes.js';
import { formReader, text } from './forms.js';
import { templatesPage } from './templates-page.js';

const ListQuery = formReader({ status: text(1), done: text(20), id: text(64) });
const RejectForm = formReader({ reason: text(500) });

const VERBS: Record<string, ReviewAction> = {
  approve: 'approve',
  reject: 'reject',
  disable: 'disable',
};

type Review = (
  id: string,
  verb: ReviewAction,
  now: number,
  reason?: string,
) => Promise<{ id: string; accountId: number }>;

/** The Templates page (templates and signatures), and the admin's review buttons on it. */
export function registerTemplatesRoutes(app: FastifyInstance, ctx: ConsoleContext): void {
  const { store } = ctx;
  app.get(
    '/console/templates',
    guarded(async (request, reply) => {
      const query = ListQuery(request.query);
      const status = query.status === '' ? undefined : parseStatus(query.status);
      const filter = { status, accountId: accountScope(request) };
      const list = await store.listTemplates(filter);
      const signatures = await store.listSignatures(filter);
      const { done, id } = query;
      const notice = done && id ? `${id}: ${done}` : undefined;
      const view = { list, signatures, status, notice };
      return send(reply, templatesPage(pageContext(ctx, request), view));
    }),
  );
  registerReview(app, ctx, 'templates', (id, verb, now, reason) =>
    reviewById(store, id, { action: verb, now, errDesc: reason }).then((t) => ({
      id: t.templateId,
      accountId: t.accountId,
    })),
  );
  registerReview(app, ctx, 'signatures', (id, verb, now, reason) =>
    reviewSignatureById(store, id, { action: verb, now, errDesc: reason }).then((s) => ({
      id: s.sigId,
      accountId: s.accountId,
    })),
  );
}

function registerReview(
  app: FastifyInstance,
  ctx: ConsoleContext,
  path: 'templates' | 'signatures',
  review: Review,
): void {
  app.post(
    `/console/${path}/:id/:verb`,
    guarded(async (request, reply) => {
      if (sessionOf(request).viewer.role !== 'admin')
        return problemPage(reply, 403, 'Refused', `Only the admin reviews ${path}.`);
      const verb = VERBS[request.params.verb ?? ''];
      if (!verb) throw new WirebirdError('NotFound', `no review operation ${request.params.verb}`);
      const reason = verb === 'reject' ? RejectForm(request.body).reason : undefined;
      if (verb === 'reject' && !reason)
        throw new WirebirdError(
          'MissingParameter',
          `reason is required to reject a ${path.slice(0, -1)}`,
        );
      const { id, accountId } = await review(
        request.params.id ?? '',
        verb,
        ctx.clock.now(),
        reason,
      );
      const action = `${path.slice(0, -1)}.${REVIEWED_AS[verb]}`;
      const detail = reason === undefined ? {} : { ErrDesc: reason };
      await consoleAudit(ctx, request, { action, target: id, accountId, detail });
      const done = new URLSearchParams({ done: REVIEWED_AS[verb], id });
      return reply.redirect(`/console/templates?${done.toString()}`, 303);
    }),
  );
}

function parseStatus(raw: string): TemplateStatus {
  const n = Number(raw);
  // A numeric enum: its values are the numbers, its keys the names.
  if (!(Object.values(TemplateStatus) as number[]).includes(n))
    throw new WirebirdError('InvalidParameter', 'status must be 0 to 4');
  // Checked just above to be one of the enum's values.
  return n as TemplateStatus;
}
