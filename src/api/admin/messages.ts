import type { FastifyInstance } from 'fastify';
import { WirebirdError } from '../../domain/errors.js';
import { normalizePhone } from '../../domain/phones/phones.js';
import type { ApiDeps } from '../context.js';
import { ok, sendAdminError } from './guard.js';

export function registerMessageAdmin(app: FastifyInstance, deps: ApiDeps): void {
  app.get<{ Params: { messageId: string } }>(
    '/admin/messages/:messageId',
    async (request, reply) => {
      try {
        const m = await deps.store.getBusinessMessage(request.params.messageId);
        if (!m)
          throw new WirebirdError('NotFound', `MessageId ${request.params.messageId} not found`);
        return ok({
          Data: {
            MessageId: m.messageId,
            AccountId: m.accountId,
            BusinessPhone: m.businessPhone,
            To: m.to,
            Type: m.type,
            Content: JSON.parse(m.content) as unknown,
            Route: m.route,
            UpstreamId: m.upstreamId ?? '',
            Status: m.status,
            Attempts: m.attempts,
            AcceptedAt: Math.floor(m.acceptedAt / 1000),
            History: m.history.map((e) => ({
              Status: e.status,
              Time: Math.floor(e.at / 1000),
              Code: e.code,
              Desc: e.desc,
            })),
          },
        });
      } catch (err) {
        return sendAdminError(reply, err);
      }
    },
  );
  app.get<{ Querystring: { phone?: string; limit?: string } }>('/admin/inbox', async (request) => {
    const limit = Math.min(1000, Math.max(1, Number(request.query.limit) || 100));
    const raw = request.query.phone;
    const parsed = raw ? normalizePhone(raw, deps.config.defaultRegion) : undefined;
    const phone = parsed?.ok ? parsed.e164 : raw;
    const entries = await deps.store.listInbox({ phone, limit });
    return ok({
      DataSet: entries.map((e) => ({
        Kind: e.kind,
        From: e.from,
        To: e.to,
        Type: e.type,
        Body: e.kind === 'sms' ? e.body : (JSON.parse(e.body) as unknown),
        Segments: e.segments,
        Encoding: e.encoding,
        DeliveredAt: Math.floor(e.deliveredAt / 1000),
        Report: e.reportStatus,
        Reported: e.reported,
        Submissions: e.submissions,
        LastAttempt: e.lastAttempt,
      })),
    });
  });
}
